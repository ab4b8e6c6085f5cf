// Model discovery and the connection test, against the protocol server.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAdapter, fetchTransport, loadNodeTransport, type ProviderConfig } from "../../src/providers";
import type { Transport } from "../../src/providers/transport";
import { ProviderServer } from "../support/providerServer";
import { errorScenario, httpError } from "../support/providerErrors";
import { baseUrlFor, JSON_HEADERS } from "../support/providerStreams";
import { TRANSPORTS, withOrigin } from "../support/transports";

const json = (value: unknown) => ({ headers: JSON_HEADERS, body: JSON.stringify(value) });
const OLLAMA_TAGS = json({ models: [{ name: "llama3.2:latest", model: "llama3.2:latest", size: 2019393189 }, { name: "qwen3:8b", model: "qwen3:8b" }] });
const APP_ORIGIN = "app://obsidian.md";

/** A browser's view of a refused origin: the response is blocked and fetch fails. */
const browserLike = (origin: string): Transport => async (url, init) => {
	const response = await fetchTransport(url, { ...init, headers: { ...init.headers, origin } });
	if (!response.headers.get("access-control-allow-origin")) throw new TypeError("Failed to fetch");
	return response;
};

for (const { name, load } of TRANSPORTS) {
	describe(`discovery and diagnosis over the ${name} transport`, () => {
		let server: ProviderServer;
		let transport: Transport;
		beforeAll(async () => {
			server = await ProviderServer.start({ cors: { refuseOrigins: [APP_ORIGIN] } });
			transport = await load();
		});
		afterEach(() => server.reset());
		afterAll(() => server.close());

		const config = (extra: Partial<ProviderConfig> = {}): ProviderConfig => ({
			provider: "ollama",
			baseUrl: server.url,
			model: "llama3.2",
			transport,
			...extra,
		});

		it("lists Ollama models from /api/tags", async () => {
			server.route("GET", "/api/tags", OLLAMA_TAGS);
			expect(await createAdapter(config()).listModels()).toEqual([{ id: "llama3.2:latest" }, { id: "qwen3:8b" }]);
		});

		it("lists OpenAI-compatible models with the context length servers report", async () => {
			server.route("GET", "/v1/models", json({ object: "list", data: [{ id: "a", object: "model" }, { id: "b", max_model_len: 32768 }, { id: "c", meta: { n_ctx_train: 131072 } }] }));
			const adapter = createAdapter(config({ provider: "openai", baseUrl: baseUrlFor("openai", server.url), model: "b" }));
			expect(await adapter.listModels()).toEqual([{ id: "a" }, { id: "b", contextLength: 32768 }, { id: "c", contextLength: 131072 }]);
			expect(await adapter.modelContextLength("c")).toBe(131072);
			expect(await adapter.modelContextLength("a")).toBeUndefined();
		});

		it("lists Anthropic models from /v1/models", async () => {
			server.route("GET", "/v1/models", json({ data: [{ type: "model", id: "claude-test", display_name: "Claude" }], has_more: false }));
			expect(await createAdapter(config({ provider: "anthropic", apiKey: "k" })).listModels()).toEqual([{ id: "claude-test" }]);
			expect(server.requests[0]?.headers["anthropic-version"]).toBe("2023-06-01");
		});

		it("reads the trained context length from Ollama's /api/show model_info", async () => {
			server.route("POST", "/api/show", json({ details: { family: "llama" }, model_info: { "general.architecture": "llama", "llama.context_length": 131072, "llama.embedding_length": 3072 } }));
			expect(await createAdapter(config()).modelContextLength("llama3.2")).toBe(131072);
			expect(server.requests[0]?.json).toEqual({ model: "llama3.2" });
		});

		it("testConnection: OK with latency when the model is there (llama3.2 is llama3.2:latest)", async () => {
			server.route("GET", "/api/tags", OLLAMA_TAGS);
			const d = await createAdapter(config()).testConnection();
			expect(d).toMatchObject({ ok: true, kind: "ok" });
			expect(typeof d.latencyMs).toBe("number");
		});

		it("testConnection: no model chosen yet offers the installed ones; generate refuses before sending", async () => {
			server.route("GET", "/api/tags", OLLAMA_TAGS);
			const adapter = createAdapter(config({ model: "" }));
			const d = await adapter.testConnection();
			expect(d).toMatchObject({ ok: false, kind: "model_missing" });
			expect(d.message).toContain("llama3.2:latest, qwen3:8b");
			await expect(adapter.generate({ purpose: "chat", messages: [], maxTokens: 1, contextWindow: 2048 })).rejects.toMatchObject({ kind: "bad_request" });
			expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(0);
		});

		it("testConnection: a missing model says how to pull it", async () => {
			server.route("GET", "/api/tags", OLLAMA_TAGS);
			const d = await createAdapter(config({ model: "mistral" })).testConnection();
			expect(d).toMatchObject({ ok: false, kind: "model_missing" });
			expect(d.message).toContain("ollama pull mistral");
		});

		it("testConnection: a missing OpenAI-compatible model lists what is there", async () => {
			server.route("GET", "/v1/models", json({ data: [{ id: "qwen2.5-7b-instruct" }] }));
			const d = await createAdapter(config({ provider: "openai", baseUrl: baseUrlFor("openai", server.url), model: "gpt-4o" })).testConnection();
			expect(d).toMatchObject({ ok: false, kind: "model_missing" });
			expect(d.message).toContain("qwen2.5-7b-instruct");
		});

		it("testConnection: an Anthropic alias matches its dated id; the list is asked for in one page", async () => {
			server.route("GET", "/v1/models", json({ data: [{ type: "model", id: "claude-sonnet-4-5-20250929" }], has_more: false }));
			const ok = await createAdapter(config({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: "k" })).testConnection();
			expect(ok.kind).toBe("ok");
			const missing = await createAdapter(config({ provider: "anthropic", model: "claude-sonnet-4", apiKey: "k" })).testConnection();
			expect(missing.kind).toBe("model_missing");
		});

		it("testConnection: a rejected key is auth", async () => {
			server.route("GET", "/v1/models", errorScenario(httpError("openai", 401, "Incorrect API key provided", "invalid_api_key")));
			const d = await createAdapter(config({ provider: "openai", baseUrl: baseUrlFor("openai", server.url), apiKey: "sk-wrong-key-123456" })).testConnection();
			expect(d).toMatchObject({ ok: false, kind: "auth" });
		});

		it("testConnection: a rejected key says so once, with the server's words", async () => {
			server.route("GET", "/v1/models", errorScenario(httpError("anthropic", 401, "invalid x-api-key", "authentication_error")));
			const d = await createAdapter(config({ provider: "anthropic", apiKey: "sk-ant-wrong-123456" })).testConnection();
			expect(d).toMatchObject({ ok: false, kind: "auth" });
			expect(d.message).toContain("invalid x-api-key");
			expect(d.message.match(/Check the/g)).toHaveLength(1);
		});

		it("testConnection: a server error names the server and the status", async () => {
			server.route("GET", "/api/tags", errorScenario(httpError("ollama", 500, "llama runner process has terminated", "api_error")));
			const d = await createAdapter(config()).testConnection();
			expect(d).toMatchObject({ ok: false, kind: "error", message: "Ollama answered with an error (HTTP 500): llama runner process has terminated" });
		});

		it("testConnection: a server that lists no models does not vouch for the model", async () => {
			server.route("GET", "/v1/models", json({ object: "list", data: [] }));
			const d = await createAdapter(config({ provider: "openai", baseUrl: baseUrlFor("openai", server.url), model: "local-model" })).testConnection();
			expect(d).toMatchObject({ ok: true, kind: "ok" });
			expect(d.message).toContain("could not be checked");
			expect(d.message).not.toContain("is available");
		});

		it("testConnection: nothing listening is unreachable, asking whether Ollama runs", async () => {
			const gone = await ProviderServer.start();
			await gone.close();
			const d = await createAdapter(config({ baseUrl: gone.url })).testConnection();
			expect(d).toMatchObject({ ok: false, kind: "unreachable" });
			expect(d.message).toContain("ollama serve");
		});

		it("testConnection: each finding carries its code and parameters, the server's words apart and without the key", async () => {
			server.route("GET", "/api/tags", OLLAMA_TAGS);
			expect(await createAdapter(config()).testConnection()).toMatchObject({ code: "connected", params: { provider: "ollama", model: "llama3.2" } });
			expect(await createAdapter(config({ model: "mistral" })).testConnection()).toMatchObject({ code: "model_not_downloaded", params: { model: "mistral" } });
			server.route("GET", "/api/tags", errorScenario(httpError("ollama", 500, "llama runner process has terminated", "api_error")));
			expect(await createAdapter(config()).testConnection()).toMatchObject({ code: "server_error", params: { status: 500 }, said: "llama runner process has terminated" });
			const key = "sk-ant-echoed-9f8e7d6c5b4a";
			server.route("GET", "/v1/models", errorScenario(httpError("anthropic", 401, `invalid x-api-key ${key}`, "authentication_error")));
			const auth = await createAdapter(config({ provider: "anthropic", apiKey: key })).testConnection();
			expect(auth).toMatchObject({ code: "auth_rejected", said: "invalid x-api-key [redacted]" });
			const thrown = await createAdapter(config({ provider: "anthropic", apiKey: key })).listModels().catch((e: unknown) => e);
			expect(thrown).toMatchObject({ kind: "auth", code: "auth_rejected", said: "invalid x-api-key [redacted]" });
			const gone = await ProviderServer.start();
			await gone.close();
			expect(await createAdapter(config({ baseUrl: gone.url })).testConnection()).toMatchObject({ code: "unreachable", params: { provider: "ollama", origin: gone.url } });
		});

		it("an empty 403 points at OLLAMA_ORIGINS only when the transport sent an Origin", async () => {
			server.route("GET", "/api/tags", { status: 403, body: "" });
			const err = await createAdapter(config()).listModels().catch((e: unknown) => e as Error);
			expect(err).toMatchObject({ kind: "auth" });
			expect((err as Error).message.includes("OLLAMA_ORIGINS")).toBe(name === "fetch");
		});

		it("testConnection: Ollama's empty 403 for the app's origin is origin_refused with the OLLAMA_ORIGINS fix", async () => {
			server.route("GET", "/api/tags", OLLAMA_TAGS);
			const d = await createAdapter(config({ transport: withOrigin(transport, APP_ORIGIN) })).testConnection();
			expect(d).toMatchObject({ ok: false, kind: "origin_refused" });
			expect(d.message).toContain('OLLAMA_ORIGINS="app://obsidian.md*,capacitor://localhost" ollama serve');
		});
	});
}

