import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/chat/tokens";
import { clearPassageCache } from "../../src/context/passageCache";
import { fitSource, GAP } from "../../src/context/relevanceFit";
import { textArb } from "../support/scriptTexts";

const filler = (n: number): string =>
	Array.from({ length: n }, (_, i) => `## Chapter ${i}\n\nThe garden needs compost, water and patience in spring. Tomatoes ripen slowly when nights are cold, number ${i}.`).join("\n\n");

beforeEach(() => clearPassageCache());

describe("fitSource", () => {
	it("never sends more than the budget", () => {
		fc.assert(
			fc.property(fc.array(textArb, { maxLength: 40 }), fc.integer({ min: 0, max: 600 }), textArb, (parts, budget, query) => {
				const text = parts.join("\n\n");
				const r = fitSource({ id: "n", name: "N", text }, budget, query, estimateTokens);
				expect(estimateTokens(r.text)).toBeLessThanOrEqual(budget);
				expect(r.sentTokens).toBe(estimateTokens(r.text));
				if (r.fit === "none") expect(r.text).toBe("");
			}),
			{ numRuns: 150 },
		);
	});

	it("sends a source that fits whole verbatim", () => {
		fc.assert(
			fc.property(textArb, textArb, (text, query) => {
				const budget = estimateTokens(text);
				const r = fitSource({ id: "n", name: "N", text }, budget, query, estimateTokens);
				expect(r).toMatchObject({ text, fit: "whole", sentTokens: budget, totalTokens: budget });
			}),
		);
	});

	it("sends excerpts in document order, each from the note, with a gap mark between them", () => {
		fc.assert(
			fc.property(fc.integer({ min: 30, max: 80 }), fc.subarray([3, 11, 17, 25, 29], { minLength: 2 }), fc.integer({ min: 150, max: 700 }), (chapters, picks, budget) => {
				const text = filler(chapters).replace(/number (\d+)\./g, (m, n: string) => (picks.includes(Number(n)) ? `${m} The brass key is kept under the mat ${n}.` : m));
				const r = fitSource({ id: `n${chapters}`, name: "N", text }, budget, "where is the brass key kept?", estimateTokens);
				expect(r.fit).toBe("excerpts");
				const starts = r.passages.map((p) => p.start);
				expect(starts).toEqual([...starts].sort((a, b) => a - b));
				let at = 0;
				for (const p of r.passages) {
					const body = text.slice(p.start, p.end).trimEnd();
					const found = r.text.indexOf(body, at);
					expect(found).toBeGreaterThanOrEqual(at);
					at = found + body.length;
				}
				expect(r.text).toContain(GAP);
			}),
			{ numRuns: 40 },
		);
	});

	it("gives the last section of a 1 MB note when the answer is there", () => {
		const text = `${filler(8000)}\n\n## Boathouse\n\nThe spare key to the boathouse hangs behind the barometer in the hallway.\n`;
		expect(text.length).toBeGreaterThan(1_000_000);
		const r = fitSource({ id: "big", name: "Big", text }, 2000, "Where is the spare key for the boathouse?", estimateTokens);
		expect(r.fit).toBe("excerpts");
		expect(r.text).toContain("behind the barometer");
		expect(r.text).toContain("## Boathouse");
		expect(r.sentTokens).toBeLessThanOrEqual(2000);
	});

	it("finds the answer across scripts: Chinese, Japanese, Russian inflection-free, German accents, camelCase", () => {
		const cases: [string, string, string][] = [
			["灯塔看守人把灯室重新漆成了钴蓝色。", "灯室漆成了什么颜色？", "钴蓝色"],
			["灯台守は灯室をコバルトブルーに塗り替えた。", "灯室は何色に塗られた？", "コバルトブルー"],
			["Смотритель перекрасил фонарное помещение в синий цвет.", "в какой цвет перекрасил смотритель фонарное помещение", "синий"],
			["Die Laternenkammer wurde kobaltblau gestrichen, sagt der Wärter.", "was sagt der warter zur laternenkammer", "kobaltblau"],
			["The function resolveVaultPath returns the absolute folder.", "what does resolve vault path return", "absolute folder"],
		];
		for (const [needle, question, answer] of cases) {
			const text = `${filler(300)}\n\n## Notes\n\n${needle}\n\n${filler(300)}`;
			const r = fitSource({ id: needle, name: "Mixed", text }, 600, question, estimateTokens);
			expect({ question, found: r.text.includes(answer) }).toEqual({ question, found: true });
		}
	});

	it("with a query of stop words only, sends the note's start and an outline of the rest", () => {
		const text = filler(200);
		const r = fitSource({ id: "n", name: "N", text }, 400, "what is the", estimateTokens);
		expect(r.fit).toBe("excerpts");
		expect(r.text.startsWith("## Chapter 0")).toBe(true);
		expect(r.text).toContain("Outline of the rest:");
		expect(estimateTokens(r.text)).toBeLessThanOrEqual(400);
	});

	it("cuts the best passage to a small budget, and sends nothing below the useful minimum", () => {
		const text = `${filler(50)}\n\n${"The brass key is under the mat and the story goes on. ".repeat(40)}`;
		const r = fitSource({ id: "n", name: "N", text }, 60, "brass key", estimateTokens);
		expect(r.fit).toBe("excerpts");
		expect(r.text).toContain("brass key");
		expect(r.text.endsWith("…")).toBe(true);
		expect(fitSource({ id: "n", name: "N", text }, 10, "brass key", estimateTokens)).toMatchObject({ fit: "none", text: "", sentTokens: 0 });
	});
});
