import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textArb } from "../support/scriptTexts";
import { shortenMiddle, tailToTokens, truncateToTokens } from "../../src/chat/textFit";
import { estimateTokens } from "../../src/chat/tokens";

describe("text fitting", () => {
	it("leaves a text that fits alone", () => {
		expect(truncateToTokens("Short text.", 50, estimateTokens)).toBe("Short text.");
		expect(tailToTokens("Short text.", 50, estimateTokens)).toBe("Short text.");
		expect(shortenMiddle("Short text.", 50, estimateTokens)).toBe("Short text.");
	});

	it("cuts at a word and marks the cut", () => {
		const text = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu";
		const cut = truncateToTokens(text, 5, estimateTokens);
		expect(cut.endsWith("…")).toBe(true);
		expect(text.startsWith(cut.slice(0, -1))).toBe(true);
		expect(cut.slice(0, -1).endsWith(" ")).toBe(false);
		const tail = tailToTokens(text, 5, estimateTokens);
		expect(tail.startsWith("…")).toBe(true);
		expect(text.endsWith(tail.slice(1))).toBe(true);
	});

	it("keeps the start and the end when shortening the middle", () => {
		const text = `BEGIN ${"filler words here ".repeat(500)} END`;
		const short = shortenMiddle(text, 60, estimateTokens);
		expect(short.startsWith("BEGIN")).toBe(true);
		expect(short.endsWith("END")).toBe(true);
		expect(short).toContain("shortened");
	});

	it("reads only a bounded part of a huge text", () => {
		let chars = 0;
		const counting = (t: string): number => {
			chars += t.length;
			return estimateTokens(t);
		};
		truncateToTokens("word ".repeat(400_000), 100, counting);
		expect(chars).toBeLessThan(200_000);
	});

	it("never exceeds the limit and never splits a surrogate pair", () => {
		fc.assert(
			fc.property(textArb, fc.integer({ min: 0, max: 80 }), (text, max) => {
				for (const out of [truncateToTokens(text, max, estimateTokens), tailToTokens(text, max, estimateTokens), shortenMiddle(text, Math.max(1, max), estimateTokens)]) {
					expect(estimateTokens(out)).toBeLessThanOrEqual(Math.max(1, max));
					expect(out).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
				}
			}),
			// Found by this property: the cut moved back to a space priced a token more than the cut tested.
			{ examples: [["\t **bold** - [ ] 42 مرحبا", 5]] },
		);
	});
});
