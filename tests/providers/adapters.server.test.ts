// The adapters against local protocol servers, byte-chunked, with faults: the same suite over both
// transports.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { GenerateRequest } from "../../src/core/types";
import { createAdapter, type ProviderAdapter, type ProviderConfig, type ProviderName } from "../../src/providers";
import { ProviderServer } from "../support/providerServer";
import { errorScenario, httpError, OVERFLOW_BODIES, rejection } from "../support/providerErrors";
import {
	baseUrlFor,
	CHAT_PATHS,
	endlessScenario,
	headersFor,
	loadRecording,
	malformedStream,
	midStreamError,
	MULTIBYTE_TOKENS,
	SSE_HEADERS,
	streamFor,
	streamScenario,
} from "../support/providerStreams";
import { TRANSPORTS, useProviderServer } from "../support/transports";

const DIALECTS: ProviderName[] = ["ollama", "openai", "anthropic"];

function chat(overrides: Partial<GenerateRequest> = {}): GenerateRequest {
	return { purpose: "chat", messages: [{ role: "user", content: "Hello" }], maxTokens: 128, contextWindow: 8192, ...overrides };
}

async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await sleep(5);
}

for (const { name, load } of TRANSPORTS) {
	describe(`adapters over the ${name} transport`, () => {
		const env = useProviderServer(load);

		function adapter(provider: ProviderName, extra: Partial<ProviderConfig> = {}): ProviderAdapter {
			return createAdapter({ provider, baseUrl: baseUrlFor(provider, env.server.url), model: "llama3.2", transport: env.transport, ...extra });
		}

		for (const provider of DIALECTS) {
			const path = CHAT_PATHS[provider];
			describe(provider, () => {
				it("streams a byte-chunked answer whole, token by token, with usage", async () => {
					env.server.route("POST", path, streamScenario(provider, MULTIBYTE_TOKENS, { promptTokens: 31, completionTokens: 8 }, { seed: 7 }));
					const tokens: string[] = [];
					const result = await adapter(provider).generate(chat({ onToken: (t) => tokens.push(t) }));
					expect(result.text).toBe(MULTIBYTE_TOKENS.join(""));
					expect(tokens.join("")).toBe(result.text);
					// Anthropic's stream carries its (zero) cache counts too.
					expect(result.usage).toEqual({ promptTokens: 31, completionTokens: 8, ...(provider === "anthropic" ? { cachedPromptTokens: 0, cacheWriteTokens: 0 } : {}) });
				});

				it("survives splits inside multibyte characters that really arrive apart", async () => {
					env.server.route("POST", path, streamScenario(provider, ["日本", "🎉"], {}, { chunkMin: 1, chunkMax: 7, chunkDelayMs: 1, seed: 3 }));
					expect((await adapter(provider).generate(chat())).text).toBe("日本🎉");
				});

				it("a reset mid-stream is a network error, never a short answer, and is not retried", async () => {
					env.server.route("POST", path, streamScenario(provider, MULTIBYTE_TOKENS, {}, { resetAfterBytes: 120 }));
					expect((await rejection(adapter(provider).generate(chat()))).kind).toBe("network");
					expect(env.server.requests).toHaveLength(1);
				});

				it("a stream that ends without its terminator is a protocol error", async () => {
					env.server.route("POST", path, streamScenario(provider, MULTIBYTE_TOKENS, { noTerminator: true }));
					expect((await rejection(adapter(provider).generate(chat()))).kind).toBe("protocol");
				});

				it("a malformed line is a protocol error, not skipped", async () => {
					env.server.route("POST", path, { headers: headersFor(provider), body: malformedStream(provider, ["a"]) });
					expect((await rejection(adapter(provider).generate(chat()))).kind).toBe("protocol");
				});

				it("an error event mid-stream is an error carrying the provider's message", async () => {
					env.server.route("POST", path, { headers: headersFor(provider), body: midStreamError(provider, ["Partial"], "the model crashed mid-answer") });
					const tokens: string[] = [];
					const err = await rejection(adapter(provider).generate(chat({ onToken: (t) => tokens.push(t) })));
					expect(err.kind).toBe("server");
					expect(err.message).toContain("the model crashed mid-answer");
					expect(tokens.join("")).toBe("Partial");
				});

				it.each([
					[401, "authentication_error", "auth"],
					[403, "permission_error", "auth"],
					[500, "api_error", "server"],
					[529, "overloaded_error", "server"],
					[400, "invalid_request_error", "bad_request"],
				])("HTTP %i is %s → %s", async (status, type, kind) => {
					env.server.route("POST", path, errorScenario(httpError(provider, status, `provider says ${status}`, type)));
					const err = await rejection(adapter(provider).generate(chat()));
					expect(err).toMatchObject({ kind, status });
					expect(err.message).toContain(`provider says ${status}`);
					// No hidden retries: one request, one error.
					expect(env.server.requests).toHaveLength(1);
				});

				it("HTTP 404 is not_found naming the model", async () => {
					env.server.route("POST", path, errorScenario(httpError(provider, 404, "model 'llama3.2' not found", "not_found_error")));
					const err = await rejection(adapter(provider).generate(chat()));
					expect(err.kind).toBe("not_found");
					expect(err.message).toContain('"llama3.2"');
					if (provider === "ollama") expect(err.message).toContain("ollama pull llama3.2");
				});

				it("HTTP 429 is rate_limit with Retry-After", async () => {
					env.server.route("POST", path, errorScenario(httpError(provider, 429, "slow down", "rate_limit_error", { "retry-after": "7" })));
					expect(await rejection(adapter(provider).generate(chat()))).toMatchObject({ kind: "rate_limit", retryAfterMs: 7000 });
				});

				it("HTTP 429 with Retry-After as an HTTP date", async () => {
					const at = new Date(Date.now() + 60_000).toUTCString();
					env.server.route("POST", path, errorScenario(httpError(provider, 429, "slow down", "rate_limit_error", { "retry-after": at })));
					const err = await rejection(adapter(provider).generate(chat()));
					expect(err.kind).toBe("rate_limit");
					// The date has whole seconds, and some of the minute passes before it is read.
					expect(err.retryAfterMs).toBeGreaterThan(50_000);
					expect(err.retryAfterMs).toBeLessThanOrEqual(60_000);
				});

				it("no first byte in time is a network error that says so", async () => {
					env.server.route("POST", path, streamScenario(provider, ["late"], {}, { firstByteDelayMs: 400 }));
					const err = await rejection(adapter(provider, { firstByteTimeoutMs: 80 }).generate(chat()));
					expect(err.kind).toBe("network");
					expect(err.message).toMatch(/sent nothing for 80 ms/);
					expect(err.message).toMatch(/^[A-Z]/); // Sentence case, whichever provider.
				});

				it("a stall mid-stream is a network error that says so", async () => {
					// Stall once the second token is through: mid-answer, not before it.
					const body = streamFor(provider, MULTIBYTE_TOKENS);
					const afterSecond = body.indexOf("\n", body.indexOf(JSON.stringify(MULTIBYTE_TOKENS[1]))) + 2;
					env.server.route("POST", path, { headers: headersFor(provider), body, stallAfterBytes: new TextEncoder().encode(body.slice(0, afterSecond)).byteLength });
					const err = await rejection(adapter(provider, { stallTimeoutMs: 100 }).generate(chat()));
					expect(err.kind).toBe("network");
					expect(err.message).toMatch(/stopped sending mid-answer for 100 ms/);
					expect(err.message).toMatch(/^[A-Z]/);
				});

				it("Stop aborts an endless stream with kind aborted, and the server sees the connection close", async () => {
					env.server.route("POST", path, endlessScenario(provider));
					const controller = new AbortController();
					const tokens: string[] = [];
					const pending = adapter(provider).generate(
						chat({
							signal: controller.signal,
							onToken: (t) => {
								tokens.push(t);
								if (tokens.length === 3) controller.abort();
							},
						}),
					);
					expect((await rejection(pending)).kind).toBe("aborted");
					await env.server.waitForClientClose();
					expect(env.server.clientCloses).toHaveLength(1);
				});

				it("Stop while the server is still silent rejects with aborted, and the server sees the connection close", async () => {
					env.server.route("POST", path, streamScenario(provider, ["late"], {}, { firstByteDelayMs: 1500 }));
					const controller = new AbortController();
					const pending = adapter(provider).generate(chat({ signal: controller.signal }));
					await until(() => env.server.requests.length === 1);
					controller.abort();
					expect((await rejection(pending)).kind).toBe("aborted");
					await env.server.waitForClientClose();
				});

				it("an onToken that throws ends the request with an error and closes the connection", async () => {
					env.server.route("POST", path, endlessScenario(provider));
					const err = await rejection(
						adapter(provider).generate(
							chat({
								onToken: () => {
									throw new Error("the renderer failed");
								},
							}),
						),
					);
					expect(err.kind).toBe("protocol");
					expect(err.message).toContain("the renderer failed");
					await env.server.waitForClientClose();
				});

				it("an already aborted signal never sends", async () => {
					env.server.route("POST", path, streamScenario(provider, ["x"]));
					const controller = new AbortController();
					controller.abort();
					expect((await rejection(adapter(provider).generate(chat({ signal: controller.signal })))).kind).toBe("aborted");
					expect(env.server.requests).toHaveLength(0);
				});
			});
		}

		describe("recordings, byte-chunked", () => {
			it("OpenAI's recorded stream", async () => {
				env.server.route("POST", CHAT_PATHS.openai, { headers: SSE_HEADERS, body: loadRecording("openai-chat.sse") });
				const result = await adapter("openai").generate(chat());
				expect(result).toEqual({ text: '{"city":"San Francisco","units":"c"}', usage: { promptTokens: 17, completionTokens: 10 } });
			});
			it("Anthropic's recorded stream", async () => {
				env.server.route("POST", CHAT_PATHS.anthropic, { headers: SSE_HEADERS, body: loadRecording("anthropic-basic.sse") });
				const result = await adapter("anthropic").generate(chat());
				expect(result).toEqual({ text: "Hello there!", usage: { promptTokens: 11, completionTokens: 6 } });
			});
		});

		describe("context overflow, as each server words it", () => {
			for (const [serverName, { dialect, reply }] of Object.entries(OVERFLOW_BODIES)) {
				it(`${serverName} (HTTP ${reply.status})`, async () => {
					env.server.route("POST", CHAT_PATHS[dialect], errorScenario(reply));
					const err = await rejection(adapter(dialect).generate(chat()));
					expect(err.kind).toBe("context_overflow");
				});
			}
		});

		it("a web page where the API should be is a protocol error pointing at the base URL", async () => {
			env.server.route("POST", "/chat/completions", { headers: { "content-type": "text/html; charset=utf-8" }, body: "<!doctype html><title>LM Studio</title>" });
			const err = await rejection(createAdapter({ provider: "openai", baseUrl: env.server.url, model: "m", transport: env.transport }).generate(chat()));
			expect(err.kind).toBe("protocol");
			expect(err.message).toContain("/v1");
		});

		it("a status no HTTP response may have is an error, never a crash or a hang", async () => {
			env.server.route("POST", CHAT_PATHS.ollama, { status: 600, headers: { "content-type": "text/plain" }, body: "odd" });
			const err = await rejection(adapter("ollama", { firstByteTimeoutMs: 3000 }).generate(chat()));
			expect(["server", "network"]).toContain(err.kind);
			// Not the time limit: the transport answered at once.
			expect(err.message).not.toMatch(/sent nothing/);
		});

		it("an unreachable server is a network error that says where", async () => {
			const closed = await ProviderServer.start();
			const url = closed.url;
			await closed.close();
			const err = await rejection(createAdapter({ provider: "ollama", baseUrl: url, model: "m", transport: env.transport }).generate(chat()));
			expect(err.kind).toBe("network");
			expect(err.message).toContain(url);
			// From the app, the message points at a refused origin only where one is possible.
			const fromApp = await rejection(createAdapter({ provider: "ollama", baseUrl: url, model: "m", transport: env.transport, fromApp: true }).generate(chat()));
			expect(fromApp.message.includes("refusing requests from Obsidian")).toBe(name === "fetch");
		});
	});
}
