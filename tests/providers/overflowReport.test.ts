import { describe, expect, it } from "vitest";
import { classifyHttpError } from "../../src/providers/classify";
import { parseOverflowReport } from "../../src/providers/overflowReport";
import { OVERFLOW_BODIES } from "../support/providerErrors";

const ctx = { provider: "openai" as const, model: "m", origin: "http://localhost:8080" };

describe("the numbers in a server's 'prompt too long'", () => {
	it.each([
		["openai", { window: 128000, promptTokens: 130412 }],
		["vllm", { window: 4096, promptTokens: 4608 }],
		["llamacpp", { window: 4096, promptTokens: 5000 }],
		["lmstudio", { window: 4096, promptTokens: 5120 }],
		["vllmV1", { window: 4096, promptTokens: 5120 }],
		["lmstudioKeep", {}],
		["lmstudioNKeep200", { window: 4096, promptTokens: 5120 }],
		["anthropic", { window: 200000, promptTokens: 205351 }],
		["ollama", {}],
	])("%s: classified errors carry the window and prompt size the server named", (name, expected) => {
		const { reply } = OVERFLOW_BODIES[name]!;
		const err = classifyHttpError(ctx, reply.status === 200 ? 400 : reply.status, reply.body, new Headers());
		expect(err.kind).toBe("context_overflow");
		expect(err.overflow).toEqual(expected);
	});

	it.each([
		["This model's maximum context length is 8192 tokens. However, your messages resulted in 9999 tokens", { window: 8192, promptTokens: 9999 }],
		["prompt is too long: 210000 tokens > 200000 maximum", { window: 200000, promptTokens: 210000 }],
		[
			"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4500 in the messages, 500 in the completion)",
			{ window: 4096, promptTokens: 4500 },
		],
		["Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)", { window: 7424, promptTokens: 15028 }],
		["the request exceeds the context size (n_ctx)", {}],
		["Input length 5,120 exceeds context length 4,096", { window: 4096, promptTokens: 5120 }],
	])("reads %j", (message, expected) => {
		expect(parseOverflowReport(message)).toEqual(expected);
	});

	it("takes llama.cpp's n_ctx and n_prompt_tokens fields when the words name no numbers", () => {
		const body = { error: { code: 400, message: "the request exceeds the available context size, try increasing it", type: "exceed_context_size_error", n_prompt_tokens: 9000, n_ctx: 8192 } };
		const err = classifyHttpError(ctx, 400, JSON.stringify(body), new Headers());
		expect(err.overflow).toEqual({ window: 8192, promptTokens: 9000 });
	});
});