describe("origin refused, seen from a browser", () => {
	let server: ProviderServer;
	beforeAll(async () => {
		server = await ProviderServer.start({ cors: { refuseOrigins: [APP_ORIGIN] } });
		server.route("GET", "/api/tags", OLLAMA_TAGS);
	});
	afterAll(() => server.close());

	it("a blocked fetch from the app is told apart from a dead server by asking again without an Origin", async () => {
		const d = await createAdapter({ provider: "ollama", baseUrl: server.url, model: "llama3.2", transport: browserLike(APP_ORIGIN), fromApp: true }).testConnection();
		expect(d).toMatchObject({ ok: false, kind: "origin_refused" });
		expect(d.message).toContain("OLLAMA_ORIGINS");
	});

	it("the same blocked fetch is unreachable when the request is not from the app", async () => {
		const d = await createAdapter({ provider: "ollama", baseUrl: server.url, model: "llama3.2", transport: browserLike(APP_ORIGIN) }).testConnection();
		expect(d.kind).toBe("unreachable");
	});

	it("the Node transport sends no Origin, so the refusing server answers it", async () => {
		const d = await createAdapter({ provider: "ollama", baseUrl: server.url, model: "llama3.2", transport: await loadNodeTransport() }).testConnection();
		expect(d.kind).toBe("ok");
	});
});
