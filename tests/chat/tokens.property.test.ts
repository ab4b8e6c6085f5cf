import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { estimateMessageTokens, estimatePromptTokens } from "../../src/chat/promptCost";
import { estimateTokens, safeBudget } from "../../src/chat/tokens";

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const anyUtf16 = fc.string({ unit: codeUnit, maxLength: 300 });

/** Text built from the scripts and shapes the estimator distinguishes, mixed at random. */
const pools = [
	"the quick brown fox jumps over lazy dog interoperability ",
	"Éléphant façade naïve Größe señor ",
	"привіт світ привет мир ",
	"中文字符日本語ひらがなカタカナ한국어",
	"مرحبا שלום नमस्ते สวัสดี γειά ",
	"😀🎉👍🏽\u200d\ufe0f",
	"0123456789",
	"  \n\t\n\n",
	".,;:!?()[]{}<>=/'\"`",
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
	"\ud800\udc00\udfff\ud83d",
];
const mixedText = fc
	.subarray(pools, { minLength: 1, maxLength: 4 })
	.chain((chosen) => {
		const chars = [...chosen.join("")];
		return fc.array(fc.constantFrom(...chars), { maxLength: 400 }).map((a) => a.join(""));
	});
const anyText = fc.oneof(anyUtf16, mixedText, fc.string({ unit: "grapheme", maxLength: 200 }));

describe("estimateTokens properties", () => {
	it("is a finite non-negative integer for any string, and never throws", () => {
		fc.assert(
			fc.property(anyText, (text) => {
				const n = estimateTokens(text);
				expect(Number.isInteger(n)).toBe(true);
				expect(n).toBeGreaterThanOrEqual(0);
			}),
			{ numRuns: 2000 },
		);
	});

	it("is 0 exactly for the empty string", () => {
		fc.assert(
			fc.property(anyText, (text) => {
				expect(estimateTokens(text) === 0).toBe(text.length === 0);
			}),
			{ numRuns: 1000 },
		);
	});

	it("is nearly additive: estimate(a + b) within 3 + 5% of estimate(a) + estimate(b)", () => {
		// Only the pieces at the seam and the blend of the line they share can change.
		fc.assert(
			fc.property(anyText, anyText, (a, b) => {
				const sum = estimateTokens(a) + estimateTokens(b);
				const joined = estimateTokens(a + b);
				expect(Math.abs(joined - sum)).toBeLessThanOrEqual(3 + 0.05 * sum);
			}),
			{ numRuns: 3000 },
		);
	});

	it("grows with repetition: n copies of a line cost about n times one", () => {
		fc.assert(
			fc.property(mixedText, fc.integer({ min: 2, max: 20 }), (line, n) => {
				const one = estimateTokens(`${line}\n`);
				const many = estimateTokens(`${line}\n`.repeat(n));
				expect(many).toBeGreaterThanOrEqual(n * one - 3 * n);
				// Each join between copies ("…\n" then the line's first character) is priced as a pair
				// that the start of a text does not have: up to a quarter token per copy (e.g. "1 :\n").
				expect(many).toBeLessThanOrEqual(n * one + Math.ceil(n / 4) + 3);
			}),
			{ numRuns: 500 },
		);
	});
});

describe("prompt estimate properties", () => {
	const message = fc.record({
		role: fc.constantFrom("system" as const, "user" as const, "assistant" as const),
		content: anyText,
	});

	it("a prompt costs more than its messages' text alone, and each message more than its text", () => {
		fc.assert(
			fc.property(fc.array(message, { maxLength: 12 }), (messages) => {
				const text = messages.reduce((t, m) => t + estimateTokens(m.content), 0);
				for (const m of messages) expect(estimateMessageTokens(m)).toBeGreaterThan(estimateTokens(m.content));
				expect(estimatePromptTokens(messages)).toBeGreaterThan(text);
			}),
		);
	});

	it("safeBudget never exceeds the budget and never goes negative", () => {
		fc.assert(
			fc.property(fc.double({ noNaN: false }), (budget) => {
				const safe = safeBudget(budget);
				expect(Number.isInteger(safe)).toBe(true);
				expect(safe).toBeGreaterThanOrEqual(0);
				if (Number.isFinite(budget) && budget > 0) expect(safe).toBeLessThanOrEqual(budget);
			}),
		);
	});
});
