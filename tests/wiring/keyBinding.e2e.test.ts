// End to end: for random settings and agent notes, the plugin's adapters (createPluginAdapter, the
// real transports) list models and chat against two servers on 127.0.0.1, and every key each
// server saw is one bound to that server's origin: the settings' key only at the settings' server,
// an agent's own key only at that agent's server. Redirects are never followed, so a server that
// points elsewhere gets nothing further (tests/providers/redirects.test.ts).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { ProviderServer } from "../support/providerServer";
import { createPluginAdapter } from "../../src/wiring/adapterFactory";
import type { ProviderName } from "../../src/providers/types";

const KEYS: Record<string, string> = { "company-key": "sk-company-0001", "openai-key": "sk-openai-0002", "local-key": "sk-local-0003" };

let a: ProviderServer;
let b: ProviderServer;
beforeAll(async () => {
	a = await ProviderServer.start();
	b = await ProviderServer.start();
});
afterAll(async () => {
	await a.close();
	await b.close();
});

/** The key values a server saw, by secret name. */
function secretsSeen(server: ProviderServer): string[] {
	const values = server.requests.flatMap((r) => [r.headers.authorization, r.headers["x-api-key"]]).filter((v): v is string => typeof v === "string");
	return values.map((v) => Object.keys(KEYS).find((name) => v.includes(KEYS[name]!)) ?? `unknown ${v}`);
}

describe("keys on the wire (property, end to end)", () => {
	it("each server sees only keys bound to its origin", async () => {
		const app = asObsidianApp(await createTestApp({ secrets: KEYS }));
		const server = fc.constantFrom("a" as const, "b" as const);
		const provider = fc.constantFrom<ProviderName>("ollama", "openai", "anthropic");
		const secret = fc.constantFrom("company-key", "openai-key", "local-key");
		const scenario = fc.record({
			settings: fc.record({ provider, at: server, secret: fc.oneof(secret, fc.constant("")) }),
			// An agent without an address of its own keeps the settings' provider here: another provider's
			// usual address is a real cloud host, which no test may reach.
			agent: fc.option(
				fc.record({ provider, at: server, secret }, { requiredKeys: [] }).map((x) => (x.at === undefined ? { ...x, provider: undefined } : x)),
				{ nil: undefined },
			),
		});
		// Runs where some key went out at all: the property must not hold only because nothing was sent.
		let keyed = 0;
		await fc.assert(
			fc.asyncProperty(scenario, async ({ settings, agent }) => {
				a.reset();
				b.reset();
				const url = (at: "a" | "b", p: ProviderName): string => `${at === "a" ? a.url : b.url}${p === "openai" ? "/v1" : ""}`;
				const s = { provider: settings.provider, baseUrl: url(settings.at, settings.provider), model: "m", apiKeySecret: settings.secret };
				const agentProvider = agent?.provider ?? settings.provider;
				const fields = agent && { path: "Discover/Agents/A.md", provider: agent.provider, baseUrl: agent.at === undefined ? undefined : url(agent.at, agentProvider), secret: agent.secret };
				const adapter = await createPluginAdapter(app, s, fields);
				// The servers answer 404: what matters is what reached them.
				await adapter.listModels().catch(() => undefined);
				await adapter.generate({ purpose: "chat", messages: [{ role: "user", content: "hi" }], maxTokens: 16, contextWindow: 2048 }).catch(() => undefined);
				const settingsServer = settings.at === "a" ? a : b;
				if (secretsSeen(a).length + secretsSeen(b).length > 0) keyed++;
				for (const [srv, name] of [[a, "a"], [b, "b"]] as const) {
					for (const seen of secretsSeen(srv)) {
						const isSettingsKey = seen === settings.secret && srv === settingsServer;
						const agentServer = fields?.baseUrl === undefined ? (agentProvider === settings.provider ? settingsServer : undefined) : fields.baseUrl.startsWith(a.url) ? a : b;
						const isAgentsOwn = seen === agent?.secret && srv === agentServer && !(seen === settings.secret && srv !== settingsServer);
						expect(isSettingsKey || isAgentsOwn, `${name} saw ${seen}`).toBe(true);
					}
				}
			}),
			{ numRuns: 40 },
		);
		expect(keyed).toBeGreaterThan(5);
	});
});
