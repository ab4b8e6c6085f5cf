import { describe, expect, it } from "vitest";
import { AnswerMeter } from "../../src/chat/answerMeter";
import { asAnswerStats, chatUsage } from "../../src/core/answerStats";
import type { ChatMessage } from "../../src/core/types";

describe("cached prompt tokens in an answer's stats", () => {
	it("are summed over the requests that reported them, and only of counted prompts", () => {
		const meter = new AnswerMeter(() => 0, "m", "anthropic");
		meter.add({ sentAt: 0, firstTokenAt: undefined, usage: { promptTokens: 5030, completionTokens: 10, cachedPromptTokens: 4210, cacheWriteTokens: 20 }, estimatedPrompt: 5000, estimatedAnswer: 10 });
		meter.add({ sentAt: 0, firstTokenAt: undefined, usage: { promptTokens: 6000, completionTokens: 10, cachedPromptTokens: 5000 }, estimatedPrompt: 6000, estimatedAnswer: 10 });
		// A request without a prompt count: its (guessed) cached part is not added.
		meter.add({ sentAt: 0, firstTokenAt: undefined, usage: { completionTokens: 10, cachedPromptTokens: 999 }, estimatedPrompt: 100, estimatedAnswer: 10 });
		expect(meter.stats()).toMatchObject({ promptTokens: 11130, cachedPromptTokens: 9210, cacheWriteTokens: 20 });
	});

	it("a server that never spoke of a cache leaves no cached count", () => {
		const meter = new AnswerMeter(() => 0, "m", "ollama");
		meter.add({ sentAt: 0, firstTokenAt: undefined, usage: { promptTokens: 100, completionTokens: 10 }, estimatedPrompt: 100, estimatedAnswer: 10 });
		expect(meter.stats()?.cachedPromptTokens).toBeUndefined();
	});

	it("saved stats keep a sane cached count and drop one larger than the prompt; a chat's totals sum them per model", () => {
		const base = { promptTokens: 5030, answerTokens: 10, reported: { prompt: true, answer: true }, requests: 1, model: "m", provider: "anthropic" };
		expect(asAnswerStats({ ...base, cachedPromptTokens: 4210 })?.cachedPromptTokens).toBe(4210);
		expect(asAnswerStats({ ...base, cachedPromptTokens: 9999 })?.cachedPromptTokens).toBeUndefined();
		expect(asAnswerStats({ ...base, cachedPromptTokens: "x" })).toMatchObject({ promptTokens: 5030 });
		const answer = (id: string, cached: number): ChatMessage => ({ id, role: "assistant", content: "…", createdAt: "2026-01-01T00:00:00.000Z", stats: { ...base, cachedPromptTokens: cached } });
		expect(chatUsage([answer("a", 4210), answer("b", 1000)])?.models).toEqual([{ model: "m", provider: "anthropic", promptTokens: 10060, answerTokens: 20, cachedPromptTokens: 5210 }]);
	});
});
