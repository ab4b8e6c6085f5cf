// In the terminal chat, a symlinked --vault defeated the chats-folder fence
// (the chats folder, given by its real path, looked like a folder outside the vault). The vault root
// is resolved once to its real path and every comparison is between real paths; links inside the
// vault are never followed. Real symbolic links in a temporary folder.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chatsFolderIn, openTerminalTools, type TerminalTools } from "../../scripts/chatTools";

let root: string;
let real: string;
let link: string;
const CHAT = "# A saved chat\n";
const AGENT = "---\nname: Default\n---\nAnswer.\n";

beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), "discover-symlinks-"));
	real = join(root, "real-vault");
	link = join(root, "vault-link");
	await mkdir(join(real, "Chats"), { recursive: true });
	await mkdir(join(real, "Discover", "Agents"), { recursive: true });
	await mkdir(join(real, "Notes"));
	await mkdir(join(root, "outside"));
	await writeFile(join(real, "Chats", "old.md"), CHAT);
	await writeFile(join(real, "Discover", "Agents", "Default.md"), AGENT);
	await writeFile(join(real, "Notes", "Plan.md"), "Plan.\n");
	await writeFile(join(root, "outside", "Secret.md"), "outside\n");
	await symlink(real, link, "dir");
	// Links inside the vault: one into the chats folder, one out of the vault.
	await symlink(join(real, "Chats"), join(real, "Notes", "chat-link"), "dir");
	await symlink(join(root, "outside"), join(real, "Out"), "dir");
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

const io = { line: () => undefined, question: () => Promise.resolve("y") };
const run = (tools: TerminalTools, name: string, args: Record<string, unknown>): Promise<string> => {
	const tool = tools.tools.find((t) => t.name === name);
	if (!tool) throw new Error(`no tool ${name}`);
	return tool.run(args, { signal: new AbortController().signal });
};

describe("the terminal chat compares real paths", () => {
	it("a symlinked --vault still fences the chats folder given by its real path (and the other way round)", () => {
		expect(chatsFolderIn(link, join(real, "Chats"))).toBe("Chats");
		expect(chatsFolderIn(real, join(link, "Chats"))).toBe("Chats");
		expect(chatsFolderIn(link, join(link, "Chats", "new"))).toBe("Chats/new");
	});

	it("no write through a symlinked vault or a link inside it lands in the chats folder, the agents folder or outside the vault", async () => {
		const tools = await openTerminalTools({ vaultDir: link, chatsDir: join(real, "Chats"), io });
		await expect(run(tools, "edit_note", { path: "Chats/old.md", mode: "append", text: "x" })).rejects.toThrow("chats folder");
		await expect(run(tools, "create_note", { path: "chats/new.md", content: "x" })).rejects.toThrow("chats folder");
		await expect(run(tools, "create_note", { path: "Notes/chat-link/new.md", content: "x" })).rejects.toThrow("symbolic link");
		await expect(run(tools, "edit_note", { path: "Notes/chat-link/old.md", mode: "append", text: "x" })).rejects.toThrow();
		await expect(run(tools, "create_note", { path: "Out/new.md", content: "x" })).rejects.toThrow("symbolic link");
		await expect(run(tools, "edit_note", { path: "Discover/Agents/Default.md", mode: "append", text: "x" })).rejects.toThrow("agents folder");
		expect(await run(tools, "read_note", { path: "Discover/Agents/Default.md" })).toContain("Answer.");
		expect(await readFile(join(real, "Chats", "old.md"), "utf8")).toBe(CHAT);
		expect(await readFile(join(real, "Discover", "Agents", "Default.md"), "utf8")).toBe(AGENT);
		expect(existsSync(join(real, "Chats", "new.md"))).toBe(false);
		expect(existsSync(join(root, "outside", "new.md"))).toBe(false);
		// The tools still work where they may.
		expect(await run(tools, "create_note", { path: "Notes/Idea.md", content: "ok" })).toContain("Created");
	});

	it("property: random writes through the symlinked vault never change the chats, agents or outside folders", async () => {
		// The attack's setting: the vault by its link, the chats folder by its real path.
		const tools = await openTerminalTools({ vaultDir: link, chatsDir: join(real, "Chats"), io });
		const exact = fc.constantFrom(["Chats"], ["Discover", "Agents"], ["Notes", "chat-link"], ["Out"]);
		const seg = fc.constantFrom("Chats", "chats.", "CHATS ", "Discover", "discover", "Agents", "agents.", "Notes", "chat-link", "Out", "..", ".", "con", "x\u202e", "a");
		const pathArb = fc.oneof(exact, fc.array(seg, { minLength: 1, maxLength: 4 })).map((s) => `${s.join("/")}/n.md`);
		await fc.assert(
			fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), pathArb), { minLength: 1, maxLength: 6 }), async (calls) => {
				for (const [create, path] of calls) {
					const args = create ? { path, content: "x" } : { path, mode: "append", text: "x" };
					await run(tools, create ? "create_note" : "edit_note", args).catch(() => undefined);
				}
				expect(await readFile(join(real, "Chats", "old.md"), "utf8")).toBe(CHAT);
				expect(await readFile(join(real, "Discover", "Agents", "Default.md"), "utf8")).toBe(AGENT);
				expect(existsSync(join(real, "Chats", "n.md"))).toBe(false);
				expect(existsSync(join(real, "Discover", "Agents", "n.md"))).toBe(false);
				expect(existsSync(join(root, "outside", "n.md"))).toBe(false);
				expect(existsSync(join(root, "n.md"))).toBe(false);
			}),
			{ numRuns: 60 },
		);
	});
});
