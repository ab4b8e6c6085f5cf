// Where a key may go: the settings' secret only to the settings' origin (scheme, host, port), an
// agent's own secret to that agent's server, never the settings' secret to another origin whoever
// names it. Unit cases, then a property over random settings and agents: no key is ever chosen for
// an origin it was not bound to.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundKey, keyFor, originOf, settingsBindings, type AgentServerFields, type KeySettings } from "../../src/settings/keyBinding";
import { DEFAULT_BASE_URLS, PROVIDERS } from "../../src/providers/types";

const anthropic: KeySettings = { provider: "anthropic", baseUrl: "https://api.anthropic.com", apiKeySecret: "company-key" };

describe("keyFor", () => {
	it("the settings' key goes to the settings' server, and to an agent on that same origin", () => {
		expect(keyFor(anthropic)).toEqual({ provider: "anthropic", baseUrl: "https://api.anthropic.com", secret: "company-key" });
		expect(keyFor(anthropic, { provider: "anthropic" })).toMatchObject({ secret: "company-key" });
		expect(keyFor(anthropic, { baseUrl: "https://API.anthropic.com:443/v1" })).toMatchObject({ secret: "company-key" });
	});

	it("an agent naming another provider or origin gets no key unless it names its own", () => {
		expect(keyFor(anthropic, { provider: "openai" })).toEqual({ provider: "openai", baseUrl: DEFAULT_BASE_URLS.openai, secret: undefined, withheld: "own-secret-needed" });
		expect(keyFor(anthropic, { baseUrl: "https://api.anthropic.com.evil.example" })).toMatchObject({ secret: undefined, withheld: "own-secret-needed" });
		expect(keyFor(anthropic, { baseUrl: "http://api.anthropic.com" })).toMatchObject({ secret: undefined, withheld: "own-secret-needed" });
		expect(keyFor(anthropic, { baseUrl: "https://api.anthropic.com:8443" })).toMatchObject({ secret: undefined, withheld: "own-secret-needed" });
		expect(keyFor(anthropic, { provider: "openai", secret: "openai-key" })).toEqual({ provider: "openai", baseUrl: DEFAULT_BASE_URLS.openai, secret: "openai-key" });
	});

	it("the settings' secret named by an agent for another server is still bound to the settings' server", () => {
		expect(keyFor(anthropic, { provider: "openai", secret: "company-key" })).toMatchObject({ secret: undefined, withheld: "bound-elsewhere" });
		expect(keyFor(anthropic, { secret: "company-key" })).toMatchObject({ secret: "company-key" });
	});

	it("an origin is shown as the browser compares it: case and default ports folded, a look-alike host in punycode", () => {
		expect(originOf("HTTPS://API.OpenAI.com:443/v1")).toBe("https://api.openai.com");
		// A Cyrillic "а" in the host: the card shows it as what it is, not as api.openai.com.
		expect(originOf("https://\u0430pi.openai.com/v1")).toBe("https://xn--pi-6kc.openai.com");
		expect(keyFor({ ...anthropic, provider: "openai", baseUrl: "https://api.openai.com/v1" }, { baseUrl: "https://\u0430pi.openai.com/v1" })).toMatchObject({ secret: undefined, withheld: "own-secret-needed" });
		expect(originOf("localhost:11434")).toBeUndefined();
	});

	it("a local-only setup has no key to give, and an agent's own goes only with it", () => {
		const ollama: KeySettings = { provider: "ollama", baseUrl: "http://localhost:11434", apiKeySecret: "" };
		expect(keyFor(ollama, { provider: "openai" })).toEqual({ provider: "openai", baseUrl: DEFAULT_BASE_URLS.openai, secret: undefined });
	});

	it("the rule for any server kind: a secret bound to one origin never goes to another", () => {
		const bindings = [{ secret: "mcp-key", origin: "https://mcp.example" }];
		expect(boundKey("mcp-key", "https://mcp.example/mcp", bindings)).toBe("mcp-key");
		expect(boundKey("mcp-key", "https://other.example/mcp", bindings)).toBeUndefined();
		expect(boundKey("unbound", "https://mcp.example/mcp", bindings)).toBeUndefined();
		expect(boundKey("mcp-key", "not a url", bindings)).toBeUndefined();
		// Bound to two origins (a conflict): it goes to neither.
		expect(boundKey("mcp-key", "https://mcp.example", [...bindings, { secret: "mcp-key", origin: "https://b.example" }])).toBeUndefined();
	});
});

describe("no key goes to an origin it was not bound to (property)", () => {
	const origins = ["https://api.anthropic.com", "https://api.openai.com", "http://localhost:11434", "http://127.0.0.1:8080", "http://127.0.0.1:8081", "https://evil.example"];
	const urlArb = fc.tuple(fc.constantFrom(...origins), fc.constantFrom("", "/", "/v1", "/v1/"), fc.boolean()).map(([o, path, upper]) => `${upper ? o.toUpperCase().replace("HTTP", "http") : o}${path}`);
	const secretArb = fc.constantFrom("company-key", "openai-key", "local-key");
	const settingsArb: fc.Arbitrary<KeySettings> = fc.record({ provider: fc.constantFrom(...PROVIDERS), baseUrl: urlArb, apiKeySecret: fc.oneof(secretArb, fc.constant("")) });
	const agentArb: fc.Arbitrary<AgentServerFields | undefined> = fc.option(fc.record({ provider: fc.constantFrom(...PROVIDERS), baseUrl: urlArb, secret: secretArb }, { requiredKeys: [] }), { nil: undefined });

	it("the key chosen is the settings' one only for the settings' origin, and an agent's own only for the agent's server", () => {
		fc.assert(
			fc.property(settingsArb, agentArb, (settings, agent) => {
				const { baseUrl, secret } = keyFor(settings, agent);
				if (secret === undefined) return true;
				const target = originOf(baseUrl);
				// The settings' secret: only ever to the settings' origin, whoever named it.
				if (secret === settings.apiKeySecret && target !== originOf(settings.baseUrl)) return false;
				// Any other secret: the agent named it, for this very server.
				if (secret !== settings.apiKeySecret && secret !== agent?.secret) return false;
				// Every binding the settings make holds.
				return settingsBindings(settings).every((b) => b.secret !== secret || b.origin === target);
			}),
			{ numRuns: 2000 },
		);
	});
});
