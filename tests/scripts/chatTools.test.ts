// The terminal chat's --tools in-process: the six vault tools over a folder on disk, a stub model
// driving search → read → edit, and the "Allow?" question answered through an injected input.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChatService, MemoryFileStore, SessionManager, type ChatEvent, type ToolCall } from "../../src/headless";
import { ALLOW_PROMPT, NOT_INTERACTIVE_NOTE, chatsFolderIn, formatCard, openTerminalTools, parseAllowAnswer, visible, type TerminalIO } from "../../scripts/chatTools";
import { ScriptedToolAdapter, type ScriptStep } from "../support/toolScript";

let root: string;
let vaultDir: string;
const PLAN = "# Plan\n\nWe ship the garden app in May.\n";

beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), "discover-chat-tools-"));
	vaultDir = join(root, "vault");
	await mkdir(join(vaultDir, "Projects"), { recursive: true });
	await mkdir(join(vaultDir, ".obsidian"));
	await mkdir(join(vaultDir, "Chats"));
	await writeFile(join(vaultDir, "Projects", "Plan.md"), PLAN);
	await writeFile(join(vaultDir, "Walks.md"), "The river path is flat.\n");
	await writeFile(join(vaultDir, ".obsidian", "secret.md"), "garden app secret settings\n");
	await writeFile(join(vaultDir, "Chats", "old.md"), "garden app chat log\n");
	await writeFile(join(root, "outside.md"), "garden app outside the vault\n");
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

/** A terminal whose lines are recorded and whose answers are given in order. */
function fakeTerminal(answers: string[] | undefined): TerminalIO & { lines: string[]; asked: string[] } {
	const lines: string[] = [];
	const asked: string[] = [];
	return {
		lines,
		asked,
		line: (text) => void lines.push(text),
		question: answers
			? (prompt) => {
					asked.push(prompt);
					return Promise.resolve(answers.shift() ?? "");
				}
			: undefined,
	};
}

const EDIT: ToolCall = { id: "e1", name: "edit_note", arguments: { path: "Projects/Plan.md", mode: "replace", old_text: "in May", new_text: "in June" } };
const ROUND: ScriptStep[] = [
	{ text: "Looking.", calls: [{ id: "s1", name: "search_notes", arguments: { query: "garden app" } }] },
	{ calls: [{ id: "r1", name: "read_note", arguments: { path: "Projects/Plan.md" } }] },
	{ calls: [EDIT] },
	{ text: "Done." },
];

async function chatRound(io: TerminalIO): Promise<{ chat: ChatService; adapter: ScriptedToolAdapter; tools: Awaited<ReturnType<typeof openTerminalTools>> }> {
	const tools = await openTerminalTools({ vaultDir, chatsDir: join(vaultDir, "Chats"), io });
	const adapter = new ScriptedToolAdapter((_req, i) => ROUND[i] ?? { text: "Done." });
	const chat = new ChatService({
		adapter,
		sessions: new SessionManager(new MemoryFileStore()),
		tools: tools.tools,
		approve: tools.approve,
		onEvent: (e: ChatEvent) => (e.type === "tool" ? tools.showCard(e.card) : undefined),
	});
	await chat.sendMessage("Move the garden app to June.");
	return { chat, adapter, tools };
}

