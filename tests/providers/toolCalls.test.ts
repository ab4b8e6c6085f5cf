// Tool calls as each dialect streams them: recorded streams from SDK test suites and vendor docs,
// and generated ones for every case the issue names, split at every byte.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GenerateRequest, GenerateResult, ToolCallProgress, ToolSpec } from "../../src/core/types";
import { createAdapter, type ProviderName } from "../../src/providers";
import { memoryTransport, splitAt } from "../support/memoryTransport";
import { loadRecording } from "../support/providerStreams";
import { endlessArguments, toolCallStream, toolHeaders } from "../support/toolStreams";

const encoder = new TextEncoder();
const DIALECTS: ProviderName[] = ["ollama", "openai", "anthropic"];
const TOOLS: ToolSpec[] = [{ name: "read_note", description: "Reads a note.", parameters: { type: "object", properties: { path: { type: "string" } } } }];

interface Run {
	result: GenerateResult;
	tokens: string[];
	thinking: string[];
	progress: ToolCallProgress[];
}

async function run(provider: ProviderName, body: string, cuts: number[] = [], extra: Partial<GenerateRequest> = {}): Promise<Run> {
	const bytes = encoder.encode(body);
	const transport = memoryTransport({ headers: toolHeaders(provider), chunks: splitAt(bytes, cuts) });
	const adapter = createAdapter({ provider, baseUrl: "http://127.0.0.1:9", model: "m", transport });
	const out: Omit<Run, "result"> = { tokens: [], thinking: [], progress: [] };
	const result = await adapter.generate({
		purpose: "chat",
		messages: [{ role: "user", content: "Hi" }],
		maxTokens: 256,
		contextWindow: 4096,
		tools: TOOLS,
		onToken: (d) => out.tokens.push(d),
		onThinking: (d) => out.thinking.push(d),
		onToolCall: (p) => out.progress.push({ ...p }),
		...extra,
	});
	return { result, ...out };
}

function everyByte(body: string): number[] {
	return Array.from({ length: encoder.encode(body).length }, (_, i) => i);
}

const RECORDINGS: { file: string; provider: ProviderName; expected: (r: GenerateResult) => void }[] = [
	{
		file: "tools/openai-tool-call.sse",
		provider: "openai",
		expected: (r) => {
			expect(r.text).toBe("");
			expect(r.toolCalls).toEqual([{ id: "call_4XzlGBLtUe9dy3GVNV4jhq7h", name: "get_weather", arguments: { city: "New York City" } }]);
			expect(r.usage).toEqual({ promptTokens: 44, completionTokens: 16 });
		},
	},
	{
		file: "tools/openai-parallel-tool-calls.sse",
		provider: "openai",
		expected: (r) => {
			expect(r.toolCalls).toEqual([
				{ id: "call_JMW1whyEaYG438VE1OIflxA2", name: "GetWeatherArgs", arguments: { city: "Edinburgh", country: "GB", units: "c" } },
				{ id: "call_DNYTawLBoN8fj3KN6qU9N1Ou", name: "get_stock_price", arguments: { ticker: "AAPL", exchange: "NASDAQ" } },
			]);
			expect(r.usage).toEqual({ promptTokens: 149, completionTokens: 60 });
		},
	},
	{
		file: "tools/anthropic-tool-use.sse",
		provider: "anthropic",
		expected: (r) => {
			expect(r.text).toBe("I'll check the current weather in Paris for you.");
			expect(r.toolCalls).toEqual([{ id: "toolu_01NRLabsLyVHZPKxbKvkfSMn", name: "get_weather", arguments: { location: "Paris" } }]);
			expect(r.usage).toEqual({ promptTokens: 377, completionTokens: 65, cachedPromptTokens: 0, cacheWriteTokens: 0 });
		},
	},
	{
		file: "tools/anthropic-incomplete-tool-input.sse",
		provider: "anthropic",
		expected: (r) => {
			expect(r.text).toContain("save it in a file called taxes.txt");
			expect(r.toolCalls).toHaveLength(1);
			const [call] = r.toolCalls ?? [];
			expect(call).toMatchObject({ id: "toolu_01EKqbqmZrGRXy18eN7m9kvY", name: "make_file", arguments: {} });
			expect(call?.invalidArguments).toMatch(/not valid JSON/);
			expect(call?.invalidArguments).toContain('{"filename": "taxes.txt"');
		},
	},
	{
		file: "tools/ollama-tool-call.ndjson",
		provider: "ollama",
		expected: (r) => {
			expect(r.text).toBe("");
			expect(r.toolCalls).toHaveLength(1);
			expect(r.toolCalls?.[0]).toMatchObject({ name: "get_weather", arguments: { city: "Tokyo" } });
			expect(r.toolCalls?.[0]?.id).toMatch(/^call_[a-z0-9]+$/);
			expect(r.usage).toEqual({ promptTokens: 169, completionTokens: 15 });
		},
	},
];

