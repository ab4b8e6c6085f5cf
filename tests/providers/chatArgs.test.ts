import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SESSIONS_DIR, parseChatArgs } from "../../scripts/chatArgs";

describe("terminal chat arguments", () => {
	it("reads the documented example, with defaults", () => {
		expect(parseChatArgs(["--provider", "ollama", "--model", "llama3.2"])).toEqual({
			ok: true,
			args: { provider: "ollama", model: "llama3.2", baseUrl: "http://localhost:11434", dir: DEFAULT_SESSIONS_DIR, listSessions: false, help: false },
		});
	});

	it("reads every option, in --flag value and --flag=value forms", () => {
		const result = parseChatArgs(["--provider=openai", "--model", "qwen2.5", "--base-url=http://localhost:1234/v1", "--note", "Notes/a b.md", "--session", "01JX", "--dir=/tmp/s", "--context", "32768"]);
		expect(result).toEqual({
			ok: true,
			args: { provider: "openai", model: "qwen2.5", baseUrl: "http://localhost:1234/v1", note: "Notes/a b.md", session: "01JX", dir: "/tmp/s", contextWindow: 32768, listSessions: false, help: false },
		});
	});

	it("defaults the base URL per provider", () => {
		const r = parseChatArgs(["--provider", "anthropic", "--model", "claude-x"]);
		expect(r.ok && r.args.baseUrl).toBe("https://api.anthropic.com");
	});

	it.each([
		[["--model"], /--model needs a value/],
		[["--provider", "gemini", "--model", "x"], /--provider must be one of/],
		[[], /Pass --model/],
		[["--model", "x", "--base-url", "localhost:11434"], /--base-url must be an http/],
		[["--model", "x", "--context", "12.5"], /--context must be a whole number/],
		[["--model", "x", "--context", "100"], /at least 1024/],
		[["--model", "x", "--verbose"], /Unknown option "--verbose"/],
		[["--model", "x", "--model", "y"], /given twice/],
		[["--model", "--note", "a.md"], /--model needs a value/],
	])("rejects %j", (argv, message) => {
		const r = parseChatArgs(argv);
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.error).toMatch(message);
	});

	it("refuses an API key flag in any form and never echoes the key", () => {
		fc.assert(
			fc.property(fc.constantFrom("--api-key", "--key"), fc.string({ minLength: 8 }).filter((k) => !k.startsWith("-")), fc.boolean(), (flag, key, joined) => {
				const r = parseChatArgs(["--model", "x", ...(joined ? [`${flag}=${key}`] : [flag, key])]);
				expect(r.ok).toBe(false);
				if (!r.ok) {
					expect(r.error).toContain("DISCOVER_API_KEY");
					expect(r.error).not.toContain(key);
				}
			}),
		);
	});

	it("--help and --list-sessions need no model", () => {
		expect(parseChatArgs(["--help"])).toMatchObject({ ok: true, args: { help: true } });
		expect(parseChatArgs(["--list-sessions", "--dir", "x"])).toMatchObject({ ok: true, args: { listSessions: true, dir: "x" } });
	});
});
