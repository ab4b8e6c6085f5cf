import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { meteredUsage, PromptCountGuard, sharedPrefix } from "../../src/chat/cacheCounts";
import { promptCost } from "../../src/chat/promptCost";
import { estimateTokens } from "../../src/chat/tokens";
import type { PromptMessage } from "../../src/core/types";

const messageArb = fc.record({ role: fc.constantFrom<PromptMessage["role"]>("system", "user", "assistant"), content: fc.string({ minLength: 1, maxLength: 200 }) });

describe("PromptCountGuard", () => {
	it("gives back the server's count or nothing, never another number; a count with its cached part is always kept; a prompt that repeats nothing is always counted", () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.array(messageArb, { minLength: 1, maxLength: 6 }), fc.nat({ max: 5 }), fc.integer({ min: -5, max: 5000 }), fc.option(fc.nat({ max: 5000 }), { nil: undefined })), { maxLength: 12 }), (turns) => {
				const guard = new PromptCountGuard();
				let previous: PromptMessage[] | undefined;
				for (const [tail, keep, reported, cached] of turns) {
					const messages = [...(previous ?? []).slice(0, keep), ...tail];
					const usage = { promptTokens: reported, ...(cached === undefined ? {} : { cachedPromptTokens: cached }) };
					const expected = promptCost(messages, estimateTokens);
					const shared = previous === undefined ? 0 : sharedPrefix(previous, messages).length;
					const whole = guard.whole("m", { usage, messages, expected, rawEstimate: estimateTokens });
					if (reported <= 0) expect(whole).toBeUndefined();
					else if (cached !== undefined || shared === 0) expect(whole).toBe(reported);
					else expect([undefined, reported]).toContain(whole);
					// The meter shows the count only where calibration may learn from it.
					expect(meteredUsage(usage, whole)?.promptTokens).toBe(whole === undefined ? undefined : reported);
					previous = messages;
				}
			}),
		);
	});

	it("a count far below the estimate of a prompt that repeated most of the previous one is set aside; after it, so is every count of a repeating prompt", () => {
		const guard = new PromptCountGuard();
		const long = "The mill by the river has stood since the war. ".repeat(40);
		const first: PromptMessage[] = [{ role: "system", content: long }, { role: "user", content: "Q1" }];
		const est = (m: PromptMessage[]): number => promptCost(m, estimateTokens);
		expect(guard.whole("m", { usage: { promptTokens: est(first) }, messages: first, expected: est(first), rawEstimate: estimateTokens })).toBe(est(first));
		const second: PromptMessage[] = [...first, { role: "assistant", content: "A1" }, { role: "user", content: "Q2" }];
		expect(guard.whole("m", { usage: { promptTokens: 12 }, messages: second, expected: est(second), rawEstimate: estimateTokens })).toBeUndefined();
		// Known now to count only new tokens: even a plausible count of a repeating prompt is set aside…
		const third: PromptMessage[] = [...second, { role: "assistant", content: "A2" }, { role: "user", content: "Q3" }];
		expect(guard.whole("m", { usage: { promptTokens: est(third) }, messages: third, expected: est(third), rawEstimate: estimateTokens })).toBeUndefined();
		// …but a prompt that repeats nothing is counted whole, and another model is judged on its own.
		const fresh: PromptMessage[] = [{ role: "user", content: "Something else entirely" }];
		expect(guard.whole("m", { usage: { promptTokens: 9 }, messages: fresh, expected: est(fresh), rawEstimate: estimateTokens })).toBe(9);
		expect(guard.whole("other", { usage: { promptTokens: 9 }, messages: third, expected: est(third), rawEstimate: estimateTokens })).toBe(9);
	});
});
