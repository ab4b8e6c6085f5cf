// Add a server by form: what the person typed becomes a saved server, or every problem at once, each
// tied to its field; a value that looks like a secret is never saved as text; whatever the form
// accepts, loading the settings accepts too.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emptyMcpForm, serverFromForm, type McpForm, type McpFormValue } from "../../src/settings/mcpForm";
import { isMcpServer, mcpServerProblem, secretsOf, type McpServerSetting } from "../../src/settings/mcpServers";
import { literalSecrets, parseMcpPaste } from "../../src/settings/mcpPaste";
import { serverKind } from "../../src/mcp/config";

const form = (over: Partial<McpForm>): McpForm => ({ ...emptyMcpForm(), ...over });
const value = (key: string, text: string): McpFormValue => ({ key, kind: "text", text, secret: "" });
const secret = (key: string, name: string): McpFormValue => ({ key, kind: "secret", text: "", secret: name });
const saved: McpServerSetting[] = [{ name: "GitHub", enabled: true, command: "npx" }];

describe("adding a server by form", () => {
	it("a stdio server: command, one argument per line, env text and secrets", () => {
		const result = serverFromForm(
			form({ name: " files ", command: " npx ", args: "-y\n@modelcontextprotocol/server-filesystem\n\n/Users/me/My notes\n", env: [value("DEBUG", "1"), secret("GITHUB_TOKEN", "github-token"), value("", "")] }),
			saved,
		);
		expect(result).toEqual({
			ok: true,
			server: { name: "files", enabled: true, command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/My notes"], env: { DEBUG: "1", GITHUB_TOKEN: { secret: "github-token" } } },
		});
	});

	it("an HTTP server: url, headers, a time limit; the stdio fields typed before are not saved", () => {
		const result = serverFromForm(form({ name: "remote", transport: "http", command: "left over", url: "https://mcp.example.com/mcp", headers: [secret("Authorization", "remote-key"), value("X-Team", "blue")], timeoutSeconds: "30" }), saved);
		expect(result).toEqual({ ok: true, server: { name: "remote", enabled: true, url: "https://mcp.example.com/mcp", headers: { Authorization: { secret: "remote-key" }, "X-Team": "blue" }, timeoutMs: 30_000 } });
	});

	it("every problem at once, each at its field", () => {
		const result = serverFromForm(form({ name: "github", command: "", env: [value("", "x"), value("A", "1"), value("A", "2"), secret("TOKEN", ""), value("GITHUB_TOKEN", "ghp_abcdefghijklmnop1234")], timeoutSeconds: "0.1" }), saved);
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.problems).toEqual([
			{ field: "name", code: "nameTaken" },
			{ field: "command", code: "commandEmpty" },
			{ field: "env", index: 0, key: "", code: "keyEmpty" },
			{ field: "env", index: 2, key: "A", code: "keyTaken" },
			{ field: "env", index: 3, key: "TOKEN", code: "secretNone" },
			{ field: "env", index: 4, key: "GITHUB_TOKEN", code: "looksSecret" },
			{ field: "timeout", code: "timeout" },
		]);
	});

	it("names and urls: empty, invalid, not http", () => {
		const codes = (f: Partial<McpForm>): string[] => {
			const r = serverFromForm(form(f), []);
			return r.ok ? [] : r.problems.map((p) => p.code);
		};
		expect(codes({ name: "", transport: "http", url: "" })).toEqual(["nameEmpty", "urlEmpty"]);
		expect(codes({ name: "a/b", transport: "http", url: "not a url" })).toEqual(["nameInvalid", "urlInvalid"]);
		expect(codes({ name: "ok", transport: "http", url: "file:///etc/passwd" })).toEqual(["urlProtocol"]);
		// Headers compare without case: two Authorization headers are one too many.
		expect(codes({ name: "ok", transport: "http", url: "https://x.test", headers: [value("X-A", "1"), value("x-a", "2")] })).toEqual(["keyTaken"]);
		expect(codes({ name: "ok", transport: "http", url: "https://x.test", headers: [value("Bad header", "1")] })).toEqual(["keyEmpty"]);
	});

	it("property: the form, the paste, the saved list and the client's config take and refuse the same addresses", () => {
		const url = fc.oneof(fc.constantFrom("https://a.test/mcp", "http://127.0.0.1:9/x", "ftp://a", "javascript:alert(1)", "not a url", " https://a.test ", "HTTPS://A.TEST", "http:x", "//a.test"), fc.webUrl(), fc.string({ maxLength: 20 }));
		fc.assert(
			fc.property(url.filter((u) => u.trim() !== ""), (u) => {
				const byForm = serverFromForm(form({ name: "s", transport: "http", url: u }), []).ok;
				const byPaste = parseMcpPaste(JSON.stringify({ mcpServers: { s: { url: u } } })).ok;
				const saved = mcpServerProblem({ name: "s", enabled: true, url: u.trim() }) === undefined;
				let config = true;
				try {
					serverKind({ name: "s", url: u.trim() });
				} catch {
					config = false;
				}
				expect({ byPaste, saved, config }).toEqual({ byPaste: byForm, saved: byForm, config: byForm });
			}),
			{ numRuns: 500 },
		);
	});

	it("property: what the form accepts is a valid saved server, with no literal secret and only the secrets chosen", () => {
		const row = fc.record({ key: fc.oneof(fc.constantFrom("", "A", "TOKEN", "Authorization", "X-Team", "API_KEY", "a b"), fc.string({ maxLength: 12 })), kind: fc.constantFrom("text" as const, "secret" as const), text: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("ghp_abcdefghijklmnop1234", "Bearer abcdefghijklmnop", "")), secret: fc.constantFrom("", "github-token", "k") });
		const arb = fc.record({
			name: fc.oneof(fc.constantFrom("", "github", "GitHub", "files", " x "), fc.string({ maxLength: 70 })),
			transport: fc.constantFrom("stdio" as const, "http" as const),
			command: fc.oneof(fc.constantFrom("", " ", "npx"), fc.string({ maxLength: 10 })),
			args: fc.string({ maxLength: 30 }),
			env: fc.array(row, { maxLength: 4 }),
			url: fc.oneof(fc.constantFrom("", "https://a.test/mcp", "http://127.0.0.1:9/x", "ftp://a", "javascript:alert(1)"), fc.webUrl(), fc.string({ maxLength: 20 })),
			headers: fc.array(row, { maxLength: 4 }),
			timeoutSeconds: fc.oneof(fc.constantFrom("", "1", "120", "3600", "3601", "-5", "NaN", "Infinity", "1e3"), fc.string({ maxLength: 5 })),
		});
		fc.assert(
			fc.property(arb, (f) => {
				const result = serverFromForm(f, saved);
				if (!result.ok) {
					expect(result.problems.length).toBeGreaterThan(0);
					return;
				}
				expect(isMcpServer(result.server)).toBe(true);
				expect(literalSecrets([result.server])).toEqual([]);
				expect(result.server.name.toLowerCase()).not.toBe("github");
				const chosen = [...f.env, ...f.headers].filter((r) => r.kind === "secret").map((r) => r.secret);
				for (const s of secretsOf(result.server)) expect(chosen).toContain(s);
			}),
			{ numRuns: 500 },
		);
	});
});
