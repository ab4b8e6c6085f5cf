// Each provider's own cache fields, read from spec-exact or recorded usage blocks
// (tests/fixtures/providers/cache/README.md says where each comes from), and Anthropic's cache
// breakpoints on the wire.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAdapter, type ProviderName } from "../../src/providers";
import { MAX_CACHE_BREAKPOINTS, toAnthropicPrompt, withCacheBreakpoints } from "../../src/providers/anthropicPrompt";
import type { GenerateRequest, PromptMessage } from "../../src/core/types";
import { memoryTransport, splitAt } from "../support/memoryTransport";
import { headersFor } from "../support/providerStreams";

const encoder = new TextEncoder();

function fixture(name: string): string {
	return readFileSync(fileURLToPath(new URL(`../fixtures/providers/cache/${name}`, import.meta.url)), "utf8");
}

const request: GenerateRequest = { purpose: "chat", messages: [{ role: "user", content: "Hi" }], maxTokens: 64, contextWindow: 8192 };

async function usageOf(provider: ProviderName, body: string, cuts: number[] = []) {
	const transport = memoryTransport({ headers: headersFor(provider), chunks: splitAt(encoder.encode(body), cuts) });
	const adapter = createAdapter({ provider, baseUrl: "http://127.0.0.1:9", model: "m", transport });
	return (await adapter.generate(request)).usage;
}

describe("cache fields of each provider", () => {
	it("anthropic: a cache read counts in the prompt, and is kept apart (message_start and message_delta)", async () => {
		expect(await usageOf("anthropic", fixture("anthropic-cache-read.sse"))).toEqual({ promptTokens: 5030, completionTokens: 6, cachedPromptTokens: 4210, cacheWriteTokens: 0 });
	});

	it("anthropic: a cache write counts in the prompt, and is kept apart", async () => {
		expect(await usageOf("anthropic", fixture("anthropic-cache-write.sse"))).toEqual({ promptTokens: 188107, completionTokens: 6, cachedPromptTokens: 0, cacheWriteTokens: 188086 });
	});

	it("anthropic: a message_delta that repeats only input_tokens keeps message_start's cache counts", async () => {
		const body = fixture("anthropic-cache-read.sse").replace('"usage":{"input_tokens":820,"cache_creation_input_tokens":0,"cache_read_input_tokens":4210,"output_tokens":6}', '"usage":{"input_tokens":820,"output_tokens":6}');
		expect(await usageOf("anthropic", body)).toEqual({ promptTokens: 5030, completionTokens: 6, cachedPromptTokens: 4210, cacheWriteTokens: 0 });
	});

	it("openai: prompt_tokens is the whole prompt; prompt_tokens_details.cached_tokens its cached part", async () => {
		expect(await usageOf("openai", fixture("openai-cached.sse"))).toEqual({ promptTokens: 2006, completionTokens: 10, cachedPromptTokens: 1920 });
	});

	it("llama.cpp: usage and timings agree; cache_n is the cached part", async () => {
		expect(await usageOf("openai", fixture("llamacpp-cached.sse"))).toEqual({ promptTokens: 5030, completionTokens: 3, cachedPromptTokens: 4210 });
	});

	it("llama.cpp: usage that counted only the evaluated tokens is made whole from timings (cache_n + prompt_n)", async () => {
		expect(await usageOf("openai", fixture("llamacpp-timings-only.sse"))).toEqual({ promptTokens: 5030, completionTokens: 1, cachedPromptTokens: 4210 });
	});

	it("llama.cpp: timings without any usage still give the whole prompt", async () => {
		const body = fixture("llamacpp-timings-only.sse").replace('"usage":{"completion_tokens":1,"prompt_tokens":820,"total_tokens":821},', "");
		expect(await usageOf("openai", body)).toEqual({ promptTokens: 5030, cachedPromptTokens: 4210 });
	});

	it("ollama: prompt_eval_count is the whole prompt; prompt_eval_cached_count its cached part", async () => {
		expect(await usageOf("ollama", fixture("ollama-cached.ndjson"))).toEqual({ promptTokens: 5030, completionTokens: 3, cachedPromptTokens: 4210 });
	});

	it("ollama: no prompt_eval_count when the prompt was cached (older versions): no prompt count, never 0", async () => {
		const usage = await usageOf("ollama", fixture("ollama-no-count.ndjson"));
		expect(usage?.promptTokens).toBeUndefined();
		expect(usage?.completionTokens).toBe(1);
	});

	it("ollama: a cached part larger than the count means the count left it out: the whole is the sum", async () => {
		const body = fixture("ollama-cached.ndjson").replace('"prompt_eval_count":5030', '"prompt_eval_count":820');
		expect(await usageOf("ollama", body)).toEqual({ promptTokens: 5030, completionTokens: 3, cachedPromptTokens: 4210 });
	});

	it("the counts do not depend on where the stream is cut into chunks", async () => {
		const cases: [ProviderName, string, number][] = [
			["anthropic", "anthropic-cache-read.sse", 5030],
			["openai", "llamacpp-timings-only.sse", 5030],
			["ollama", "ollama-cached.ndjson", 5030],
		];
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...cases), fc.array(fc.nat({ max: 3000 }), { maxLength: 20 }), async ([provider, name, whole], cuts) => {
				const usage = await usageOf(provider, fixture(name), cuts);
				expect(usage?.promptTokens).toBe(whole);
				expect(usage?.cachedPromptTokens).toBe(4210);
			}),
			{ numRuns: 60 },
		);
	});
});

