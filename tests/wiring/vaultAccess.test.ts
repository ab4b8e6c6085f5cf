// @vitest-environment happy-dom
// The vault tools over Obsidian's API (src/wiring/vaultAccess.ts), on the in-memory runtime.
import { describe, expect, it } from "vitest";
import { NoteIndex } from "../../src/context/NoteIndex";
import { createVaultTools } from "../../src/tools";
import { DEFAULT_SETTINGS } from "../../src/settings/settings";
import type { Tool } from "../../src/tools/types";
import type { IndexState } from "../../src/wiring/noteIndexService";
import { createObsidianVaultTools, obsidianVaultAccess, tagsFromCache } from "../../src/wiring/vaultAccess";
import { asObsidianApp, createTestApp, flush, openNote } from "../obsidian/harness";

const FILES = {
	"Projects/Plan.md": "# Plan\n#project\nThe budget is 4,000 euros.\n",
	"Projects/Other.md": "---\ntags: [project/beta, draft]\n---\nOther\n",
	"Discover/Chats/chat.md": "a chat",
};

async function setup(opts: { index?: NoteIndex } = {}) {
	const app = await createTestApp({ files: FILES, hiddenFiles: { ".obsidian/app.json": "{}" } });
	await flush();
	const access = obsidianVaultAccess(asObsidianApp(app), { index: () => opts.index });
	const { tools, changes } = createVaultTools(access, { chatsFolder: () => "Discover/Chats", excludedFolders: () => [] });
	const run = (name: string, args: Record<string, unknown>, callId?: string): Promise<string> => {
		const tool = tools.find((t) => t.name === name);
		if (!tool) throw new Error(name);
		return tool.run(args, { signal: new AbortController().signal, callId });
	};
	return { app, access, tools, changes, run };
}

