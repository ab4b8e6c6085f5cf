// Tool calls over both real transports against the local protocol server: the recordings and a
// multibyte call written one byte per chunk, an endless call closed at the cap, models that cannot
// use tools.
import { describe, expect, it } from "vitest";
import type { GenerateRequest, ToolSpec } from "../../src/core/types";
import { createAdapter, type ProviderName } from "../../src/providers";
import { errorScenario, TOOL_SCHEMA_ERROR, TOOLS_UNSUPPORTED_BODIES, rejection } from "../support/providerErrors";
import { baseUrlFor, CHAT_PATHS, loadRecording } from "../support/providerStreams";
import { endlessArguments, toolCallStream, toolHeaders } from "../support/toolStreams";
import { TRANSPORTS, useProviderServer } from "../support/transports";

const TOOLS: ToolSpec[] = [{ name: "read_note", description: "Reads a note.", parameters: { type: "object", properties: { path: { type: "string" } } } }];
const BYTE_BY_BYTE = { chunkMin: 1, chunkMax: 1 };

function chat(extra: Partial<GenerateRequest> = {}): GenerateRequest {
	return { purpose: "chat", messages: [{ role: "user", content: "Hello" }], maxTokens: 128, contextWindow: 8192, tools: TOOLS, ...extra };
}