describe("Anthropic cache breakpoints", () => {
	const TOOLS = [
		{ name: "search", description: "Search notes", parameters: { type: "object", properties: {} } },
		{ name: "read", description: "Read a note", parameters: { type: "object", properties: {} } },
	];
	const chat: PromptMessage[] = [
		{ role: "system", content: "You are Discover." },
		{ role: "user", content: "First question" },
		{ role: "assistant", content: "First answer" },
		{ role: "user", content: "Second question, with this turn's sources" },
	];

	it("the end of the system text and the turn before the latest user turn; the latest turn unmarked", () => {
		const body = withCacheBreakpoints(toAnthropicPrompt(chat, TOOLS), { tools: TOOLS.map((t) => ({ name: t.name })) });
		expect(body.system).toEqual([{ type: "text", text: "You are Discover.", cache_control: { type: "ephemeral" } }]);
		expect(body.tools).toEqual([{ name: "search" }, { name: "read" }]);
		expect(body.messages).toEqual([
			{ role: "user", content: "First question" },
			{ role: "assistant", content: [{ type: "text", text: "First answer", cache_control: { type: "ephemeral" } }] },
			{ role: "user", content: "Second question, with this turn's sources" },
		]);
	});

	it("without system text, the last tool definition carries the head's breakpoint; a first question has no other", () => {
		const body = withCacheBreakpoints(toAnthropicPrompt([{ role: "user", content: "Hi" }]), { tools: [{ name: "a" }, { name: "b" }] });
		expect(body.system).toBeUndefined();
		expect(body.tools).toEqual([{ name: "a" }, { name: "b", cache_control: { type: "ephemeral" } }]);
		expect(body.messages).toEqual([{ role: "user", content: "Hi" }]);
	});

	it("a tool round: the assistant's tool_use block before the results carries the breakpoint", () => {
		const round: PromptMessage[] = [
			...chat,
			{ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "search", arguments: { q: "x" } }] },
			{ role: "tool", content: "found", toolCallId: "c1", name: "search" },
		];
		const body = withCacheBreakpoints(toAnthropicPrompt(round, TOOLS), {});
		const before = body.messages[body.messages.length - 2];
		expect(before?.content).toEqual([{ type: "tool_use", id: "c1", name: "search", input: { q: "x" }, cache_control: { type: "ephemeral" } }]);
		expect(JSON.stringify(body.messages[body.messages.length - 1])).not.toContain("cache_control");
	});

	it("any conversation: at most four breakpoints, none on the latest user turn, and the prompt otherwise unchanged", () => {
		const message = fc.record({ role: fc.constantFrom<PromptMessage["role"]>("system", "user", "assistant"), content: fc.string({ maxLength: 12 }) });
		fc.assert(
			fc.property(fc.array(message, { maxLength: 12 }), fc.boolean(), (messages, withTools) => {
				const plain = toAnthropicPrompt(messages);
				const tools = withTools ? { tools: [{ name: "t" }] } : {};
				const body = withCacheBreakpoints(plain, tools);
				const text = JSON.stringify(body);
				expect(text.split('"cache_control"').length - 1).toBeLessThanOrEqual(MAX_CACHE_BREAKPOINTS);
				const last = body.messages[body.messages.length - 1];
				if (last?.role === "user") expect(JSON.stringify(last)).not.toContain("cache_control");
				// Taking the marks off gives back the prompt as toAnthropicPrompt made it (strings stay strings when unmarked).
				const unmarked = JSON.parse(text.replace(/,"cache_control":\{"type":"ephemeral"\}/g, "")) as typeof body;
				expect(unmarked.messages.map((m, i) => (Array.isArray(m.content) && m.content.length === 1 && m.content[0]?.type === "text" && typeof plain.messages[i]?.content === "string" ? { ...m, content: m.content[0].text } : m))).toEqual(plain.messages);
				if (plain.system !== undefined) expect(unmarked.system).toEqual([{ type: "text", text: plain.system }]);
			}),
		);
	});

	it("on the wire: the request carries the breakpoints", async () => {
		const transport = memoryTransport({ headers: headersFor("anthropic"), chunks: [encoder.encode(fixture("anthropic-cache-read.sse"))] });
		const adapter = createAdapter({ provider: "anthropic", baseUrl: "http://127.0.0.1:9", model: "m", transport });
		await adapter.generate({ ...request, messages: chat });
		const sent = transport.calls.map((c) => String(c.init.body));
		const body = JSON.parse(sent[0] ?? "{}") as { system: unknown; messages: unknown[] };
		expect(body.system).toEqual([{ type: "text", text: "You are Discover.", cache_control: { type: "ephemeral" } }]);
		expect(JSON.stringify(body.messages[1])).toContain('"cache_control":{"type":"ephemeral"}');
	});
});
