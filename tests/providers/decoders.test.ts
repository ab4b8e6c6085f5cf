import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAdapter, type ProviderName } from "../../src/providers";
import type { GenerateRequest } from "../../src/core/types";
import { memoryTransport, splitAt } from "../support/memoryTransport";
import {
	anthropicStream,
	headersFor,
	loadRecording,
	MULTIBYTE_TOKENS,
	ollamaStream,
	openaiStream,
	streamFor,
	type StreamOptions,
} from "../support/providerStreams";

const encoder = new TextEncoder();
const DIALECTS: ProviderName[] = ["ollama", "openai", "anthropic"];

function request(onToken?: (d: string) => void): GenerateRequest {
	return { purpose: "chat", messages: [{ role: "user", content: "Hi" }], maxTokens: 64, contextWindow: 4096, onToken };
}

async function generateFrom(provider: ProviderName, body: string, cuts: number[] = [], headers = headersFor(provider)) {
	const bytes = encoder.encode(body);
	const transport = memoryTransport({ headers, chunks: splitAt(bytes, cuts) });
	const adapter = createAdapter({ provider, baseUrl: "http://127.0.0.1:9", model: "m", transport });
	const tokens: string[] = [];
	const result = await adapter.generate(request((d) => tokens.push(d)));
	return { result, tokens };
}

