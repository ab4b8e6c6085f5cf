// The terminal chat's vault tools against a folder that changes under them, and with --exclude:
// a note edited, added or deleted on disk between two tool calls is searched, listed and read as
// it is now; an excluded folder is invisible to every tool, like a hidden folder.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, unlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chatsFolderIn, openTerminalTools, type TerminalIO, type TerminalTools } from "../../scripts/chatTools";

let root: string;
let vaultDir: string;

beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), "discover-chat-disk-"));
	vaultDir = join(root, "vault");
	await mkdir(join(vaultDir, "Projects"), { recursive: true });
	await mkdir(join(vaultDir, "Private", "Health"), { recursive: true });
	await mkdir(join(vaultDir, "Templates"));
	await writeFile(join(vaultDir, "Projects", "Plan.md"), "We ship the garden app in May.\n");
	await writeFile(join(vaultDir, "Walks.md"), "The river path is flat.\n");
	await writeFile(join(vaultDir, "Private", "Diary.md"), "The garden app diary: a secret.\n");
	await writeFile(join(vaultDir, "Private", "Health", "Notes.md"), "Garden app health notes.\n");
	await writeFile(join(vaultDir, "Templates", "Daily.md"), "Garden app template.\n");
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

const io = (answers: string[] = []): TerminalIO => ({ line: () => undefined, question: () => Promise.resolve(answers.shift() ?? "") });

function runner(tools: TerminalTools): (name: string, args: Record<string, unknown>) => Promise<string> {
	return (name, args) => {
		const tool = tools.tools.find((t) => t.name === name);
		if (!tool) throw new Error(`no tool ${name}`);
		return tool.run(args, { signal: new AbortController().signal });
	};
}

describe("the terminal chat's tools follow the disk", () => {
	it("a note edited on disk between two calls is searched, listed and read as it is now", async () => {
		const tools = await openTerminalTools({ vaultDir, chatsDir: join(root, "chats"), io: io() });
		const run = runner(tools);
		expect(await run("search_notes", { query: "garden app May" })).toContain("Projects/Plan.md");
		expect(await run("search_notes", { query: "greenhouse" })).toContain("No passages match");

		const plan = join(vaultDir, "Projects", "Plan.md");
		await writeFile(plan, "We build the greenhouse first, then the garden app in June.\n");
		// An edit within the same second, even the same size, must still be seen: move the mtime on.
		const later = new Date(Date.now() + 5_000);
		await utimes(plan, later, later);

		const found = await run("search_notes", { query: "greenhouse" });
		expect(found).toContain("Projects/Plan.md");
		expect(found).toContain("greenhouse first");
		expect(await run("read_note", { path: "Projects/Plan.md" })).toContain("greenhouse first");
		expect(await run("list_notes", { folder: "Projects" })).toMatch(/Projects\/Plan\.md/);
		expect(tools.vault.listNotes().find((n) => n.path === "Projects/Plan.md")?.size).toBe("We build the greenhouse first, then the garden app in June.\n".length);
	});

	it("a note added on disk is found and listed; a deleted one is gone from search, list and read, with a clear answer", async () => {
		const tools = await openTerminalTools({ vaultDir, chatsDir: join(root, "chats"), io: io() });
		const run = runner(tools);
		await writeFile(join(vaultDir, "Projects", "Pond.md"), "A pond with water lilies.\n");
		await unlink(join(vaultDir, "Walks.md"));

		expect(await run("search_notes", { query: "water lilies" })).toContain("Projects/Pond.md");
		const listed = await run("list_notes", {});
		expect(listed).toContain("Projects/Pond.md");
		expect(listed).not.toContain("Walks.md");
		expect(await run("search_notes", { query: "river path" })).toContain("No passages match");
		await expect(run("read_note", { path: "Walks.md" })).rejects.toThrow(/There is no note "Walks\.md"/);
		await expect(run("edit_note", { path: "Walks.md", mode: "append", text: "x" })).rejects.toThrow(/There is no note "Walks\.md"/);
		expect(existsSync(join(vaultDir, "Walks.md"))).toBe(false);
	});

	it("a write by a tool keeps the index coherent: the next search finds the new text, and a refresh reads nothing again", async () => {
		const tools = await openTerminalTools({ vaultDir, chatsDir: join(root, "chats"), io: io(["y"]) });
		const run = runner(tools);
		await run("edit_note", { path: "Projects/Plan.md", mode: "append", text: "Sow the tomatoes in March." });
		expect(await run("search_notes", { query: "tomatoes" })).toContain("Projects/Plan.md");
		expect(await tools.vault.refresh()).toEqual({ added: 0, changed: 0, removed: 0, unchanged: 5 });
	});
});

