// MCP servers in the settings: the Claude Desktop paste (whole file, bare inner object, one server),
// what looks like a secret, secret references resolved only when a server starts, and validation.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { literalSecrets, looksSecret, mcpSaveProblem, parseMcpPaste, secretNameFor, secretNamer, takenSecretNames, withSecretRefs } from "../../src/settings/mcpPaste";
import { isMcpServers, mcpServerProblem, resolveMcpServer, secretsOf, type McpServerSetting } from "../../src/settings/mcpServers";
import { migrateSettings } from "../../src/settings/migration";
import { DEFAULT_SETTINGS, validateSettings } from "../../src/settings/settings";

const CLAUDE_DESKTOP = JSON.stringify({
	mcpServers: {
		filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"] },
		github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_abcdefghijklmnop1234" } },
		remote: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer abcdefghijklmnop", "X-Team": "blue" } },
		old: { command: "uvx", args: ["mcp-server-time"], disabled: true },
	},
});

describe("pasting servers in the Claude Desktop format", () => {
	it("reads the whole file: stdio and HTTP servers, off ones kept off, secrets found", () => {
		const result = parseMcpPaste(CLAUDE_DESKTOP);
		if (!result.ok) throw new Error(JSON.stringify(result.problem));
		expect(result.servers.map((s) => [s.name, s.enabled, s.command ?? s.url])).toEqual([
			["filesystem", true, "npx"],
			["github", true, "npx"],
			["remote", true, "https://mcp.example.com/mcp"],
			["old", false, "uvx"],
		]);
		expect(result.servers[0]?.args).toEqual(["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"]);
		expect(result.secrets).toEqual([
			{ server: "github", place: "env", key: "GITHUB_PERSONAL_ACCESS_TOKEN", secretName: "mcp-github-github-personal-access-token" },
			{ server: "remote", place: "headers", key: "Authorization", secretName: "mcp-remote-authorization" },
		]);
		expect(isMcpServers(result.servers)).toBe(true);
	});

	it("reads the bare inner object, a single server named by the form or guessed, and lines without their braces", () => {
		const inner = parseMcpPaste(JSON.stringify({ time: { command: "uvx", args: ["mcp-server-time"] } }));
		expect(inner.ok && inner.servers.map((s) => s.name)).toEqual(["time"]);
		const single = parseMcpPaste('{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]}', "demo");
		expect(single.ok && single.servers.map((s) => s.name)).toEqual(["demo"]);
		const guessed = parseMcpPaste('{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]}');
		expect(guessed.ok && guessed.servers.map((s) => s.name)).toEqual(["everything"]);
		const remote = parseMcpPaste('{"url": "https://api.githubcopilot.com/mcp/"}');
		expect(remote.ok && remote.servers.map((s) => s.name)).toEqual(["githubcopilot"]);
		const lines = parseMcpPaste('"memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] },');
		expect(lines.ok && lines.servers.map((s) => s.name)).toEqual(["memory"]);
	});

	it("refuses bad JSON and wrong shapes with a reason", () => {
		const bad = parseMcpPaste('{"mcpServers": {"a": {"command": "npx",}}');
		expect(bad.ok).toBe(false);
		expect(!bad.ok && bad.problem.code).toBe("json");
		expect(!bad.ok && bad.problem.code === "json" && bad.problem.detail.length > 0).toBe(true);
		expect(parseMcpPaste("").ok).toBe(false);
		expect(parseMcpPaste("[1, 2]")).toMatchObject({ ok: false, problem: { code: "shape" } });
		expect(parseMcpPaste('{"mcpServers": {"both": {"command": "x", "url": "https://a.b"}}}')).toMatchObject({ ok: false, problem: { code: "server", server: "both", detail: "commandAndUrl" } });
		expect(parseMcpPaste('{"mcpServers": {"none": {"args": []}}}')).toMatchObject({ ok: false, problem: { code: "server", server: "none", detail: "neither" } });
		expect(parseMcpPaste('{"mcpServers": {"ftp": {"url": "ftp://a.b"}}}')).toMatchObject({ ok: false, problem: { code: "server", detail: "url" } });
		expect(parseMcpPaste('{"mcpServers": {"e": {"command": "x", "env": {"A": {"nested": 1}}}}}')).toMatchObject({ ok: false, problem: { code: "server", detail: "field", field: "env" } });
		// A value without a name would make the saved list invalid (and the whole list dropped on load).
		expect(parseMcpPaste('{"mcpServers": {"e": {"command": "x", "env": {" ": "1"}}}}')).toMatchObject({ ok: false, problem: { code: "server", detail: "field", field: "env" } });
		expect(parseMcpPaste('{"mcpServers": {"h": {"url": "https://a.b", "headers": {"": "1"}}}}')).toMatchObject({ ok: false, problem: { code: "server", detail: "field", field: "headers" } });
	});

	it("tells secrets from ordinary values", () => {
		expect(looksSecret("headers", "Authorization", "Bearer abcdefghijk")).toBe(true);
		expect(looksSecret("headers", "X-Api-Key", "abc123")).toBe(true);
		expect(looksSecret("headers", "Accept", "application/json")).toBe(false);
		expect(looksSecret("env", "OPENAI_API_KEY", "sk-123456789012")).toBe(true);
		expect(looksSecret("env", "SLACK_BOT_TOKEN", "xoxb-1234")).toBe(true);
		expect(looksSecret("env", "BRAVE_API_KEY", "BSA123")).toBe(true);
		expect(looksSecret("env", "LOG_LEVEL", "debug")).toBe(false);
		expect(looksSecret("env", "GITHUB_TOKEN", "<YOUR_TOKEN>")).toBe(false);
		expect(looksSecret("env", "SOMETHING", "ghp_abcdefghijklmnopqrst")).toBe(true);
		expect(secretNameFor("My GitHub", "GITHUB_TOKEN")).toBe("mcp-my-github-github-token");
	});

	it("gives two servers whose names slug alike, or a server already saved, different secret names", () => {
		const paste = JSON.stringify({ mcpServers: { g: { command: "npx", env: { GITHUB_TOKEN: "ghp_abcdefghijklmnop" } }, "g-": { command: "npx", env: { GITHUB_TOKEN: "ghp_qrstuvwxyzabcdef" } } } });
		const result = parseMcpPaste(paste, undefined, (name) => name === "mcp-g-github-token");
		if (!result.ok) throw new Error("the paste should parse");
		const names = result.secrets.map((c) => c.secretName);
		expect(names).toEqual(["mcp-g-github-token-2", "mcp-g-github-token-3"]);
		expect(new Set(withSecretRefs(result.servers, result.secrets).flatMap(secretsOf))).toEqual(new Set(names));
	});

	it("never names a secret after one in secret storage or one a saved server refers to", () => {
		const storage = new Map([["mcp-github-github-token", "ghp_anotherserverskey5678"]]);
		const saved: McpServerSetting[] = [{ name: "old", enabled: true, command: "npx", env: { T: { secret: "mcp-github-github-token-2" } } }];
		const taken = takenSecretNames({ getSecret: (n) => storage.get(n) ?? null }, saved);
		const paste = JSON.stringify({ mcpServers: { github: { command: "npx", env: { GITHUB_TOKEN: "ghp_abcdefghijklmnop" } }, GitHub2: { command: "npx", env: { GITHUB_TOKEN: "ghp_qrstuvwxyzabcdef" } } } });
		const result = parseMcpPaste(paste, undefined, taken);
		if (!result.ok) throw new Error("the paste should parse");
		expect(result.secrets.map((c) => c.secretName)).toEqual(["mcp-github-github-token-3", "mcp-github2-github-token"]);
		// One namer: what it chose before is taken for it, whatever the predicate says.
		const name = secretNamer(() => false);
		expect([name("a", "K"), name("a", "K"), name("A", "k")]).toEqual(["mcp-a-k", "mcp-a-k-2", "mcp-a-k-3"]);
	});

	it("the last check before saving: an invalid server, a literal secret, two names alike (with the saved ones too)", () => {
		const ok: McpServerSetting = { name: "a", enabled: true, command: "npx", env: { T: { secret: "mcp-a-t" }, LOG: "debug" } };
		expect(mcpSaveProblem([], [ok])).toBeUndefined();
		expect(mcpSaveProblem([], [{ ...ok, env: { "": "x" } }])).toEqual({ code: "invalid", server: "a" });
		expect(mcpSaveProblem([], [{ ...ok, url: "https://a.b" }])).toEqual({ code: "invalid", server: "a" });
		expect(mcpSaveProblem([], [{ ...ok, env: { GITHUB_TOKEN: "ghp_abcdefghijklmnop" } }])).toEqual({ code: "secret", server: "a", key: "GITHUB_TOKEN" });
		expect(mcpSaveProblem([], [{ name: "r", enabled: true, url: "https://a.b", headers: { Authorization: "Bearer abcdefghijkl" } }])).toEqual({ code: "secret", server: "r", key: "Authorization" });
		expect(mcpSaveProblem([ok], [{ ...ok, name: "A" }])).toEqual({ code: "duplicate", server: "A" });
		expect(mcpSaveProblem([], [ok, { ...ok, name: "A" }])).toEqual({ code: "duplicate", server: "A" });
	});

	it("property: after every candidate moves, no literal secret is left to save, and the servers stay valid", () => {
		const key = fc.constantFrom("GITHUB_TOKEN", "API_KEY", "LOG_LEVEL", "Authorization", "Accept", "X-Api-Key", "HOME");
		const value = fc.oneof(fc.constantFrom("Bearer abcdefghijkl", "ghp_abcdefghijklmnop", "debug", "", "sk-abcdefghijklmnop"), fc.string({ maxLength: 12 }));
		const stdio = fc.record({ command: fc.constant("npx"), env: fc.dictionary(key, value) });
		const http = fc.record({ url: fc.constant("https://mcp.example.com/mcp"), headers: fc.dictionary(key, value) });
		const names = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), { minLength: 1, maxLength: 4 });
		fc.assert(
			fc.property(names, fc.array(fc.oneof(stdio, http), { minLength: 4, maxLength: 4 }), (ns, configs) => {
				const paste = JSON.stringify({ mcpServers: Object.fromEntries(ns.map((n, i) => [n, configs[i]])) });
				const result = parseMcpPaste(paste);
				if (!result.ok) return false;
				const saved = withSecretRefs(result.servers, result.secrets);
				expect(literalSecrets(saved)).toEqual([]);
				expect(isMcpServers(saved)).toBe(true);
				expect(mcpSaveProblem([], saved)).toBeUndefined();
				// What was moved resolves back to the pasted value through secret storage.
				const storage = new Map<string, string>();
				for (const c of result.secrets) {
					const original = result.servers.find((s) => s.name === c.server)?.[c.place]?.[c.key];
					if (typeof original === "string") storage.set(c.secretName, original);
				}
				for (let i = 0; i < saved.length; i++) {
					const resolved = resolveMcpServer(saved[i] as McpServerSetting, (n) => storage.get(n) ?? null);
					const before = resolveMcpServer(result.servers[i] as McpServerSetting, () => null);
					expect(resolved).toEqual(before);
				}
				return true;
			}),
			{ numRuns: 200 },
		);
	});
});

