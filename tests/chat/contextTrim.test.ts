import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineArb } from "../support/scriptTexts";
import { memoizeEstimate, promptCost } from "../../src/chat/promptCost";
import { planContext, segmentsWithin } from "../../src/chat/contextTrim";
import { topCutFitter } from "../../src/chat/topCutFitter";
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

describe("topCutFitter", () => {
	it("sends the whole text, a start cut at a line with a note, or nothing, and never more than asked", () => {
		fc.assert(
			fc.property(docArb, fc.integer({ min: 0, max: 800 }), (text, budget) => {
				const fitted = topCutFitter({ id: "n.md", name: "Note", text }, budget, "query", estimateTokens);
				expect(fitted.totalTokens).toBe(estimateTokens(text));
				if (fitted.fit === "none") {
					expect(fitted.text).toBe("");
					return;
				}
				expect(estimateTokens(fitted.text)).toBeLessThanOrEqual(budget);
				expect(fitted.sentTokens).toBe(estimateTokens(fitted.text));
				if (fitted.fit === "whole") {
					expect(fitted.text).toBe(text);
					return;
				}
				const end = fitted.passages[0]?.end ?? 0;
				expect(fitted.passages).toEqual([{ start: 0, end, headingPath: "" }]);
				expect(fitted.text.startsWith(text.slice(0, end).replace(/\n+$/, ""))).toBe(true);
				expect(fitted.text).toContain("Cut here to fit");
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