describe("VaultAccess over Obsidian", () => {
	it("lists Markdown notes with size, mtime and tags from the metadata cache, inline and frontmatter", async () => {
		const { access } = await setup();
		const notes = access.listNotes().sort((a, b) => a.path.localeCompare(b.path));
		expect(notes.map((n) => n.path)).toEqual(["Discover/Chats/chat.md", "Projects/Other.md", "Projects/Plan.md"]);
		expect(notes[2]).toMatchObject({ size: new TextEncoder().encode(FILES["Projects/Plan.md"]).length, tags: ["project"] });
		expect(notes[1]?.tags).toEqual(["project/beta", "draft"]);
		expect(tagsFromCache(null)).toEqual([]);
		expect(tagsFromCache({ frontmatter: { tags: "a, b" }, tags: [{ tag: "#a", position: { start: { line: 0, col: 0, offset: 0 }, end: { line: 0, col: 2, offset: 2 } } }] })).toEqual(["a", "b"]);
	});

	it("takes the config folder from the vault", async () => {
		const app = await createTestApp({ configDir: ".config-x" });
		expect(obsidianVaultAccess(asObsidianApp(app), { index: () => undefined }).configDir).toBe(".config-x");
	});

	it("list_notes by tag and read_note work through it; the chats folder stays out", async () => {
		const { run } = await setup();
		const listed = await run("list_notes", { tag: "project" });
		expect(listed).toContain("Projects/Plan.md");
		expect(listed).toContain("Projects/Other.md");
		expect(await run("list_notes", {})).not.toContain("Chats");
		expect(await run("read_note", { path: "Projects/Plan" })).toContain("4,000 euros");
		await expect(run("read_note", { path: ".obsidian/app.json" })).rejects.toThrow("hidden");
	});

	it("list_notes lists the vault's PDFs (read_note reads them through the app's pdf.js), the chats and excluded folders' left out", async () => {
		const { app } = await setup();
		const pdf = new TextEncoder().encode("%PDF-1.7\n% a PDF's bytes; list_notes does not open it\n").buffer;
		await app.vault.createFolder("Papers");
		await app.vault.createBinary("Papers/Report.pdf", pdf);
		await app.vault.createBinary("Papers/Scan.PDF", pdf);
		await app.vault.createBinary("Discover/Chats/Attached.pdf", pdf);
		await app.vault.createFolder("Private");
		await app.vault.createBinary("Private/Secret.pdf", pdf);
		const access = obsidianVaultAccess(asObsidianApp(app), { index: () => undefined });
		expect(access.listPdfs?.().map((f) => f.path).sort()).toEqual(["Discover/Chats/Attached.pdf", "Papers/Report.pdf", "Papers/Scan.PDF", "Private/Secret.pdf"]);
		const listNotes = createVaultTools(access, { chatsFolder: () => "Discover/Chats", excludedFolders: () => ["Private"] }).tools.find((t) => t.name === "list_notes");
		const out = (await listNotes?.run({}, { signal: new AbortController().signal })) ?? "";
		expect(out.split("\n")[0]).toBe("2 notes and 2 PDFs:");
		expect(out).toContain(`- Papers/Report.pdf (PDF, ${pdf.byteLength} B, modified `);
		expect(out).toContain("- Papers/Scan.PDF (PDF, ");
		expect(out).not.toContain("Attached.pdf");
		expect(out).not.toContain("Secret.pdf");
	});

	it("edits through vault.process, creates with missing folders, and reverts (a created note goes to the trash)", async () => {
		const { run, app, changes } = await setup();
		await run("edit_note", { path: "Projects/Plan.md", mode: "replace", old_text: "4,000", new_text: "5,000" }, "e1");
		const plan = app.vault.getFileByPath("Projects/Plan.md");
		expect(plan && (await app.vault.read(plan))).toContain("5,000 euros");
		await run("create_note", { path: "Ideas/2026/New.md", content: "# New\n" }, "c1");
		expect(app.vault.getFileByPath("Ideas/2026/New.md")).not.toBeNull();
		await changes.revert("c1");
		expect(app.vault.getFileByPath("Ideas/2026/New.md")).toBeNull();
		await changes.revert("e1");
		expect(plan && (await app.vault.read(plan))).toBe(FILES["Projects/Plan.md"]);
		await expect(run("create_note", { path: "Projects/Plan.md", content: "x" })).rejects.toThrow("already exists");
	});

	it("refuses a revert after the note changed in Obsidian", async () => {
		const { run, app, changes } = await setup();
		await run("edit_note", { path: "Projects/Plan.md", mode: "append", text: "more" }, "e1");
		const plan = app.vault.getFileByPath("Projects/Plan.md");
		if (!plan) throw new Error("no plan");
		await app.vault.modify(plan, "the person's rewrite");
		await expect(changes.revert("e1")).rejects.toThrow("was changed after this edit");
		expect(await app.vault.read(plan)).toBe("the person's rewrite");
	});

	it("gives the open note and the editor's selection", async () => {
		const { run, app } = await setup();
		expect(await run("get_active_note", {})).toBe("No note is open in the editor.");
		const view = await openNote(app, "Projects/Plan.md");
		view.editor.select(0, 6);
		const out = await run("get_active_note", {});
		expect(out).toContain("Selected text:\n# Plan");
		expect(out).toContain("Projects/Plan.md (lines 1-3 of 3)");
	});

	it("searches the note index once it is ready, and says when it is not", async () => {
		const index = new NoteIndex();
		index.upsert("Projects/Plan.md", FILES["Projects/Plan.md"]);
		index.upsert("Discover/Chats/chat.md", "budget talk");
		expect(await (await setup({ index })).run("search_notes", { query: "budget" })).toMatch(/^1 passage for "budget":\n\n1\. Projects\/Plan\.md/);
		await expect((await setup()).run("search_notes", { query: "budget" })).rejects.toThrow("off or still being built");
	});

	it("the plugin's tools keep out the chats folder and the folders left out of the index, as the settings say now", async () => {
		const app = await createTestApp({ files: { "Journal/day.md": "private day", "Work/a.md": "work", "AI/Chats/c.md": "chat" } });
		const settings = { ...DEFAULT_SETTINGS, sessionsFolder: "AI/Chats", indexExcludedFolders: ["Journal"] };
		const index = new NoteIndex();
		index.upsert("Journal/day.md", "private day");
		index.upsert("Work/a.md", "private work day");
		const service = { state: "ready" as IndexState, search: (q: string, o?: { limit?: number }) => index.search(q, o) };
		const { tools } = createObsidianVaultTools(asObsidianApp(app), () => settings, service);
		const run = (name: string, args: Record<string, unknown>): Promise<string> => (tools.find((t) => t.name === name) as Tool).run(args, { signal: new AbortController().signal });
		await expect(run("read_note", { path: "Journal/day.md" })).rejects.toThrow("excluded");
		await expect(run("read_note", { path: "AI/Chats/c.md" })).rejects.toThrow("chats folder");
		expect(await run("search_notes", { query: "private" })).not.toContain("Journal");
		settings.indexExcludedFolders = [];
		expect(await run("read_note", { path: "Journal/day.md" })).toContain("private day");
		service.state = "building";
		await expect(run("search_notes", { query: "private" })).rejects.toThrow("still being built");
	});
});
