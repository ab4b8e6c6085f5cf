import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SESSIONS_DIR, parseChatArgs, resumeCommand } from "../../scripts/chatArgs";

describe("terminal chat arguments", () => {
	it("reads the documented example, with defaults", () => {
		expect(parseChatArgs(["--provider", "ollama", "--model", "llama3.2"])).toEqual({
			ok: true,
			args: { provider: "ollama", model: "llama3.2", baseUrl: "http://localhost:11434", notes: [], dir: DEFAULT_SESSIONS_DIR, listSessions: false, help: false },
		});
	});

	it("reads every option, in --flag value and --flag=value forms", () => {
		const result = parseChatArgs(["--provider=openai", "--model", "qwen2.5", "--base-url=http://localhost:1234/v1", "--note", "Notes/a b.md", "--session", "01JX", "--dir=/tmp/s", "--context", "32768", "--note=b.md", "--vault", "/v"]);
		expect(result).toEqual({
			ok: true,
			args: { provider: "openai", model: "qwen2.5", baseUrl: "http://localhost:1234/v1", notes: ["Notes/a b.md", "b.md"], vault: "/v", session: "01JX", dir: "/tmp/s", contextWindow: 32768, listSessions: false, help: false },
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
		[["--model", "x", "--note", "a.md", "--note", "a.md"], /--note a\.md is given twice/],
		[["--model", "x", "--vault", "a", "--vault", "b"], /--vault is given twice/],
		[["--model", "x", "--vault"], /--vault needs a value/],
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

describe("the command that resumes a chat", () => {
	it("names the session and the options that differ from the defaults", () => {
		const r = parseChatArgs(["--model", "llama3.2"]);
		expect(r.ok && resumeCommand(r.args, "0abc")).toBe("npm run chat -- --session 0abc --provider ollama --model llama3.2");
	});

	it("quotes what the shell would split", () => {
		const r = parseChatArgs(["--model", "m", "--note", "My notes/it's here.md", "--dir", "/tmp/a b"]);
		expect(r.ok && resumeCommand(r.args, "x")).toBe("npm run chat -- --session x --provider ollama --model m --dir '/tmp/a b' --note 'My notes/it'\\''s here.md'");
	});

	it("gives back the same options (a round trip through the parser)", () => {
		const plain = fc.stringMatching(/^[\w./ '-]{1,20}$/).filter((s) => !s.startsWith("-") && s.trim() === s && s !== "");
		fc.assert(
			fc.property(
				fc.constantFrom("ollama", "openai", "anthropic"),
				plain,
				fc.option(fc.constantFrom("http://localhost:1234/v1", "https://example.test"), { nil: undefined }),
				fc.option(plain, { nil: undefined }),
				fc.uniqueArray(plain, { maxLength: 3 }),
				fc.option(plain, { nil: undefined }),
				fc.option(fc.integer({ min: 1024, max: 1_000_000 }), { nil: undefined }),
				fc.uniqueArray(fc.stringMatching(/^\w[\w ,/]{0,12}\w$/).filter((s) => !s.includes("//")), { maxLength: 3 }),
				(provider, model, baseUrl, dir, notes, vault, context, excluded) => {
					const argv = ["--provider", provider, "--model", model];
					if (baseUrl) argv.push("--base-url", baseUrl);
					if (dir) argv.push("--dir", dir);
					for (const note of notes) argv.push("--note", note);
					if (vault) argv.push("--vault", vault);
					if (vault) for (const folder of excluded) argv.push("--exclude", folder);
					if (context) argv.push("--context", String(context));
					const first = parseChatArgs(argv);
					if (!first.ok) throw new Error(first.error);
					// Undo the shell quoting the way a POSIX shell does for these words.
					const words = resumeCommand(first.args, "01ID").match(/'(?:[^']|'\\'')*'|\S+/g) ?? [];
					const unquoted = words.map((w) => (w.startsWith("'") ? w.slice(1, -1).replace(/'\\''/g, "'") : w));
					expect(unquoted.slice(0, 4)).toEqual(["npm", "run", "chat", "--"]);
					expect(parseChatArgs(unquoted.slice(4))).toEqual({ ok: true, args: { ...first.args, session: "01ID" } });
				},
			),
		);
	});
});