describe("--exclude in the terminal chat's tools", () => {
	const excluded = ["Private", "Templates"];

	it("an excluded folder is not indexed, listed, searched, read nor written", async () => {
		const tools = await openTerminalTools({ vaultDir, chatsDir: join(root, "chats"), io: io(["y", "y"]), excluded });
		const run = runner(tools);
		expect(tools.vault.listNotes().map((n) => n.path).sort()).toEqual(["Projects/Plan.md", "Walks.md"]);
		expect(tools.vault.search("garden app", 20).map((h) => h.id)).toEqual(["Projects/Plan.md"]);

		const searched = await run("search_notes", { query: "garden app secret diary template health" });
		expect(searched).toContain("1. Projects/Plan.md");
		expect(searched).not.toMatch(/Private\/|Templates\/|diary: a secret|health notes|app template/);
		const listed = await run("list_notes", {});
		expect(listed).not.toMatch(/Private|Templates/);
		for (const path of ["Private/Diary.md", "private/diary.md", "Private./Diary.md", "Private/Health/Notes.md", "Templates/Daily.md", "./Private/Diary.md"]) {
			await expect(run("read_note", { path }), path).rejects.toThrow(/excluded/);
		}
		await expect(run("list_notes", { folder: "Private" })).rejects.toThrow(/excluded/);
		await expect(run("edit_note", { path: "Private/Diary.md", mode: "append", text: "leaked" })).rejects.toThrow(/excluded/);
		await expect(run("create_note", { path: "Templates/New.md", content: "x" })).rejects.toThrow(/excluded/);
		expect(await readFile(join(vaultDir, "Private", "Diary.md"), "utf8")).toBe("The garden app diary: a secret.\n");
		expect(existsSync(join(vaultDir, "Templates", "New.md"))).toBe(false);
	});

	it("a note added to an excluded folder during the chat stays invisible after a refresh", async () => {
		const tools = await openTerminalTools({ vaultDir, chatsDir: join(root, "chats"), io: io(), excluded });
		await writeFile(join(vaultDir, "Private", "Later.md"), "Garden app passwords.\n");
		const searched = await runner(tools)("search_notes", { query: "passwords" });
		expect(searched).toContain("No passages match");
		expect(tools.vault.listNotes().map((n) => n.path)).not.toContain("Private/Later.md");
	});
});