describe("recorded tool-call streams", () => {
	for (const { file, provider, expected } of RECORDINGS) {
		it(`${file}: split at every byte, the calls come whole`, async () => {
			const body = loadRecording(file);
			const { result, progress } = await run(provider, body, everyByte(body));
			expected(result);
			// Progress ends with each call's whole argument text.
			const ends = progress.filter((p) => p.phase === "end");
			expect(ends.map((p) => p.id)).toEqual(result.toolCalls?.map((c) => c.id));
		});

		it(`${file}: any split into chunks yields the same calls`, async () => {
			const body = loadRecording(file);
			const whole = (await run(provider, body)).result;
			expected(whole);
			await fc.assert(
				fc.asyncProperty(fc.array(fc.nat({ max: encoder.encode(body).length }), { maxLength: 60 }), async (cuts) => {
					const { result } = await run(provider, body, cuts);
					expect(result).toEqual(whole);
				}),
				{ numRuns: 40 },
			);
		});
	}

	it("Ollama ids made up for a call are the same on every replay of the stream, and unique within it", async () => {
		const body = toolCallStream("ollama", { calls: [{ name: "a", args: "{}" }, { name: "a", args: "{}" }] });
		const first = (await run("ollama", body)).result.toolCalls?.map((c) => c.id);
		const again = (await run("ollama", body, [7, 99])).result.toolCalls?.map((c) => c.id);
		expect(first).toEqual(again);
		expect(new Set(first).size).toBe(2);
	});
});

const MULTIBYTE_ARGS = JSON.stringify({ path: "Projets/Café — 日本語 🎉.md", note: "naïve" });

