// The server's count of a prompt before the first send (promptCount.ts), against a local protocol
// server over both transports: the request is the chat request's own, at its address with the count
// path added (llama.cpp's /v1/chat/completions/input_tokens, Anthropic's /v1/messages/count_tokens),
// bounded at 300 ms, and a server that cannot count is skipped silently and remembered.
import { setTimeout as later } from "node:timers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { GenerateRequest } from "../../src/core/types";
import { createAdapter, type ProviderAdapter, type ProviderName } from "../../src/providers";
import { COUNT_TIME_LIMIT_MS, countCallOf, forgetCountFailures, readInputTokens } from "../../src/providers/promptCount";
import { baseUrlFor, CHAT_PATHS } from "../support/providerStreams";
import { TRANSPORTS, useProviderServer } from "../support/transports";

function chat(overrides: Partial<GenerateRequest> = {}): GenerateRequest {
	return { purpose: "chat", messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hello" }], maxTokens: 128, contextWindow: 2048, ...overrides };
}

const json = (body: unknown, status = 200): { status: number; headers: Record<string, string>; body: string } => ({ status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

afterEach(() => forgetCountFailures());

describe("the count request", () => {
	it("is the chat request with /input_tokens added (OpenAI-compatible) and, for Anthropic, /count_tokens with only the fields count_tokens accepts", () => {
		const openai = countCallOf("openai", { url: "http://127.0.0.1:8080/v1/chat/completions", headers: { authorization: "Bearer k", accept: "text/event-stream" }, body: '{"model":"m","messages":[],"stream":true}' });
		expect(openai).toEqual({ url: "http://127.0.0.1:8080/v1/chat/completions/input_tokens", headers: { authorization: "Bearer k", accept: "application/json" }, body: '{"model":"m","messages":[],"stream":true}' });
		const anthropic = countCallOf("anthropic", { url: "https://api.anthropic.com/v1/messages", headers: { "x-api-key": "k" }, body: JSON.stringify({ model: "m", system: "s", messages: [{ role: "user", content: "hi" }], tools: [], max_tokens: 9, temperature: 0.2, stream: true }) });
		expect(anthropic?.url).toBe("https://api.anthropic.com/v1/messages/count_tokens");
		expect(JSON.parse(anthropic?.body ?? "")).toEqual({ model: "m", system: "s", messages: [{ role: "user", content: "hi" }], tools: [] });
		expect(countCallOf("ollama", { url: "http://localhost:11434/api/chat", headers: {}, body: "{}" })).toBeUndefined();
	});

	it("reads only a positive whole count", () => {
		expect(readInputTokens({ input_tokens: 54, object: "response.input_tokens" })).toBe(54);
		expect(readInputTokens({ input_tokens: 54 })).toBe(54);
		for (const bad of [{}, { input_tokens: 0 }, { input_tokens: -3 }, { input_tokens: 1.5 }, { input_tokens: "54" }, null, [54]]) expect(readInputTokens(bad)).toBeUndefined();
	});
});

for (const { name, load } of TRANSPORTS) {
	describe(`counting a prompt over the ${name} transport`, () => {
		const env = useProviderServer(load);
		// The first request of a process loads the transport (undici for fetch): not what is timed here.
		beforeAll(async () => {
			await (await env.transport(`${env.server.url}/warm-up`, { method: "GET", headers: {} })).text();
			env.server.reset();
		});
		const adapter = (provider: ProviderName, model = "qwen"): ProviderAdapter => createAdapter({ provider, baseUrl: baseUrlFor(provider, env.server.url), model, transport: env.transport, apiKey: "sk-test-key" });

		for (const provider of ["openai", "anthropic"] as const) {
			const path = `${CHAT_PATHS[provider]}/${provider === "openai" ? "input_tokens" : "count_tokens"}`;

			it(`${provider}: asks ${path} on the configured server with the chat's own headers, and answers its count`, async () => {
				env.server.route("POST", path, json({ input_tokens: 54 }));
				expect(await adapter(provider).countPromptTokens(chat())).toBe(54);
				expect(env.server.requests.map((r) => r.path)).toEqual([path]);
				const sent = env.server.requests[0];
				expect(sent?.headers[provider === "openai" ? "authorization" : "x-api-key"]).toBe(provider === "openai" ? "Bearer sk-test-key" : "sk-test-key");
				expect(sent?.json).toMatchObject({ model: "qwen" });
				expect(JSON.stringify(sent?.json)).toContain("Hello");
			});

			it(`${provider}: a server without the endpoint (404) is skipped silently and not asked again for that model`, async () => {
				const a = adapter(provider);
				expect(await a.countPromptTokens(chat())).toBeUndefined();
				expect(await a.countPromptTokens(chat())).toBeUndefined();
				// A new adapter for the same server and model (settings saved again) remembers too.
				expect(await adapter(provider).countPromptTokens(chat())).toBeUndefined();
				expect(env.server.requests.filter((r) => r.path === path)).toHaveLength(1);
				// Another model on the same server is its own question.
				expect(await adapter(provider, "other").countPromptTokens(chat())).toBeUndefined();
				expect(env.server.requests.filter((r) => r.path === path)).toHaveLength(2);
			});

			it(`${provider}: a server slower than ${COUNT_TIME_LIMIT_MS} ms is not waited for`, async () => {
				env.server.route("POST", path, { ...json({ input_tokens: 54 }), firstByteDelayMs: 2000 });
				const started = Date.now();
				expect(await adapter(provider).countPromptTokens(chat())).toBeUndefined();
				expect(Date.now() - started).toBeLessThan(COUNT_TIME_LIMIT_MS + 400);
			});

			it(`${provider}: Stop ends the count at once`, async () => {
				env.server.route("POST", path, { ...json({ input_tokens: 54 }), firstByteDelayMs: 2000 });
				const stop = new AbortController();
				const counting = adapter(provider).countPromptTokens(chat({ signal: stop.signal }));
				later(() => stop.abort(), 20);
				const started = Date.now();
				expect(await counting).toBeUndefined();
				expect(Date.now() - started).toBeLessThan(COUNT_TIME_LIMIT_MS);
			});

			it(`${provider}: an answer that is not a count is no count, whatever it says`, async () => {
				env.server.route("POST", path, json({ input_tokens: "many" }));
				expect(await adapter(provider).countPromptTokens(chat())).toBeUndefined();
			});
		}

		it("ollama: never asks (its API has no count)", async () => {
			expect(await adapter("ollama").countPromptTokens(chat())).toBeUndefined();
			expect(env.server.requests).toHaveLength(0);
		});
	});
}