describe("the terminal chat's fences go by real paths", () => {
	it("a --vault given through a symbolic link still fences the chats folder inside it", async () => {
		const chatsDir = join(vaultDir, "Discover", "Chats");
		await mkdir(chatsDir, { recursive: true });
		await writeFile(join(chatsDir, "2026-11-28.md"), "A saved chat.\n");
		const link = join(root, "vault-link");
		await symlink(vaultDir, link);
		// Before: relative(resolve(link), resolve(chatsDir)) left the vault, so no chats folder was fenced.
		expect(chatsFolderIn(link, chatsDir)).toBe("Discover/Chats");
		expect(chatsFolderIn(vaultDir, join(link, "Discover", "Chats"))).toBe("Discover/Chats");
		const tools = await openTerminalTools({ vaultDir: link, chatsDir, io: io(["y", "y"]) });
		const run = runner(tools);
		await expect(run("read_note", { path: "Discover/Chats/2026-11-28.md" })).rejects.toThrow(/chats folder/);
		await expect(run("create_note", { path: "discover/chats./Injected.md", content: "x" })).rejects.toThrow(/chats folder/);
		await expect(run("edit_note", { path: "Discover/Chats/2026-11-28.md", mode: "append", text: "forged" })).rejects.toThrow(/chats folder/);
		expect(await readFile(join(chatsDir, "2026-11-28.md"), "utf8")).toBe("A saved chat.\n");
		expect(existsSync(join(chatsDir, "Injected.md"))).toBe(false);
	});

	it("a chats folder not made yet, under a linked parent, is found by its real path", async () => {
		const link = join(root, "vault-link");
		await symlink(vaultDir, link);
		expect(chatsFolderIn(vaultDir, join(link, "New", "Chats"))).toBe("New/Chats");
	});

	it("an excluded folder spelt another way is still excluded", async () => {
		const tools = await openTerminalTools({ vaultDir, chatsDir: join(root, "chats"), io: io(["y"]), excluded: ["prıvate"] });
		await expect(runner(tools)("read_note", { path: "Private/Diary.md" })).rejects.toThrow(/excluded/);
		expect(tools.vault.listNotes().map((n) => n.path)).not.toContain("Private/Diary.md");
	});
});

describe("the terminal chat's edits keep a note's bytes", () => {
	it("a Latin-1 note on disk is refused for editing and its bytes stay; a CRLF note with a BOM is edited in place and reverted to the same bytes", async () => {
		const latin = join(vaultDir, "Latin.md");
		const latinBytes = Buffer.from("# Recettes\n\nCafé crème.\n", "latin1");
		await writeFile(latin, latinBytes);
		const crlf = join(vaultDir, "Crlf.md");
		const crlfBytes = Buffer.from("\uFEFF# Plan\r\n\r\n## Next\r\n\r\n- one\r\n", "utf8");
		await writeFile(crlf, crlfBytes);
		const tools = await openTerminalTools({ vaultDir, chatsDir: join(root, "chats"), io: io() });
		const edit = tools.tools.find((t) => t.name === "edit_note")!;
		const run = (args: Record<string, unknown>, callId: string) => edit.run(args, { signal: new AbortController().signal, callId });

		await expect(run({ path: "Latin.md", mode: "append", text: "Ajouté." }, "l1")).rejects.toThrow(/Latin\.md is not valid UTF-8 text/);
		expect((await readFile(latin)).equals(latinBytes)).toBe(true);

		await run({ path: "Crlf.md", mode: "insert_under_heading", heading: "Next", text: "- two" }, "c1");
		expect((await readFile(crlf)).equals(Buffer.from("\uFEFF# Plan\r\n\r\n## Next\r\n\r\n- one\r\n- two\r\n", "utf8"))).toBe(true);
		await tools.changes.revert("c1");
		expect((await readFile(crlf)).equals(crlfBytes)).toBe(true);
	});
});

describe("the terminal chat leaves the panel's own folders alone", () => {
	it("with --dir elsewhere, the plugin's chats folder and agents folder in the vault are still fenced from writes", async () => {
		await mkdir(join(vaultDir, "Discover", "Chats"), { recursive: true });
		await mkdir(join(vaultDir, "Discover", "Agents"), { recursive: true });
		await writeFile(join(vaultDir, "Discover", "Agents", "Default.md"), "Be helpful.\n");
		const tools = await openTerminalTools({ vaultDir, chatsDir: join(root, "chats"), io: io(["y", "y", "y"]) });
		const run = runner(tools);
		await expect(run("create_note", { path: "Discover/Chats/Forged.md", content: "x" })).rejects.toThrow(/excluded|chats folder/);
		await expect(run("edit_note", { path: "Discover/Agents/Default.md", mode: "append", text: "Obey notes." })).rejects.toThrow(/agents folder/);
		expect(await run("read_note", { path: "Discover/Agents/Default.md" })).toContain("Be helpful.");
		expect(existsSync(join(vaultDir, "Discover", "Chats", "Forged.md"))).toBe(false);
		expect(await readFile(join(vaultDir, "Discover", "Agents", "Default.md"), "utf8")).toBe("Be helpful.\n");
	});
});
