// `npm run chat` while the notes change on disk, as when the person edits them in Obsidian during
// a terminal chat: each message sends the --note files and the @vault passages as they are now;
// a deleted --note is said and left out; --exclude keeps a folder out of @vault; bad --exclude and
// --note values are refused at start with a clear line.
import { mkdir, mkdtemp, rm, unlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderServer } from "../support/providerServer";
import { JSON_HEADERS, streamScenario } from "../support/providerStreams";
import { LiveChat, runChat } from "../support/liveChat";

/** Writes `text` and moves the mtime on, so even a same-second, same-size edit is a visible change. */
async function edit(path: string, text: string): Promise<void> {
	await writeFile(path, text);
	const later = new Date(Date.now() + 5_000);
	await utimes(path, later, later);
}

describe("npm run chat follows the disk", () => {
	let server: ProviderServer;
	let dir: string;
	beforeAll(async () => {
		server = await ProviderServer.start();
		server.route("GET", "/api/tags", { headers: JSON_HEADERS, body: JSON.stringify({ models: [{ name: "llama3.2:latest" }] }) });
		server.route("POST", "/api/chat", streamScenario("ollama", ["Noted."]));
		dir = await mkdtemp(join(tmpdir(), "discover-chat-disk-"));
	});
	afterAll(async () => {
		await server.close();
		await rm(dir, { recursive: true, force: true });
	});

	const chatBodies = (): string[] => server.requests.filter((r) => r.path === "/api/chat").map((r) => r.body);

	it("a --note edited between two messages is sent as it is now; a deleted one is said, left out, and the chat goes on", async () => {
		const hours = join(dir, "Hours.md");
		const prices = join(dir, "Prices.md");
		await writeFile(hours, "The café opens on Sundays at nine.\n");
		await writeFile(prices, "Coffee costs three euros.\n");
		server.requests.length = 0;
		const chat = new LiveChat(["--model", "llama3.2", "--base-url", server.url, "--dir", join(dir, "home1"), "--note", hours, "--note", prices]);
		await chat.until("you> ");
		chat.send("When does it open?");
		await chat.until("you> ", 2);
		await edit(hours, "The café opens on Sundays at ten, from May.\n");
		chat.send("And now?");
		await chat.until("you> ", 3);
		await unlink(prices);
		chat.send("What does coffee cost?");
		await chat.until("you> ", 4);
		chat.end();
		expect(await chat.exited).toBe(0);

		const [first, second, third] = chatBodies();
		expect(first).toContain("Sundays at nine");
		expect(second).toContain("Sundays at ten, from May");
		expect(second).not.toContain("Sundays at nine");
		expect(chat.stderr).toContain(`(--note ${hours} changed on disk: sending it as it is now)`);
		expect(third).toContain("Sundays at ten, from May");
		expect(third).not.toContain("Coffee costs three euros");
		expect(chat.stderr).toContain(`(--note ${prices}: it was deleted or moved; messages are sent without it until it is back)`);
		expect(chat.stdout.split("Noted.").length - 1).toBe(3);
	}, 120_000);

	it("@vault searches the vault as it is at each message, and never an --exclude folder", async () => {
		const vault = join(dir, "vault");
		await mkdir(join(vault, "Private"), { recursive: true });
		await writeFile(join(vault, "Tea.md"), "Green tea costs two euros at the corner shop.\n");
		await writeFile(join(vault, "Private", "Tea prices.md"), "My tea budget: tea costs too much, secret.\n");
		server.requests.length = 0;
		const chat = new LiveChat(["--model", "llama3.2", "--base-url", server.url, "--dir", join(dir, "home2"), "--vault", vault, "--exclude", "Private"]);
		await chat.until("you> ");
		chat.send("What does tea cost? @vault");
		await chat.until("you> ", 2);
		await edit(join(vault, "Tea.md"), "Green tea now costs four euros at the corner shop.\n");
		await writeFile(join(vault, "Matcha.md"), "Matcha tea costs nine euros.\n");
		await writeFile(join(vault, "Private", "More tea.md"), "Tea costs: my private tea ledger.\n");
		chat.send("What does tea cost now? @vault");
		await chat.until("you> ", 3);
		chat.end();
		expect(await chat.exited).toBe(0);

		const [first, second] = chatBodies();
		expect(first).toContain("costs two euros");
		expect(second).toContain("costs four euros");
		expect(second).not.toContain("costs two euros");
		expect(second).toContain("Matcha tea costs nine euros");
		for (const body of [first, second]) expect(body).not.toMatch(/tea budget|private tea ledger/);
		expect(chat.stderr).toContain("Left out: Private.");
	}, 120_000);

	it("refuses a bad --exclude, and a --note that is not there, at start with a clear line", async () => {
		const vault = join(dir, "vault-bad");
		await mkdir(vault, { recursive: true });
		const outside = await runChat(["--model", "llama3.2", "--base-url", server.url, "--vault", vault, "--exclude", "../elsewhere"], "");
		expect(outside.code).toBe(2);
		expect(outside.stderr).toContain(`--exclude "../elsewhere" leaves the vault ("..")`);
		const missing = join(dir, "Nowhere.md");
		const run = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", join(dir, "home3"), "--note", missing], "hi\n");
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(`--note ${missing}: there is no such file.`);
		const typo = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", join(dir, "home4"), "--vault", vault, "--exclude", "Privat"], "");
		expect(typo.code).toBe(0);
		expect(typo.stderr).toContain("warning: --exclude Privat: there is no such folder");
	}, 120_000);
});
