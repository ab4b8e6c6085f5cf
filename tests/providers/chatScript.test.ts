// The terminal chat as a person runs it: a real process, piped input, a local protocol server.
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderServer } from "../support/providerServer";
import { JSON_HEADERS, streamScenario } from "../support/providerStreams";

const root = resolve(__dirname, "../..");
const KEY = "sk-chat-script-0123456789abcdef";

function runChat(args: string[], input: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((done, fail) => {
		const child = spawn(join(root, "node_modules/.bin/tsx"), ["scripts/chat.ts", ...args], { cwd: root, env: { ...process.env, ...env } });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
		child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
		child.on("error", fail);
		child.on("close", (code) => done({ code, stdout, stderr }));
		child.stdin.end(input);
	});
}

describe("npm run chat", () => {
	let server: ProviderServer;
	let dir: string;
	beforeAll(async () => {
		server = await ProviderServer.start();
		server.route("GET", "/api/tags", { headers: JSON_HEADERS, body: JSON.stringify({ models: [{ name: "llama3.2:latest" }] }) });
		server.route("POST", "/api/chat", streamScenario("ollama", ["Bonjour", " café ☕"]));
		dir = await mkdtemp(join(tmpdir(), "discover-chat-"));
	});
	afterAll(async () => {
		await server.close();
		await rm(dir, { recursive: true, force: true });
	});

	it("streams the answer, saves the session in the chosen folder, and keeps the key out of the output", async () => {
		const { code, stdout, stderr } = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", dir], "Hello there\n", { DISCOVER_API_KEY: KEY });
		expect(code).toBe(0);
		expect(stdout).toContain("Bonjour café ☕");
		expect(`${stdout}${stderr}`).not.toContain(KEY);
		expect(server.requests.find((r) => r.path === "/api/chat")?.headers.authorization).toBe(`Bearer ${KEY}`);
		const files = await readdir(join(dir, "sessions"));
		expect(files).toHaveLength(1);
		const saved = await readFile(join(dir, "sessions", files[0] ?? ""), "utf8");
		expect(saved).toContain("Hello there");
		expect(saved).toContain("Bonjour café ☕");
		expect(saved).not.toContain(KEY);
	}, 30000);

	it("sends --note with every message, and --session continues a saved chat with its history", async () => {
		const notes = await mkdtemp(join(tmpdir(), "discover-note-"));
		try {
			const note = join(notes, "Café notes.md");
			await writeFile(note, "# Café notes\n\nThe café opens on Sundays at nine.\n");
			const sessionsDir = join(notes, "sessions-home");
			server.requests.length = 0;
			const first = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", sessionsDir, "--note", note], "When does it open?\n");
			expect(first.code).toBe(0);
			const firstChat = server.requests.filter((r) => r.path === "/api/chat");
			expect(firstChat).toHaveLength(1);
			expect(firstChat[0]?.body).toContain("The café opens on Sundays at nine.");
			expect(firstChat[0]?.body).toContain("Café notes.md");

			const [file] = await readdir(join(sessionsDir, "sessions"));
			const id = (file ?? "").replace(/\.jsonl$/, "");
			server.requests.length = 0;
			const second = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", sessionsDir, "--session", id], "And on Mondays?\n");
			expect(second.code).toBe(0);
			const resumed = server.requests.find((r) => r.path === "/api/chat")?.json as { messages: { role: string; content: string }[] };
			expect(resumed.messages.filter((m) => m.role !== "system").map((m) => [m.role, m.content])).toEqual([
				["user", "When does it open?"],
				["assistant", "Bonjour café ☕"],
				["user", "And on Mondays?"],
			]);
			// Without --note this time, the note is not sent.
			expect(JSON.stringify(resumed)).not.toContain("Sundays at nine");
			expect(await readdir(join(sessionsDir, "sessions"))).toEqual([file]);
		} finally {
			await rm(notes, { recursive: true, force: true });
		}
	}, 60000);

	it("an unknown --session is an error that says so, with exit code 1", async () => {
		const { code, stderr } = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", dir, "--session", "no-such-session"], "hi\n");
		expect(code).toBe(1);
		expect(stderr).toContain("no-such-session");
	}, 30000);

	it("refuses an API key on the command line", async () => {
		const { code, stderr } = await runChat(["--model", "m", "--api-key", KEY], "");
		expect(code).toBe(2);
		expect(stderr).toContain("DISCOVER_API_KEY");
		expect(stderr).not.toContain(KEY);
	}, 30000);
});
