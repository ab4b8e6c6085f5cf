// An agent's temperature on the wire: each dialect's field (Ollama options.temperature, OpenAI
// temperature, Anthropic temperature capped at its maximum of 1), only on chat requests, and
// nothing at all without one (the server's default).
import { describe, expect, it } from "vitest";
import type { GenerateRequest } from "../../src/core/types";
import { createAdapter } from "../../src/providers";
import { withTemperature } from "../../src/providers/withTemperature";
import { baseUrlFor, CHAT_PATHS, streamScenario } from "../support/providerStreams";
import { TRANSPORTS, useProviderServer } from "../support/transports";

const req: GenerateRequest = { purpose: "chat", messages: [{ role: "user", content: "Hi" }], maxTokens: 100, contextWindow: 4000 };
const KEY = "sk-test-0123456789abcdefghij";
const fetchTransport = TRANSPORTS.find((t) => t.name === "fetch") ?? TRANSPORTS[0]!;

describe("an agent's temperature on the wire", () => {
	const env = useProviderServer(fetchTransport.load);
	const sent = () => env.server.requests.map((r) => r.json as Record<string, unknown> & { options?: Record<string, unknown> });

	it("ollama: options.temperature, beside num_ctx", async () => {
		env.server.route("POST", CHAT_PATHS.ollama, streamScenario("ollama", ["ok"]));
		const adapter = withTemperature(createAdapter({ provider: "ollama", baseUrl: env.server.url, model: "llama3.2", transport: env.transport }), () => 0.2);
		await adapter.generate(req);
		expect(sent()[0]?.options).toEqual({ num_ctx: 4000, num_predict: 100, temperature: 0.2 });
	});

	it("openai: temperature; anthropic: temperature capped at 1", async () => {
		env.server.route("POST", CHAT_PATHS.openai, streamScenario("openai", ["ok"]));
		env.server.route("POST", CHAT_PATHS.anthropic, streamScenario("anthropic", ["ok"]));
		await withTemperature(createAdapter({ provider: "openai", baseUrl: baseUrlFor("openai", env.server.url), model: "m", apiKey: KEY, transport: env.transport }), () => 1.5).generate(req);
		await withTemperature(createAdapter({ provider: "anthropic", baseUrl: env.server.url, model: "c", apiKey: KEY, transport: env.transport }), () => 1.5).generate(req);
		expect(sent()[0]?.temperature).toBe(1.5);
		expect(sent()[1]?.temperature).toBe(1);
	});

	it("no temperature, and summaries, send none: the server's default holds", async () => {
		env.server.route("POST", CHAT_PATHS.openai, streamScenario("openai", ["ok"]));
		const base = createAdapter({ provider: "openai", baseUrl: baseUrlFor("openai", env.server.url), model: "m", apiKey: KEY, transport: env.transport });
		await withTemperature(base, () => undefined).generate(req);
		await withTemperature(base, () => 0.4).generate({ ...req, purpose: "summary" });
		expect(sent().map((b) => "temperature" in b)).toEqual([false, false]);
	});

	it("the wrapper keeps the adapter's own members (listing models, redacting)", () => {
		const base = createAdapter({ provider: "openai", baseUrl: "http://localhost:1/v1", model: "m", apiKey: KEY, transport: env.transport });
		const wrapped = withTemperature(base, () => 0.3);
		expect(typeof wrapped.listModels).toBe("function");
		expect(wrapped.redact?.(`key ${KEY}`)).toBe(base.redact?.(`key ${KEY}`));
	});
});