describe("the terminal chat's vault tools", () => {
	it("search → read → edit on a folder: reads run unasked, the edit prints its diff and asks, y writes the note on disk, and Revert restores it", async () => {
		const io = fakeTerminal(["y"]);
		const { chat, tools } = await chatRound(io);

		expect(io.asked).toEqual([ALLOW_PROMPT]);
		expect(io.lines).toContain("edit_note wants to change Projects/Plan.md:");
		expect(io.lines).toContain("  -We ship the garden app in May.");
		expect(io.lines).toContain("  +We ship the garden app in June.");
		// Cards, compactly: the search and the read ran and are done, the edit asked, then ran.
		expect(io.lines.some((l) => l.startsWith("  [tool] search_notes done: ") && l.includes("Projects/Plan.md"))).toBe(true);
		expect(io.lines.some((l) => l.startsWith("  [tool] read_note done: "))).toBe(true);
		const asked = io.lines.indexOf("edit_note wants to change Projects/Plan.md:");
		const ran = io.lines.findIndex((l) => l.startsWith("  [tool] edit_note done: "));
		expect(asked).toBeGreaterThan(-1);
		expect(ran).toBeGreaterThan(asked);
		expect(await readFile(join(vaultDir, "Projects", "Plan.md"), "utf8")).toBe("# Plan\n\nWe ship the garden app in June.\n");
		expect(chat.messages.at(-1)?.content).toBe("Done.");

		// Only notes inside the vault, outside .obsidian and the chats folder, were found.
		const searched = chat.messages.find((m) => m.role === "tool")?.content ?? "";
		expect(searched).toContain("Projects/Plan.md");
		expect(searched).not.toMatch(/secret|chat log|outside the vault/);

		// Filed under the engine's id for the call, not the server's "e1".
		const e1 = chat.messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.serverId === "e1")!.id;
		await tools.changes.revert(e1);
		expect(await readFile(join(vaultDir, "Projects", "Plan.md"), "utf8")).toBe(PLAN);
	});

	it("n declines, and free text declines with that reason, which the model is told; the note is unchanged", async () => {
		for (const [answer, told] of [
			["n", "The person declined this call."],
			["keep May, the team is away in June", "The person declined: keep May, the team is away in June"],
		] as const) {
			const io = fakeTerminal([answer]);
			const { adapter } = await chatRound(io);
			expect(io.asked).toEqual([ALLOW_PROMPT]);
			const lastPrompt = adapter.chatRequests.at(-1)?.messages ?? [];
			expect(lastPrompt.some((m) => m.role === "tool" && m.content.includes(told))).toBe(true);
			expect(await readFile(join(vaultDir, "Projects", "Plan.md"), "utf8")).toBe(PLAN);
		}
	});

	it("without a terminal to ask on, a write is declined with a printed note and the model is told why", async () => {
		const io = fakeTerminal(undefined);
		const { adapter } = await chatRound(io);
		expect(io.lines).toContain(NOT_INTERACTIVE_NOTE);
		expect(io.lines).toContain("  +We ship the garden app in June.");
		const lastPrompt = adapter.chatRequests.at(-1)?.messages ?? [];
		expect(lastPrompt.some((m) => m.role === "tool" && m.content.includes("The person declined: the terminal chat cannot ask"))).toBe(true);
		expect(await readFile(join(vaultDir, "Projects", "Plan.md"), "utf8")).toBe(PLAN);
	});

	it("never reaches outside the folder, into .obsidian, the chats folder, or through a symbolic link", async () => {
		await symlink(root, join(vaultDir, "Escape"));
		const tools = await openTerminalTools({ vaultDir, chatsDir: join(vaultDir, "Chats"), io: fakeTerminal(["y"]) });
		const run = (name: string, args: Record<string, unknown>): Promise<string> => {
			const tool = tools.tools.find((t) => t.name === name);
			if (!tool) throw new Error(name);
			return tool.run(args, { signal: new AbortController().signal });
		};
		for (const path of ["../outside.md", join(root, "outside.md"), ".obsidian/secret.md", "Chats/old.md", "Escape/outside.md", "Escape/vault/Walks.md"]) {
			await expect(run("read_note", { path }), path).rejects.toThrow();
		}
		await expect(run("create_note", { path: "Escape/new.md", content: "x" })).rejects.toThrow();
		await expect(run("create_note", { path: "Chats/new.md", content: "x" })).rejects.toThrow();
		expect(existsSync(join(root, "new.md"))).toBe(false);
		expect(existsSync(join(vaultDir, "Chats", "new.md"))).toBe(false);
		const listed = await run("list_notes", {});
		expect(listed).toContain("Projects/Plan.md");
		expect(listed).not.toMatch(/secret|old\.md|outside|Escape/);
	});

	it("a created note is written inside the folder and reverted to the vault's .trash", async () => {
		const tools = await openTerminalTools({ vaultDir, chatsDir: join(root, "chats"), io: fakeTerminal(["y"]) });
		const create = tools.tools.find((t) => t.name === "create_note");
		await create?.run({ path: "Ideas/Pond", content: "A pond.\n" }, { signal: new AbortController().signal, callId: "c1" });
		expect(await readFile(join(vaultDir, "Ideas", "Pond.md"), "utf8")).toBe("A pond.\n");
		expect(tools.vault.listNotes().map((n) => n.path)).toContain("Ideas/Pond.md");
		await tools.changes.revert("c1");
		expect(existsSync(join(vaultDir, "Ideas", "Pond.md"))).toBe(false);
		expect(await readFile(join(vaultDir, ".trash", "Ideas", "Pond.md"), "utf8")).toBe("A pond.\n");
	});

	it("a diff cannot hide a line from the person: escape sequences and bidirectional overrides in a note print as codes", async () => {
		// "\x1b[1A\x1b[2K" would move up and erase the line above on a terminal: the removed line.
		const io = fakeTerminal(["n"]);
		const tools = await openTerminalTools({ vaultDir, chatsDir: join(root, "chats"), io });
		const edit = tools.tools.find((t) => t.name === "edit_note");
		if (!edit) throw new Error("no edit_note");
		const call: ToolCall = { id: "x", name: "edit_note", arguments: { path: "Walks.md", mode: "append", text: "\x1b[1A\x1b[2KHarmless line \u202Etxt.exe\r" } };
		await tools.approve(call, edit);
		const printed = io.lines.join("\n");
		for (const raw of ["\u001b", "\u202e", "\r"]) expect(printed).not.toContain(raw);
		expect(printed).toContain("\\u{1b}[1A\\u{1b}[2KHarmless line \\u{202e}txt.exe\\u{d}");
		expect(visible("tab\tstays")).toBe("tab\tstays");
	});

	it("reads the answer to Allow? as y once, Enter or n a plain denial, other text a denial with that reason", () => {
		expect(parseAllowAnswer("y")).toEqual({ kind: "once" });
		expect(parseAllowAnswer(" YES ")).toEqual({ kind: "once" });
		expect(parseAllowAnswer("")).toEqual({ kind: "deny" });
		expect(parseAllowAnswer("n")).toEqual({ kind: "deny" });
		expect(parseAllowAnswer("not that note")).toEqual({ kind: "deny", reason: "not that note" });
	});

	it("fences off the chats folder only when it is inside the vault, and refuses the vault itself as the chats folder", () => {
		expect(chatsFolderIn("/v", "/v/Discover/Chats")).toBe("Discover/Chats");
		expect(chatsFolderIn("/v", "/elsewhere")).toBe("");
		expect(chatsFolderIn("/v", "/v2")).toBe("");
		expect(() => chatsFolderIn("/v", "/v/")).toThrow(/--dir is the --vault folder/);
	});

	it("prints a card as one short line, and nothing while arguments stream", () => {
		expect(formatCard({ id: "a", index: 0, round: 1, name: "read_note", state: "input", argumentsText: '{"pa' })).toBeUndefined();
		const long = formatCard({ id: "a", index: 0, round: 1, name: "read_note", state: "done", result: "x\n".repeat(500) }) ?? "";
		expect(long.length).toBeLessThan(140);
		expect(long).not.toContain("\n");
		expect(formatCard({ id: "a", index: 0, round: 1, name: "edit_note", state: "failed", error: "The person declined this call." })).toBe("  [tool] edit_note failed: The person declined this call.");
	});
});
