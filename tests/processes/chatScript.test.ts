// The terminal chat as a person runs it: a real process, piped input, a local protocol server.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderServer } from "../support/providerServer";
import { JSON_HEADERS, streamScenario } from "../support/providerStreams";
import { NodeFileStore, SessionManager } from "../../src/headless";
import { USAGE } from "../../scripts/chatArgs";
import { LiveChat, root, runChat } from "../support/liveChat";

const KEY = "sk-chat-script-0123456789abcdef";

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
	}, 120000);

	it("sends every --note as its own source under its name, and @vault the most relevant passage of the --vault folder", async () => {
		const notes = await mkdtemp(join(tmpdir(), "discover-notes-"));
		try {
			const a = join(notes, "Hours.md");
			const b = join(notes, "Prices.md");
			await writeFile(a, "The café opens on Sundays at nine.\n");
			await writeFile(b, "Coffee costs three euros.\n");
			const vault = join(notes, "vault");
			await mkdir(vault);
			await writeFile(join(vault, "Tea.md"), "Green tea costs two euros at the corner shop.\n");
			await writeFile(join(vault, "Walks.md"), "The river path is flat and shaded.\n");
			server.requests.length = 0;
			const run = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", join(notes, "home"), "--note", a, "--note", b, "--vault", vault], "What does tea cost? @vault\n");
			expect(run.code).toBe(0);
			const body = server.requests.find((r) => r.path === "/api/chat")?.body ?? "";
			expect(body).toContain("Hours.md · path: ");
			expect(body).toContain("The café opens on Sundays at nine.");
			expect(body).toContain("Prices.md · path: ");
			expect(body).toContain("Coffee costs three euros.");
			expect(body).toContain("Green tea costs two euros");
			expect(body).not.toContain("river path");
			expect(run.stderr).not.toContain("@vault has no index");
		} finally {
			await rm(notes, { recursive: true, force: true });
		}
	}, 120000);

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

	it("one Ctrl-C at the prompt does not quit: it says to press it again and how to resume this chat", async () => {
		const home = await mkdtemp(join(tmpdir(), "discover-ctrlc-"));
		try {
			const chat = new LiveChat(["--model", "llama3.2", "--base-url", server.url, "--dir", home]);
			await chat.until("you> ");
			chat.send("Hello there");
			await chat.until("you> ", 2);
			const [file] = await readdir(join(home, "sessions"));
			const id = (file ?? "").replace(/\.jsonl$/, "");
			chat.interrupt();
			await chat.until("Press Ctrl-C again to quit");
			expect(chat.stderr).toContain(`To resume this chat: npm run chat -- --session ${id} --provider ollama --model llama3.2 --base-url ${server.url} --dir ${home}`);
			// Still there: the next message is answered.
			chat.send("Still here?");
			await chat.until("discover> Bonjour café ☕", 2);
			// Four prompts: the first, after each answer, and the one the first Ctrl-C wrote again. (Waiting
			// for three raced the answer on a busy machine: Ctrl-C then stopped it instead.)
			await chat.until("you> ", 4);
			chat.interrupt();
			await chat.until("Press Ctrl-C again to quit", 2);
			expect(chat.running).toBe(true);
			chat.interrupt();
			expect(await chat.exited).toBe(0);
			expect(chat.stderr.split("To resume this chat:").length - 1).toBe(3);
		} finally {
			await rm(home, { recursive: true, force: true });
		}
	}, 120000);

	it("launching and quitting (or /new, or Ctrl-C twice) leaves no empty chat file behind", async () => {
		const home = await mkdtemp(join(tmpdir(), "discover-empty-"));
		try {
			const quitAtOnce = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", home], "");
			expect(quitAtOnce.code).toBe(0);
			const newThenQuit = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", home], "/new\n/new\n/quit\n");
			expect(newThenQuit.code).toBe(0);
			expect(await readdir(join(home, "sessions")).catch(() => [])).toEqual([]);
			const chat = new LiveChat(["--model", "llama3.2", "--base-url", server.url, "--dir", home]);
			await chat.until("you> ");
			chat.interrupt();
			await chat.until("Press Ctrl-C again to quit");
			chat.interrupt();
			expect(await chat.exited).toBe(0);
			expect(await readdir(join(home, "sessions")).catch(() => [])).toEqual([]);
			// A chat with a message is kept, and /new after it starts another that is kept only once used.
			const used = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", home], "First\n/new\n");
			expect(used.code).toBe(0);
			expect(await readdir(join(home, "sessions"))).toHaveLength(1);
			const [kept] = await readdir(join(home, "sessions"));
			expect(used.stderr).toContain(`To resume the previous chat: npm run chat -- --session ${(kept ?? "").replace(/\.jsonl$/, "")} `);
		} finally {
			await rm(home, { recursive: true, force: true });
		}
	}, 120000);

	it("--dir is the chats folder the help describes: chats in <folder>/sessions, as the plugin lays it out", async () => {
		expect(USAGE).toContain("<folder>/sessions/<id>.jsonl");
		const home = await mkdtemp(join(tmpdir(), "discover-dir-"));
		try {
			// A chat the plugin saved in its Chats folder (the same store, rooted at that folder)...
			const plugin = new SessionManager(new NodeFileStore(home));
			const saved = await plugin.create();
			await plugin.rename(saved.id, "Saved by the plugin");
			// ...is listed and continued by the terminal chat pointed at that folder.
			const listed = await runChat(["--list-sessions", "--dir", home], "");
			expect(listed.stdout).toContain("Saved by the plugin");
			const { code } = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", home, "--session", saved.id], "Hi\n");
			expect(code).toBe(0);
			expect(await readdir(join(home, "sessions"))).toEqual([`${saved.id}.jsonl`]);
			expect(await readFile(join(home, "sessions", `${saved.id}.jsonl`), "utf8")).toContain("Bonjour café ☕");
		} finally {
			await rm(home, { recursive: true, force: true });
		}
	}, 120000);

	it("/sessions and --list-sessions show times in the person's time zone, not UTC", async () => {
		const home = await mkdtemp(join(tmpdir(), "discover-times-"));
		try {
			const at = Date.parse("2024-03-05T12:30:00Z");
			const saved = await new SessionManager(new NodeFileStore(home), { now: () => at }).create();
			// Kiritimati is UTC+14: 12:30 UTC there is 02:30 on the next day.
			const zone = "Pacific/Kiritimati";
			const local = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone: zone }).format(at);
			const listed = await runChat(["--list-sessions", "--dir", home], "", { TZ: zone });
			expect(listed.stdout).toContain(`${saved.id}  ${local}  `);
			expect(listed.stdout).not.toContain("2024-03-05T12:30");
			const inChat = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", home], "/sessions\n", { TZ: zone });
			expect(inChat.stdout).toContain(`${saved.id}  ${local}  `);
		} finally {
			await rm(home, { recursive: true, force: true });
		}
	}, 120000);

	it("wraps a streamed answer at the terminal's width without splitting words", async () => {
		const home = await mkdtemp(join(tmpdir(), "discover-wrap-"));
		try {
			const words = ["The", " café", " opens", " on", " Sund", "ays", " at", " nine", " and", " closes", " at", " six", " o'clock."];
			server.once("POST", "/api/chat", streamScenario("ollama", words));
			const { code, stdout } = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", home], "When?\n", {}, join(root, "tests/support/narrowTerminal.ts"));
			expect(code).toBe(0);
			const answer = stdout.slice(stdout.indexOf("discover> ")).split("you> ")[0]?.trimEnd() ?? "";
			// 24 columns: "discover> " takes 10 of the first line.
			expect(answer.split("\n")).toEqual(["discover> The café opens", "on Sundays at nine and", "closes at six o'clock."]);
		} finally {
			await rm(home, { recursive: true, force: true });
		}
	}, 120000);
});