describe("saved MCP servers", () => {
	const github: McpServerSetting = { name: "github", enabled: true, command: "npx", args: ["-y", "x"], env: { GITHUB_TOKEN: { secret: "github-token" }, LOG: "info" } };

	it("a secret is read from secret storage when the server starts; a missing one says which", () => {
		expect(resolveMcpServer(github, (n) => (n === "github-token" ? "ghp_x" : null))).toEqual({ ok: true, config: { name: "github", command: "npx", args: ["-y", "x"], env: { GITHUB_TOKEN: "ghp_x", LOG: "info" } } });
		expect(resolveMcpServer(github, () => null)).toEqual({ ok: false, missingSecret: "github-token" });
	});

	it("validation: names unique (any case), one transport, secret names as Obsidian's ids, a sane time limit", () => {
		expect(isMcpServers([github])).toBe(true);
		expect(isMcpServers([github, { ...github, name: "GitHub" }])).toBe(false);
		expect(mcpServerProblem({ ...github, url: "https://a.b" })).toMatch(/either/);
		expect(mcpServerProblem({ ...github, env: { A: { secret: "Not An Id" } } })).toMatch(/environment/);
		expect(mcpServerProblem({ ...github, timeoutMs: 10 })).toMatch(/time limit/);
		expect(mcpServerProblem({ ...github, name: "a/b" })).toMatch(/name/);
		expect(validateSettings({ ...DEFAULT_SETTINGS, mcpServers: [github] })).toEqual([]);
		expect(validateSettings({ ...DEFAULT_SETTINGS, mcpServers: [{ name: "x" }] as never }).map((i) => i.field)).toEqual(["mcpServers"]);
	});

	it("old data has no servers; a damaged list falls back to none with a warning", () => {
		expect(migrateSettings({ settingsVersion: 3 }).settings.mcpServers).toEqual([]);
		const damaged = migrateSettings({ settingsVersion: 3, mcpServers: [{ name: 3 }] });
		expect(damaged.settings.mcpServers).toEqual([]);
		expect(damaged.warnings.join(" ")).toMatch(/MCP servers/);
		expect(migrateSettings({ settingsVersion: 3, mcpServers: [github] }).settings.mcpServers).toEqual([github]);
	});
});
