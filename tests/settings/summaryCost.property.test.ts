// What an answer costs covers the summary requests its turn made (same model, billed like any
// request), and a chat's cost is its answers' costs summed: for any counts and prices.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { answerCost, chatCost, tokensCost, type ModelPrice } from "../../src/settings/prices";
import { billedTokens, chatUsage } from "../../src/core/answerStats";
import type { AnswerStats, ChatMessage } from "../../src/core/types";

const MODELS = ["gpt-4o-mini", "claude-x", "llama3.2"];
const count = fc.integer({ min: 0, max: 2_000_000 });
const price = fc.double({ min: 0, max: 100, noNaN: true });
const prices = fc.tuple(price, price, price, price).map(([a, b, c, d]): ModelPrice[] => [
	{ model: "gpt-4o-mini", input: a, output: b },
	{ model: "claude-x", input: c, output: d },
]);
const summary = fc.option(fc.record({ promptTokens: count, answerTokens: count, reported: fc.record({ prompt: fc.boolean(), answer: fc.boolean() }), requests: fc.integer({ min: 1, max: 24 }) }), { nil: undefined });
const stats = fc.record({ model: fc.constantFrom(...MODELS), promptTokens: count, answerTokens: count, summary }).map(({ summary: s, ...rest }): AnswerStats => ({
	...rest,
	reported: { prompt: true, answer: true },
	requests: 1,
	...(s === undefined ? {} : { summary: s }),
}));
const answer = (s: AnswerStats, i: number): ChatMessage => ({ id: `a${i}`, role: "assistant", content: "…", createdAt: "2026-01-01T00:00:00.000Z", stats: s });
const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe("the cost of summary requests", () => {
	it("an answer costs its own tokens and its summary's at its model's prices", () => {
		fc.assert(
			fc.property(stats, prices, (s, list) => {
				const cost = answerCost(s, list);
				const p = list.find((x) => x.model === s.model);
				if (p === undefined) return cost === undefined;
				const expected = tokensCost(p, s.promptTokens + (s.summary?.promptTokens ?? 0), s.answerTokens + (s.summary?.answerTokens ?? 0));
				const without = tokensCost(p, s.promptTokens, s.answerTokens);
				return cost !== undefined && close(cost, expected) && cost >= without;
			}),
		);
	});

	it("a chat's tokens and cost are its answers' billed tokens and costs, summed", () => {
		fc.assert(
			fc.property(fc.array(stats, { minLength: 1, maxLength: 12 }), prices, (all, list) => {
				const usage = chatUsage(all.map(answer));
				const billed = all.map(billedTokens);
				expect(usage?.promptTokens).toBe(billed.reduce((a, b) => a + b.promptTokens, 0));
				expect(usage?.answerTokens).toBe(billed.reduce((a, b) => a + b.answerTokens, 0));
				expect(usage?.requests).toBe(all.reduce((a, s) => a + s.requests + (s.summary?.requests ?? 0), 0));
				const costs = all.map((s) => answerCost(s, list)).filter((c): c is number => c !== undefined);
				const chat = chatCost(usage!, list);
				if (costs.length === 0) expect(chat).toBeUndefined();
				else expect(close(chat?.cost ?? NaN, costs.reduce((a, b) => a + b, 0))).toBe(true);
			}),
		);
	});

	it("table: a summary adds its tokens at the input and output prices", () => {
		const list: ModelPrice[] = [{ model: "gpt-4o-mini", input: 0.15, output: 0.6 }];
		const base: AnswerStats = { promptTokens: 12_000, answerTokens: 800, reported: { prompt: true, answer: true }, requests: 1, model: "gpt-4o-mini" };
		const rows: [AnswerStats["summary"], number][] = [
			[undefined, 0.00228],
			// + 3,000 × 0.15 / 1M + 200 × 0.6 / 1M = + 0.00057
			[{ promptTokens: 3_000, answerTokens: 200, reported: { prompt: true, answer: true }, requests: 1 }, 0.00285],
			// An estimated summary costs the same as a reported one of the same size.
			[{ promptTokens: 1_000_000, answerTokens: 0, reported: { prompt: false, answer: false }, requests: 3 }, 0.15228],
		];
		for (const [s, cost] of rows) expect(answerCost({ ...base, ...(s === undefined ? {} : { summary: s }) }, list)).toBeCloseTo(cost, 10);
	});
});
