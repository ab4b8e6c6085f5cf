import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/chat/tokens";
import { sentenceEnds } from "../../src/context/excerptTopUp";
import { clearPassageCache } from "../../src/context/passageCache";
import { fitSource, GAP } from "../../src/context/relevanceFit";

const chapter = (i: number): string =>
	`## Chapter ${i}\n\nThe garden needs compost, water and patience in spring. Tomatoes ripen slowly when nights are cold, number ${i}. ` +
	`Beans climb the fence by June; the brass key ${i % 7 === 0 ? "is kept under the mat" : "was lost"} near the shed.\n\n` +
	`Смотритель перекрасил фонарное помещение в синий цвет, глава ${i}. 灯台守は灯室をコバルトブルーに塗り替えた。`;
const note = (n: number): string => Array.from({ length: n }, (_, i) => chapter(i)).join("\n\n");

beforeEach(() => clearPassageCache());

describe("excerpt top-up", () => {
	it("leaves at most 2.5% of its budget (32 tokens on a small one) unused when relevant passages are more than fit", () => {
		fc.assert(
			fc.property(fc.integer({ min: 120, max: 400 }), fc.integer({ min: 400, max: 6000 }), (chapters, budget) => {
				const text = note(chapters);
				fc.pre(estimateTokens(text) > budget * 1.2);
								const r = fitSource({ id: `n${chapters}`, name: "N", text }, budget, "where is the brass key kept?", estimateTokens);
				expect(r.fit).toBe("excerpts");
				expect(r.sentTokens).toBeLessThanOrEqual(budget);
				expect(budget - r.sentTokens).toBeLessThanOrEqual(Math.max(32, budget * 0.025));
			}),
			{ numRuns: 40 },
		);
	});

	it("ends a cut passage at a sentence or line end, with a gap mark after it, and reports its range", () => {
		const text = note(200);
		const r = fitSource({ id: "cut", name: "N", text }, 1500, "where is the brass key kept?", estimateTokens);
		const partial = r.passages.filter((p) => {
			const next = text.indexOf("\n\n## Chapter", p.start + 1);
			return p.end < (next < 0 ? text.length : next);
		});
		expect(partial).toHaveLength(1);
		for (const p of partial) {
			const body = text.slice(p.start, p.end).trimEnd();
			expect(/[.!?;:。！？；]$/.test(body) || /\n/.test(text.slice(p.end - 1, p.end))).toBe(true);
			expect(r.text).toContain(`${body}\n\n${GAP}`);
		}
		let at = 0;
		for (const p of r.passages) {
			const body = text.slice(p.start, p.end).trimEnd();
			const found = r.text.indexOf(body, at);
			expect(found).toBeGreaterThanOrEqual(at);
			at = found + body.length;
		}
	});

	it("finds sentence and line ends in Latin, Cyrillic and Japanese text", () => {
		const text = "One. Two! Три? 四。五\nsix";
		expect(sentenceEnds(text, 0, text.length).map((e) => text.slice(0, e))).toEqual(["One.", "One. Two!", "One. Two! Три?", "One. Two! Три? 四。", "One. Two! Три? 四。五\n"]);
	});
});
