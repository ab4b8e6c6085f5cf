// The protocol server itself: chunking, control endpoints, CORS and origin refusal.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchTransport } from "../../src/providers/transport";
import { chunkBytes, ProviderServer } from "../support/providerServer";
import { routeDefaults } from "../support/providerServerMain";
import { errorScenario, OVERFLOW_BODIES } from "../support/providerErrors";
import { CHAT_PATHS } from "../support/providerStreams";

const send = (url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Response> =>
	fetchTransport(url, { method: init.method ?? "GET", headers: init.headers ?? {}, body: init.body });

describe("chunkBytes", () => {
	it("splits into min..max byte chunks that join back into the input", () => {
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 500 }), fc.integer({ min: 1, max: 7 }), fc.nat({ max: 6 }), fc.integer(), (bytes, min, extra, seed) => {
				const chunks = chunkBytes(bytes, min, min + extra, seed);
				expect(Buffer.concat(chunks)).toEqual(Buffer.from(bytes));
				chunks.slice(0, -1).forEach((c) => expect(c.byteLength >= min && c.byteLength <= min + extra).toBe(true));
			}),
		);
	});
});

describe("control endpoints and CORS", () => {
	let server: ProviderServer;
	beforeAll(async () => {
		server = await ProviderServer.start({ cors: { refuseOrigins: ["app://obsidian.md"] } });
		routeDefaults(server);
	});
	afterAll(() => server.close());

	it("a one-time route set over HTTP answers once, then the default returns", async () => {
		const reply = OVERFLOW_BODIES.ollama?.reply;
		if (!reply) throw new Error("missing body");
		const set = await send(`${server.url}/__control/route`, { method: "POST", body: JSON.stringify({ method: "POST", path: CHAT_PATHS.ollama, scenario: errorScenario(reply), once: true }) });
		expect(set.status).toBe(200);
		const first = await send(`${server.url}${CHAT_PATHS.ollama}`, { method: "POST", body: "{}" });
		expect(first.status).toBe(400);
		await first.text();
		const second = await send(`${server.url}${CHAT_PATHS.ollama}`, { method: "POST", body: "{}" });
		expect(second.status).toBe(200);
		expect(await second.text()).toContain('"done":true');
		const recorded = (await (await send(`${server.url}/__control/requests`)).json()) as unknown[];
		expect(recorded).toHaveLength(2);
	});

	it("gives CORS headers only to allowed origins when a list is set", async () => {
		const strict = await ProviderServer.start({ cors: { allowOrigins: ["http://localhost:5173"] } });
		try {
			strict.route("GET", "/api/tags", { body: "{}" });
			const ok = await send(`${strict.url}/api/tags`, { headers: { origin: "http://localhost:5173" } });
			expect(ok.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
			await ok.text();
			const other = await send(`${strict.url}/api/tags`, { headers: { origin: "http://evil.test" } });
			expect(other.status).toBe(200);
			expect(other.headers.get("access-control-allow-origin")).toBeNull();
			await other.text();
		} finally {
			await strict.close();
		}
	});

	it("allows other origins with CORS headers, and refuses the configured one as Ollama does", async () => {
		const allowed = await send(`${server.url}/api/tags`, { headers: { origin: "http://localhost:5173" } });
		expect(allowed.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
		await allowed.text();
		const refused = await send(`${server.url}/api/tags`, { headers: { origin: "app://obsidian.md" } });
		expect(refused.status).toBe(403);
		expect(refused.headers.get("access-control-allow-origin")).toBeNull();
		expect(await refused.text()).toBe("");
	});
});
