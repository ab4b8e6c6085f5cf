import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineArb } from "../support/scriptTexts";
import { memoizeEstimate, promptCost } from "../../src/chat/promptCost";
import { planContext, renderContext, segmentsWithin, trimContextToBudget } from "../../src/chat/contextTrim";
import { estimateTokens } from "../../src/chat/tokens";

const docArb = fc.array(lineArb, { maxLength: 120 }).map((lines) => lines.join("\n"));

describe("planContext", () => {
	it("cuts at line ends and stops once past the limit", () => {
		const text = "one\ntwo\nthree\nfour";
		const plan = planContext(text, estimateTokens, 1_000);
		expect(plan.ends).toEqual([4, 8, 14, 18]);
		expect(plan.complete).toBe(true);
		const short = planContext(text, estimateTokens, 1);
		expect(short.complete).toBe(false);
		expect(short.ends.length).toBeLessThan(4);
	});

	it("finds by binary search the same cut as a linear scan", () => {
		fc.assert(
			fc.property(docArb, fc.integer({ min: 0, max: 400 }), (text, limit) => {
				const plan = planContext(text, estimateTokens, limit);
				let linear = 0;
				while (linear < plan.prefix.length && (plan.prefix[linear] ?? Infinity) <= limit) linear++;
				expect(segmentsWithin(plan, limit)).toBe(linear);
				// Prefix sums only grow, and every cut is after a newline or at the end.
				plan.ends.forEach((end, i) => {
					expect(end === text.length || text[end - 1] === "\n" || end - (plan.ends[i - 1] ?? 0) === 4000).toBe(true);
				});
			}),
		);
	});
});

describe("trimContextToBudget", () => {
	it("includes the whole document, a cut with a note, or nothing, and never more than asked", () => {
		fc.assert(
			fc.property(docArb, fc.integer({ min: 0, max: 800 }), (text, available) => {
				const trimmed = trimContextToBudget(text, "Note", available, estimateTokens);
				if (trimmed.inclusion.included === "none") {
					expect(trimmed.block).toBe("");
					return;
				}
				// The sum of line estimates decides; buildPrompt checks the joined text against the real total.
				expect(trimmed.block).toContain("BEGIN DOCUMENT");
				if (trimmed.inclusion.included === "whole") expect(trimmed.block).toBe(renderContext(text, "Note", text.length));
				else expect(trimmed.block).toContain("The document was cut here");
			}),
		);
	});
});

describe("memoizeEstimate", () => {
	it("gives the same answers as the estimator it wraps, and estimates a repeated text once", () => {
		let calls = 0;
		const memo = memoizeEstimate((t) => {
			calls++;
			return estimateTokens(t);
		}, 10);
		const texts = ["a fairly long first text here", "another fairly long text here", "a third fairly long text here", "and a fourth fairly long one"];
		for (const t of [...texts, ...texts]) expect(memo(t)).toBe(estimateTokens(t));
		expect(calls).toBe(4);
		calls = 0;
		memo("short");
		memo("short");
		expect(calls).toBe(2);
		expect(promptCost([{ role: "user", content: "hi" }], memo)).toBeGreaterThan(estimateTokens("hi"));
	});
});