describe("stream decoding, any chunking", () => {
	for (const provider of DIALECTS) {
		it(`${provider}: text, tokens and usage do not depend on where chunks split (multibyte, lines, CRLF)`, async () => {
			await fc.assert(
				fc.asyncProperty(
					fc.array(fc.string({ unit: "grapheme", minLength: 0, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
					fc.array(fc.nat({ max: 4000 }), { maxLength: 40 }),
					fc.boolean(),
					fc.nat({ max: 2 }),
					async (tokens, cuts, crlf, leadingBlankLines) => {
						const opts: StreamOptions = { crlf, leadingBlankLines, promptTokens: 42, completionTokens: 7 };
						const { result, tokens: streamed } = await generateFrom(provider, streamFor(provider, tokens, opts), cuts);
						expect(result.text).toBe(tokens.join(""));
						expect(streamed.join("")).toBe(tokens.join(""));
						// Anthropic's generated stream carries its (zero) cache counts; the others none.
						const cache = provider === "anthropic" ? { cachedPromptTokens: 0, cacheWriteTokens: 0 } : {};
						expect(result.usage).toEqual({ promptTokens: 42, completionTokens: 7, ...cache });
					},
				),
				{ numRuns: 60 },
			);
		});

		it(`${provider}: one byte at a time keeps every multibyte character whole`, async () => {
			const body = streamFor(provider, MULTIBYTE_TOKENS);
			const cuts = Array.from({ length: encoder.encode(body).length }, (_, i) => i);
			const { result, tokens } = await generateFrom(provider, body, cuts);
			expect(result.text).toBe(MULTIBYTE_TOKENS.join(""));
			expect(tokens.some((t) => t.includes("\uFFFD"))).toBe(false);
		});

		it(`${provider}: a stream without its terminator is a protocol error, never a short answer`, async () => {
			await expect(generateFrom(provider, streamFor(provider, ["Half", " an answer"], { noTerminator: true }))).rejects.toMatchObject({ kind: "protocol" });
		});
	}
});

describe("recordings", () => {
	it("replays OpenAI's recorded stream: text, and usage from the choices: [] chunk", async () => {
		const { result } = await generateFrom("openai", loadRecording("openai-chat.sse"), [5, 77, 300, 301, 1200]);
		expect(result.text).toBe('{"city":"San Francisco","units":"c"}');
		expect(result.usage).toEqual({ promptTokens: 17, completionTokens: 10 });
	});

	it("replays Anthropic's recorded stream: text, message_start input and message_delta output tokens", async () => {
		const { result } = await generateFrom("anthropic", loadRecording("anthropic-basic.sse"), [3, 100, 101, 640]);
		expect(result.text).toBe("Hello there!");
		expect(result.usage).toEqual({ promptTokens: 11, completionTokens: 6 });
	});
});

describe("dialect details", () => {
	it("ollama: thinking is kept apart from the answer", async () => {
		const { result, tokens } = await generateFrom("ollama", ollamaStream(["The answer."], { thinking: ["Let me ", "think."] }));
		expect(result.text).toBe("The answer.");
		expect(result.thinking).toBe("Let me think.");
		expect(tokens.join("")).toBe("The answer.");
	});

	it("ollama: a final line without a newline still counts", async () => {
		const body = ollamaStream(["Hi"]).replace(/\n$/, "");
		const { result } = await generateFrom("ollama", body);
		expect(result.text).toBe("Hi");
	});

	it("openai: llama.cpp's usage on the finish chunk", async () => {
		const { result } = await generateFrom("openai", openaiStream(["a", "b"], { usageOnFinishChunk: true, promptTokens: 9, completionTokens: 2 }));
		expect(result.usage).toEqual({ promptTokens: 9, completionTokens: 2 });
	});

	it("openai: a finish_reason without [DONE] ends the answer", async () => {
		const { result } = await generateFrom("openai", openaiStream(["a", "b"], { noDone: true }));
		expect(result.text).toBe("ab");
		expect(result.usage).toBeUndefined();
	});

	it("openai: reasoning_content is thinking, not answer", async () => {
		const { result } = await generateFrom("openai", openaiStream(["Yes."], { thinking: ["hmm"] }));
		expect(result).toMatchObject({ text: "Yes.", thinking: "hmm" });
	});

	it("openai: vLLM's mid-stream error object is an error with its message", async () => {
		const vllmError = { object: "error", message: "This model's maximum context length is 4096 tokens.", type: "BadRequestError", param: null, code: 400 };
		const body = openaiStream(["a"], { noTerminator: true }) + `data: ${JSON.stringify(vllmError)}\n\n`;
		await expect(generateFrom("openai", body)).rejects.toMatchObject({ kind: "context_overflow", message: vllmError.message });
	});

	it("openai: SSE comments (OpenRouter keep-alives) are ignored", async () => {
		const { result } = await generateFrom("openai", `: OPENROUTER PROCESSING\n\n${openaiStream(["ok"])}`);
		expect(result.text).toBe("ok");
	});

	it("anthropic: input counts repeated on message_delta replace those of message_start", async () => {
		const body = anthropicStream(["Hi"], { promptTokens: 5 }).replace('"usage":{"output_tokens":1}', '"usage":{"input_tokens":9,"cache_read_input_tokens":1,"output_tokens":1}');
		const { result } = await generateFrom("anthropic", body);
		// The cache write of message_start (0) stands; the read is message_delta's.
		expect(result.usage).toEqual({ promptTokens: 10, completionTokens: 1, cachedPromptTokens: 1, cacheWriteTokens: 0 });
	});

	it("anthropic: cache tokens count as prompt tokens; thinking and signature deltas are not answer text", async () => {
		const { result } = await generateFrom("anthropic", anthropicStream(["Hi"], { promptTokens: 5, cacheReadTokens: 100, cacheCreationTokens: 20, thinking: ["Because"] }));
		expect(result).toMatchObject({ text: "Hi", thinking: "Because", usage: { promptTokens: 125, completionTokens: 1, cachedPromptTokens: 100, cacheWriteTokens: 20 } });
	});
});

describe("limits", () => {
	it("a line that never ends is a protocol error, not unbounded memory", async () => {
		const { LineSplitter } = await import("../../src/providers/lines");
		const splitter = new LineSplitter(100);
		splitter.push("x".repeat(60), () => undefined);
		expect(() => splitter.push("y".repeat(60), () => undefined)).toThrow(/more than 100 characters/);
	});

	it("an SSE event that never ends is a protocol error", async () => {
		const big = `data: ${"z".repeat(17 * 1024 * 1024)}`;
		await expect(generateFrom("openai", big, [1024 * 1024])).rejects.toMatchObject({ kind: "protocol" });
	});
});
