import { describe, expect, it } from "vitest";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { loadDevSamples, loadOtherScriptSamples, type TokenSample } from "../fixtures/tokens/samples";
import { MESSAGE_OVERHEAD_TOKENS, PROMPT_OVERHEAD_TOKENS, estimateMessageTokens, estimatePromptTokens, memoizeEstimate, promptCost } from "../../src/chat/promptCost";
import { ESTIMATOR_WORST_RATIO, estimateTokens, safeBudget } from "../../src/chat/tokens";

const dev = loadDevSamples();
const other = loadOtherScriptSamples();

function byGroup(samples: readonly TokenSample[]): Map<string, TokenSample[]> {
	const groups = new Map<string, TokenSample[]>();
	for (const s of samples) groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
	return groups;
}

function groupRatio(samples: readonly TokenSample[]): number {
	let estimate = 0;
	let exact = 0;
	for (const s of samples) {
		estimate += estimateTokens(s.text);
		exact += s.o200k;
	}
	return estimate / exact;
}

/** Samples whose estimate falls below `ratio` × their o200k count, for a readable failure. */
function below(samples: readonly TokenSample[], ratio: number): string[] {
	return samples
		.filter((s) => estimateTokens(s.text) < ratio * s.o200k)
		.map((s) => `${s.group}: ${estimateTokens(s.text)} < ${ratio} × ${s.o200k} for ${JSON.stringify(s.text.slice(0, 40))}`);
}

describe("estimateTokens accuracy against o200k", () => {
	it("has the fixtures it claims: six dev categories and many other scripts", () => {
		expect([...byGroup(dev).keys()].sort()).toEqual(["code", "man-ru", "markdown", "prose-de", "prose-en", "prose-ja"]);
		expect(byGroup(other).size).toBeGreaterThanOrEqual(20);
	});

	it("keeps every dev category's total within ±10%", () => {
		for (const [group, samples] of byGroup(dev)) {
			const ratio = groupRatio(samples);
			expect({ group, ok: ratio >= 0.9 && ratio <= 1.1, ratio }).toMatchObject({ group, ok: true });
		}
	});

	it("keeps every other-script group's total within ±10%", () => {
		for (const [group, samples] of byGroup(other)) {
			const ratio = groupRatio(samples);
			expect({ group, ok: ratio >= 0.9 && ratio <= 1.1, ratio }).toMatchObject({ group, ok: true });
		}
	});

	it("never estimates a sample below 0.85× its o200k count", () => {
		expect(below([...dev, ...other], 0.85)).toEqual([]);
	});

	it("never goes below ESTIMATOR_WORST_RATIO × o200k, so the safety margin holds", () => {
		expect(ESTIMATOR_WORST_RATIO).toBeGreaterThan(0.5);
		expect(ESTIMATOR_WORST_RATIO).toBeLessThanOrEqual(1);
		expect(below([...dev, ...other], ESTIMATOR_WORST_RATIO)).toEqual([]);
	});

	it("beats chars/4 where chars/4 undercounts most (Japanese, Chinese, base64)", () => {
		for (const group of ["prose-ja", "chinese", "base64"]) {
			const samples = [...dev, ...other].filter((s) => s.group === group);
			const exact = samples.reduce((t, s) => t + s.o200k, 0);
			const charsDiv4 = samples.reduce((t, s) => t + Math.ceil(s.text.length / 4), 0);
			const estimate = samples.reduce((t, s) => t + estimateTokens(s.text), 0);
			expect(Math.abs(estimate - exact)).toBeLessThan(Math.abs(charsDiv4 - exact) / 3);
		}
	});
});