describe("every dialect", () => {
	for (const provider of DIALECTS) {
		describe(provider, () => {
			it("text before a call streams as text, the call comes after it", async () => {
				const { result, tokens } = await run(provider, toolCallStream(provider, { text: ["Let me ", "look."], calls: [{ id: "call_a", name: "read_note", args: '{"path":"a.md"}' }] }));
				expect(result.text).toBe("Let me look.");
				expect(tokens.join("")).toBe("Let me look.");
				expect(result.toolCalls).toEqual([{ id: "call_a", name: "read_note", arguments: { path: "a.md" } }]);
			});

			it("parallel calls come in order, each with its own arguments", async () => {
				const calls = [
					{ id: "call_1", name: "read_note", args: '{"path":"a.md"}' },
					{ id: "call_2", name: "search_notes", args: '{"query":"plan","limit":3}' },
					{ id: "call_3", name: "read_note", args: '{"path":"b.md"}' },
				];
				const { result } = await run(provider, toolCallStream(provider, { calls }));
				expect(result.toolCalls).toEqual([
					{ id: "call_1", name: "read_note", arguments: { path: "a.md" } },
					{ id: "call_2", name: "search_notes", arguments: { query: "plan", limit: 3 } },
					{ id: "call_3", name: "read_note", arguments: { path: "b.md" } },
				]);
			});

			it('empty arguments ("") are {}', async () => {
				const { result } = await run(provider, toolCallStream(provider, { calls: [{ id: "call_e", name: "get_active_note", args: "" }] }));
				expect(result.toolCalls).toEqual([{ id: "call_e", name: "get_active_note", arguments: {} }]);
			});

			it("thinking before a call is kept apart from the text and the arguments", async () => {
				const { result, tokens, thinking } = await run(provider, toolCallStream(provider, { thinking: ["I should ", "read it."], calls: [{ id: "call_t", name: "read_note", args: '{"path":"a.md"}' }] }));
				expect(result.thinking).toBe("I should read it.");
				expect(thinking.join("")).toBe("I should read it.");
				expect(result.text).toBe("");
				expect(tokens).toEqual([]);
				expect(result.toolCalls).toEqual([{ id: "call_t", name: "read_note", arguments: { path: "a.md" } }]);
			});

			it("arguments split at every byte, inside multibyte characters, come whole", async () => {
				const body = toolCallStream(provider, { text: ["Voilà "], calls: [{ id: "call_m", name: "read_note", args: MULTIBYTE_ARGS }], fragment: 2 });
				const { result, progress } = await run(provider, body, everyByte(body));
				expect(result.toolCalls).toEqual([{ id: "call_m", name: "read_note", arguments: JSON.parse(MULTIBYTE_ARGS) as unknown }]);
				expect(result.text).toBe("Voilà ");
				expect(progress.some((p) => p.argumentsText.includes("\uFFFD"))).toBe(false);
			});

			it("progress: a start with id and name, the argument text as it grows, then the end", async () => {
				const { progress } = await run(provider, toolCallStream(provider, { calls: [{ id: "call_p", name: "read_note", args: '{"path":"long/path.md"}' }] }));
				expect(progress[0]).toMatchObject({ phase: "start", index: 0, id: "call_p", name: "read_note" });
				expect(progress[progress.length - 1]).toMatchObject({ phase: "end", id: "call_p", argumentsText: '{"path":"long/path.md"}' });
				const texts = progress.filter((p) => p.phase === "arguments").map((p) => p.argumentsText);
				texts.forEach((t, i) => i > 0 && expect(t.startsWith(texts[i - 1] ?? "")).toBe(true));
			});

			it("a call without tools offered still comes back (the server decides what it sends)", async () => {
				const { result } = await run(provider, toolCallStream(provider, { calls: [{ id: "call_x", name: "read_note", args: "{}" }] }), [], { tools: undefined });
				expect(result.toolCalls).toHaveLength(1);
			});

			it("an answer without calls has no toolCalls field at all", async () => {
				const { result } = await run(provider, toolCallStream(provider, { text: ["Plain."], calls: [] }));
				expect(result).not.toHaveProperty("toolCalls");
			});
		});
	}

	for (const provider of ["openai", "anthropic"] as const) {
		it(`${provider}: malformed argument JSON is a marked call, not a crash; the text and other calls are kept`, async () => {
			const calls = [
				{ id: "call_bad", name: "read_note", args: '{"path": "a.md",' },
				{ id: "call_ok", name: "read_note", args: '{"path":"b.md"}' },
				{ id: "call_arr", name: "read_note", args: "[1,2]" },
			];
			const { result } = await run(provider, toolCallStream(provider, { text: ["Reading."], calls }));
			expect(result.text).toBe("Reading.");
			expect(result.toolCalls?.[0]).toMatchObject({ id: "call_bad", arguments: {} });
			expect(result.toolCalls?.[0]?.invalidArguments).toMatch(/not valid JSON \(.+\)\. They were: \{"path": "a\.md",$/);
			expect(result.toolCalls?.[1]).toEqual({ id: "call_ok", name: "read_note", arguments: { path: "b.md" } });
			expect(result.toolCalls?.[2]?.invalidArguments).toMatch(/must be a JSON object/);
		});

		it(`${provider}: endless argument text hits the answer cap with a clear protocol error`, async () => {
			const { opening, repeat } = endlessArguments(provider, "x".repeat(64));
			const body = opening + repeat.repeat(200);
			const err = await run(provider, body, [], { maxTokens: 1 }).then(
				() => undefined,
				(e: unknown) => e,
			);
			expect(err).toMatchObject({ kind: "protocol" });
			expect((err as Error).message).toMatch(/tool call's arguments took the answer past 256 characters/);
		});
	}

	it("ollama: arguments sent as a JSON string are read; a malformed one is a marked call", async () => {
		const good = await run("ollama", toolCallStream("ollama", { calls: [{ id: "c1", name: "read_note", args: '{"path":"a.md"}' }], argsAsString: true }));
		expect(good.result.toolCalls).toEqual([{ id: "c1", name: "read_note", arguments: { path: "a.md" } }]);
		const bad = await run("ollama", toolCallStream("ollama", { calls: [{ id: "c2", name: "read_note", args: '{"path":' }], argsAsString: true }));
		expect(bad.result.toolCalls?.[0]?.invalidArguments).toMatch(/not valid JSON/);
	});

	it("ollama: a call line that never ends is a protocol error (the line cap), not unbounded memory", async () => {
		const { opening, repeat } = endlessArguments("ollama", "y".repeat(1024));
		const err = await run("ollama", opening + repeat.repeat(20 * 1024)).then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(err).toMatchObject({ kind: "protocol" });
	});

	it('openai: calls ending with finish_reason "stop" (llama.cpp, LM Studio, vLLM variants) are still calls', async () => {
		const { result } = await run("openai", toolCallStream("openai", { calls: [{ id: "call_s", name: "read_note", args: '{"path":"a.md"}' }], finishReason: "stop" }));
		expect(result.toolCalls).toEqual([{ id: "call_s", name: "read_note", arguments: { path: "a.md" } }]);
	});

	it("openai: servers that give every call of a batch index 0 still get separate calls, told apart by id", async () => {
		const calls = [
			{ id: "call_1", name: "read_note", args: '{"path":"a.md"}' },
			{ id: "call_2", name: "read_note", args: '{"path":"b.md"}' },
		];
		const { result } = await run("openai", toolCallStream("openai", { calls, sameIndex: true }));
		expect(result.toolCalls).toEqual([
			{ id: "call_1", name: "read_note", arguments: { path: "a.md" } },
			{ id: "call_2", name: "read_note", arguments: { path: "b.md" } },
		]);
	});

	it("openai: a call without an id gets a made-up one Anthropic would accept too", async () => {
		const { result } = await run("openai", toolCallStream("openai", { calls: [{ name: "read_note", args: "{}" }] }));
		expect(result.toolCalls?.[0]?.id).toMatch(/^[a-zA-Z0-9_-]+$/);
	});

	it("openai: a whole JSON answer (stream ignored) with tool_calls and content null", async () => {
		const body = JSON.stringify({
			choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "call_j", type: "function", function: { name: "read_note", arguments: '{"path":"a.md"}' } }] }, finish_reason: "tool_calls" }],
			usage: { prompt_tokens: 3, completion_tokens: 2 },
		});
		const transport = memoryTransport({ headers: { "content-type": "application/json" }, chunks: [encoder.encode(body)] });
		const result = await createAdapter({ provider: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "m", transport }).generate({ purpose: "chat", messages: [{ role: "user", content: "Hi" }], maxTokens: 9, contextWindow: 99, tools: TOOLS });
		expect(result).toEqual({ text: "", usage: { promptTokens: 3, completionTokens: 2 }, toolCalls: [{ id: "call_j", name: "read_note", arguments: { path: "a.md" } }] });
	});

	it("the API key in a call's arguments is redacted before the engine can save it", async () => {
		const key = "sk-test-0123456789abcdefghij";
		const body = toolCallStream("openai", { calls: [{ id: "c", name: "create_note", args: JSON.stringify({ content: `my key is ${key}`, nested: [key] }) }] });
		const transport = memoryTransport({ headers: toolHeaders("openai"), chunks: [encoder.encode(body)] });
		const result = await createAdapter({ provider: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKey: key, transport }).generate({ purpose: "chat", messages: [{ role: "user", content: "Hi" }], maxTokens: 64, contextWindow: 99, tools: TOOLS });
		expect(JSON.stringify(result.toolCalls)).not.toContain("0123456789");
		expect(result.toolCalls?.[0]?.arguments).toEqual({ content: "my key is [redacted]", nested: ["[redacted]"] });
	});
});
