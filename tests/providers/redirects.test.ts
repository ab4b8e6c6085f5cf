// No transport follows a redirect with credentials: `fetch` drops Authorization
// across origins but keeps `x-api-key`. A configured server that redirects to a second local
// server must never deliver a key, or anything at all, to it; the error names where it points.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerateRequest } from "../../src/core/types";
import { createAdapter, type ProviderAdapter, type ProviderName, type Transport } from "../../src/providers";
import { ProviderServer, type RecordedRequest } from "../support/providerServer";
import { baseUrlFor, CHAT_PATHS, JSON_HEADERS, streamScenario } from "../support/providerStreams";
import { TRANSPORTS } from "../support/transports";

const KEY = "sk-ant-api03-Rd1rEcTkEyNeVeRLeAvEsHoMe";
const STATUSES = [301, 302, 303, 307, 308];
const DIALECTS: ProviderName[] = ["ollama", "openai", "anthropic"];
const MODELS_PATHS: Record<ProviderName, string> = { ollama: "/api/tags", openai: "/v1/models", anthropic: "/v1/models" };
const MODELS_BODIES: Record<ProviderName, string> = {
	ollama: JSON.stringify({ models: [{ name: "m:latest" }] }),
	openai: JSON.stringify({ data: [{ id: "m" }] }),
	anthropic: JSON.stringify({ data: [{ id: "m" }] }),
};
const req: GenerateRequest = { purpose: "chat", messages: [{ role: "user", content: "hi" }], maxTokens: 64, contextWindow: 1000 };

function carriesKey(r: RecordedRequest): boolean {
	return JSON.stringify(r.headers).includes(KEY.slice(0, 12)) || r.body.includes(KEY.slice(0, 12));
}

async function failure(p: Promise<unknown>): Promise<{ kind?: string; message: string }> {
	try {
		await p;
	} catch (err) {
		return err as { kind?: string; message: string };
	}
	throw new Error("expected a failure");
}

for (const { name, load } of TRANSPORTS) {
	describe(`redirects over the ${name} transport`, () => {
		let origin: ProviderServer;
		let target: ProviderServer;
		let transport: Transport;
		beforeAll(async () => {
			[origin, target] = await Promise.all([ProviderServer.start(), ProviderServer.start()]);
			transport = await load();
		});
		afterAll(() => Promise.all([origin.close(), target.close()]));

		for (const provider of DIALECTS) {
			it(`${provider}: a 301/302/303/307/308 never reaches the target, for chat, listModels and testConnection, and names it`, async () => {
				const adapter: ProviderAdapter = createAdapter({ provider, baseUrl: baseUrlFor(provider, origin.url), model: "m", apiKey: KEY, transport });
				for (const status of STATUSES) {
					origin.reset();
					target.reset();
					// The target would answer every request well: following the redirect would succeed there.
					target.route("POST", CHAT_PATHS[provider], streamScenario(provider, ["followed"]));
					target.route("GET", MODELS_PATHS[provider], { headers: JSON_HEADERS, body: MODELS_BODIES[provider] });
					for (const [method, path] of [["POST", CHAT_PATHS[provider]], ["GET", MODELS_PATHS[provider]]] as const) {
						origin.route(method, path, { status, headers: { location: `${target.url}${path}` }, body: "Moved" });
					}
					const chat = await failure(adapter.generate(req));
					expect(chat.kind, `${status} chat`).toBe("protocol");
					expect(chat.message, `${status} chat`).toContain(`redirected to ${baseUrlFor(provider, target.url)}`);
					expect(chat.message).toContain("put that address in Base URL");
					const list = await failure(adapter.listModels());
					expect(list.message, `${status} listModels`).toContain(target.url);
					const test = await adapter.testConnection();
					expect(test.ok, `${status} testConnection`).toBe(false);
					expect(test.message, `${status} testConnection`).toContain(target.url);
					expect(origin.requests.length, `${status}: the origin was asked`).toBe(3);
					expect(target.requests.filter(carriesKey), `${status}: the key reached the target`).toEqual([]);
					expect(target.requests, `${status}: the target was contacted`).toEqual([]);
				}
			});
		}
	});
}

describe("a browser's opaque redirect", () => {
	it("says the server redirected and to check the Base URL, though the target is hidden", async () => {
		// With redirect "manual", a browser's fetch hides the 3xx: type "opaqueredirect", status 0, no headers.
		const opaque: Transport = () => {
			const response = new Response(null, { status: 200 });
			Object.defineProperties(response, { type: { value: "opaqueredirect" }, status: { value: 0 }, ok: { value: false } });
			return Promise.resolve(response);
		};
		const adapter = createAdapter({ provider: "anthropic", baseUrl: "https://proxy.example", model: "m", apiKey: KEY, transport: opaque });
		const err = await failure(adapter.generate(req));
		expect(err.kind).toBe("protocol");
		expect(err.message).toMatch(/^Anthropic at https:\/\/proxy\.example redirected the request elsewhere\./);
		expect(err.message).toContain("Check the Base URL");
		expect((await adapter.testConnection()).message).toContain("redirected the request elsewhere");
	});
});