describe("estimateTokens by script", () => {
	it("is 0 for the empty string and at least 1 for any other", () => {
		expect(estimateTokens("")).toBe(0);
		for (const text of [" ", "a", "\n", "7", "中", "😀", "\ud800", "\u0301"]) expect(estimateTokens(text)).toBeGreaterThanOrEqual(1);
	});

	it("counts short English words as about one token each", () => {
		// "The cat sat on the mat." is 7 o200k tokens; capitalised words carry a small surcharge.
		const text = "The cat sat on the mat.";
		expect(countTokens(text)).toBe(7);
		expect(estimateTokens(text)).toBeGreaterThanOrEqual(7);
		expect(estimateTokens(text)).toBeLessThanOrEqual(8);
	});

	it("splits numbers into groups of three digits", () => {
		expect(estimateTokens("123456789")).toBe(3);
		expect(estimateTokens("1234567890")).toBe(4);
	});

	it("charges ideographs far more than Latin letters of the same length", () => {
		expect(estimateTokens("数据的质量往往比数量更重要")).toBeGreaterThan(estimateTokens("abcdefghijklm") * 4);
	});

	it("splits camelCase identifiers like the tokenizer does", () => {
		expect(estimateTokens("getElementById")).toBeGreaterThanOrEqual(4);
		expect(estimateTokens("getelementbyid")).toBeLessThan(4);
	});

	it("treats a surrogate pair as one character and a lone surrogate as a symbol", () => {
		expect(estimateTokens("\ud83d\ude00")).toBe(estimateTokens("😀"));
		expect(estimateTokens("a\udc00b")).toBeGreaterThanOrEqual(2);
		expect(estimateTokens("\ud83d")).toBeGreaterThanOrEqual(1);
	});

	it("prices random base64 by its length, not by its few spaces", () => {
		const base64 = Buffer.from(Array.from({ length: 600 }, (_, k) => (k * 7919) % 251)).toString("base64");
		expect(estimateTokens(base64)).toBeGreaterThanOrEqual(0.85 * countTokens(base64));
	});
});

describe("message and prompt estimates", () => {
	it("adds the role framing to each message", () => {
		const content = "Summarize this note, please.";
		expect(MESSAGE_OVERHEAD_TOKENS).toBe(4);
		expect(estimateMessageTokens({ role: "user", content })).toBe(estimateTokens(content) + MESSAGE_OVERHEAD_TOKENS);
		expect(estimateMessageTokens({ role: "assistant", content: "" })).toBe(MESSAGE_OVERHEAD_TOKENS);
	});

	it("sums messages and adds the reply priming once", () => {
		const messages = [
			{ role: "system" as const, content: "You are Discover." },
			{ role: "user" as const, content: "Hello there" },
			{ role: "assistant" as const, content: "Hi! How can I help?" },
		];
		const sum = messages.reduce((t, m) => t + estimateMessageTokens(m), 0);
		expect(PROMPT_OVERHEAD_TOKENS).toBe(3);
		expect(estimatePromptTokens(messages)).toBe(sum + PROMPT_OVERHEAD_TOKENS);
		expect(estimatePromptTokens([])).toBe(PROMPT_OVERHEAD_TOKENS);
		// One way of counting: the engine's promptCost with the plain estimator is the public figure.
		expect(promptCost(messages, memoizeEstimate(estimateTokens))).toBe(estimatePromptTokens(messages));
	});
});

describe("safeBudget", () => {
	it("scales the budget down by the estimator's worst ratio", () => {
		expect(safeBudget(7680)).toBe(Math.floor(7680 * ESTIMATOR_WORST_RATIO));
		expect(safeBudget(7680)).toBeLessThan(7680);
	});

	it("is 0 for budgets that are not positive numbers", () => {
		for (const b of [0, -5, Number.NaN, Number.NEGATIVE_INFINITY]) expect(safeBudget(b)).toBe(0);
	});

	it("keeps real o200k tokens within the budget for prompts filled up to it", () => {
		// Fill a prompt with dev and other-script text until the estimate reaches the safe budget.
		const budget = 4000;
		for (const samples of [dev, other]) {
			let text = "";
			for (const s of samples) {
				if (estimateTokens(text + s.text) > safeBudget(budget)) break;
				text += s.text;
			}
			expect(text.length).toBeGreaterThan(0);
			expect(countTokens(text)).toBeLessThanOrEqual(budget);
		}
	});
});