for (const { name, load } of TRANSPORTS) {
	describe(`tool calls over the ${name} transport`, () => {
		const env = useProviderServer(load);
		const adapter = (provider: ProviderName) => createAdapter({ provider, baseUrl: baseUrlFor(provider, env.server.url), model: "gemma:2b", transport: env.transport });

		it("OpenAI's recorded parallel calls, one byte at a time", async () => {
			env.server.route("POST", CHAT_PATHS.openai, { headers: toolHeaders("openai"), body: loadRecording("tools/openai-parallel-tool-calls.sse"), ...BYTE_BY_BYTE });
			const result = await adapter("openai").generate(chat());
			expect(result.toolCalls?.map((c) => [c.name, c.arguments])).toEqual([
				["GetWeatherArgs", { city: "Edinburgh", country: "GB", units: "c" }],
				["get_stock_price", { ticker: "AAPL", exchange: "NASDAQ" }],
			]);
		});

		it("OpenAI's recorded single call, one byte at a time", async () => {
			env.server.route("POST", CHAT_PATHS.openai, { headers: toolHeaders("openai"), body: loadRecording("tools/openai-tool-call.sse"), ...BYTE_BY_BYTE });
			expect((await adapter("openai").generate(chat())).toolCalls).toEqual([{ id: "call_4XzlGBLtUe9dy3GVNV4jhq7h", name: "get_weather", arguments: { city: "New York City" } }]);
		});

		it("Anthropic's recorded tool_use, one byte at a time", async () => {
			env.server.route("POST", CHAT_PATHS.anthropic, { headers: toolHeaders("anthropic"), body: loadRecording("tools/anthropic-tool-use.sse"), ...BYTE_BY_BYTE });
			const result = await adapter("anthropic").generate(chat());
			expect(result.text).toBe("I'll check the current weather in Paris for you.");
			expect(result.toolCalls).toEqual([{ id: "toolu_01NRLabsLyVHZPKxbKvkfSMn", name: "get_weather", arguments: { location: "Paris" } }]);
		});

		it("Anthropic's recorded tool input cut by max_tokens, one byte at a time: a marked call", async () => {
			env.server.route("POST", CHAT_PATHS.anthropic, { headers: toolHeaders("anthropic"), body: loadRecording("tools/anthropic-incomplete-tool-input.sse"), ...BYTE_BY_BYTE });
			const result = await adapter("anthropic").generate(chat());
			expect(result.toolCalls?.[0]?.invalidArguments).toMatch(/not valid JSON/);
		});

		it("Ollama's documented tool call, one byte at a time", async () => {
			env.server.route("POST", CHAT_PATHS.ollama, { headers: toolHeaders("ollama"), body: loadRecording("tools/ollama-tool-call.ndjson"), ...BYTE_BY_BYTE });
			const result = await adapter("ollama").generate(chat());
			expect(result.toolCalls).toMatchObject([{ name: "get_weather", arguments: { city: "Tokyo" } }]);
		});

		for (const provider of ["ollama", "openai", "anthropic"] as const) {
			it(`${provider}: multibyte arguments and text, one byte at a time`, async () => {
				const args = { path: "Café/日本語 🎉.md" };
				const body = toolCallStream(provider, { text: ["Voilà — "], thinking: ["Hmm… 🤔"], calls: [{ id: "call_m", name: "read_note", args: JSON.stringify(args) }], fragment: 1 });
				env.server.route("POST", CHAT_PATHS[provider], { headers: toolHeaders(provider), body, ...BYTE_BY_BYTE });
				const result = await adapter(provider).generate(chat());
				expect(result).toMatchObject({ text: "Voilà — ", thinking: "Hmm… 🤔", toolCalls: [{ id: "call_m", name: "read_note", arguments: args }] });
			});
		}

		for (const provider of ["openai", "anthropic"] as const) {
			it(`${provider}: endless argument text stops at the cap, and the connection is closed`, async () => {
				const { opening, repeat } = endlessArguments(provider, "z".repeat(50));
				env.server.route("POST", CHAT_PATHS[provider], { headers: toolHeaders(provider), body: opening, endless: { repeat, intervalMs: 1 } });
				const err = await rejection(adapter(provider).generate(chat({ maxTokens: 4 })));
				expect(err.kind).toBe("protocol");
				expect(err.message).toMatch(/tool call's arguments/);
				await env.server.waitForClientClose();
			});
		}

		describe("a model that cannot use tools", () => {
			for (const [server, { dialect, reply }] of Object.entries(TOOLS_UNSUPPORTED_BODIES)) {
				it(`${server} (HTTP ${reply.status}): bad_request with toolsUnsupported when tools were offered`, async () => {
					env.server.route("POST", CHAT_PATHS[dialect], errorScenario(reply));
					const err = await rejection(adapter(dialect).generate(chat()));
					expect(err).toMatchObject({ kind: "bad_request", toolsUnsupported: true, status: reply.status });
					expect(err.message).toMatch(/can't use tools/);
				});

				it(`${server}: the same reply to a request without tools is not marked`, async () => {
					env.server.route("POST", CHAT_PATHS[dialect], errorScenario(reply));
					const err = await rejection(adapter(dialect).generate(chat({ tools: [] })));
					expect(err.toolsUnsupported).toBeUndefined();
				});
			}

			it("a 400 about the tools' schema (not the model's support) is not marked", async () => {
				env.server.route("POST", CHAT_PATHS.openai, errorScenario(TOOL_SCHEMA_ERROR));
				const err = await rejection(adapter("openai").generate(chat()));
				expect(err.kind).toBe("bad_request");
				expect(err.toolsUnsupported).toBeUndefined();
			});

			it("an unrelated 400 with tools offered is not marked", async () => {
				env.server.route("POST", CHAT_PATHS.ollama, errorScenario({ status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: "invalid options: num_ctx" }) }));
				const err = await rejection(adapter("ollama").generate(chat()));
				expect(err.kind).toBe("bad_request");
				expect(err.toolsUnsupported).toBeUndefined();
			});

			it("the same words in an error body sent with HTTP 200 (as LM Studio sends its errors) are marked too", async () => {
				env.server.route("POST", CHAT_PATHS.openai, { headers: { "content-type": "application/json" }, body: JSON.stringify({ error: "This model does not support tool use." }) });
				const err = await rejection(adapter("openai").generate(chat()));
				expect(err).toMatchObject({ kind: "bad_request", toolsUnsupported: true });
			});
		});
	});
}
