import { describe, expect, it } from "vitest";
import type { Tool as CoreTool } from "../../src/core/types";
import { PAGE_CHARS } from "../../src/tools/pages";
import { toolbox } from "./support";

const PLAN = "# Plan\n\nIntro line.\n\n## Budget\n\nThe budget is 4,000 euros for the garden shed.\n\n## Next steps\n\n- order wood\n- call Anna\n";

describe("vault tools: the six tools", () => {
	it("offers six tools with JSON Schema object parameters, four read and two write", () => {
		const { tools } = toolbox({});
		// What the engine takes (ChatServiceOptions.tools): the tools are core Tools.
		const engineTools: CoreTool[] = tools;
		expect(engineTools).toHaveLength(6);
		expect(tools.map((t) => `${t.name}:${t.access}`)).toEqual(["search_notes:read", "read_note:read", "list_notes:read", "get_active_note:read", "create_note:write", "edit_note:write"]);
		for (const t of tools) expect(t.parameters.type).toBe("object");
		expect(tools.filter((t) => t.preview).map((t) => t.name)).toEqual(["create_note", "edit_note"]);
	});
});

describe("search_notes", () => {
	it("returns paths, titles and passages from the note index", async () => {
		const { run } = toolbox({ "Projects/Plan.md": PLAN, "Other.md": "Nothing about money here." });
		const out = await run("search_notes", { query: "budget shed" });
		expect(out).toContain("Projects/Plan.md (Plan)");
		expect(out).toContain("4,000 euros");
		expect(out).not.toContain("Other.md");
	});

	it("leaves out notes in the chats folder, excluded folders and the config folder", async () => {
		const { run } = toolbox({ "Discover/Chats/c.md": "zebra secrets", "Private/d.md": "zebra diary", "Open.md": "zebra facts" });
		const out = await run("search_notes", { query: "zebra" });
		expect(out).toContain("Open.md");
		expect(out).not.toContain("Chats");
		expect(out).not.toContain("Private");
	});

	it("says so when nothing matches, and refuses an empty query", async () => {
		const { run } = toolbox({ "a.md": "alpha" });
		expect(await run("search_notes", { query: "zebra" })).toContain("No passages match");
		await expect(run("search_notes", { query: " " })).rejects.toThrow("empty");
		await expect(run("search_notes", { query: "a", limit: 500 })).rejects.toThrow('"limit"');
	});
});

describe("read_note", () => {
	it("reads a note whole, with its line count; the .md may be left out", async () => {
		const { run } = toolbox({ "Projects/Plan.md": PLAN });
		const out = await run("read_note", { path: "Projects/Plan" });
		expect(out.startsWith("Projects/Plan.md (lines 1-12 of 12)")).toBe(true);
		expect(out).toContain("call Anna");
	});

	it("reads one section by heading, or a line range", async () => {
		const { run } = toolbox({ "Plan.md": PLAN });
		const section = await run("read_note", { path: "Plan.md", heading: "## budget" });
		expect(section).toContain("4,000 euros");
		expect(section).not.toContain("order wood");
		expect(section).toContain('section "## budget", lines 5-7');
		const lines = await run("read_note", { path: "Plan.md", from_line: 11, to_line: 12 });
		expect(lines).toContain("lines 11-12 of 12");
		expect(lines.split("\n\n")[1]).toBe("- order wood\n- call Anna");
	});

	it("names the headings when the one asked for is missing, and the lines when a range is past the end", async () => {
		const { run } = toolbox({ "Plan.md": PLAN });
		await expect(run("read_note", { path: "Plan.md", heading: "Costs" })).rejects.toThrow("Its headings: Plan; Budget; Next steps");
		await expect(run("read_note", { path: "Plan.md", from_line: 99 })).rejects.toThrow("has 12 lines");
	});

	it("pages a large note: page n of m, and how to get the next; pages join back to the note", async () => {
		const big = Array.from({ length: 3000 }, (_, i) => `Line ${i + 1} of a long log with some words.`).join("\n");
		const { run } = toolbox({ "Log.md": big });
		const first = await run("read_note", { path: "Log.md" });
		const m = /page 1 of (\d+)/.exec(first);
		expect(m).not.toBeNull();
		const pages = Number(m?.[1]);
		expect(pages).toBeGreaterThan(1);
		expect(first).toContain('"page": 2');
		const texts = [first.slice(first.indexOf("\n\n") + 2)];
		for (let p = 2; p <= pages; p++) {
			const out = await run("read_note", { path: "Log.md", page: p });
			expect(out.length).toBeLessThan(PAGE_CHARS + 300);
			texts.push(out.slice(out.indexOf("\n\n") + 2));
		}
		expect(texts.join("")).toBe(big);
		const second = await run("read_note", { path: "Log.md", page: 2 });
		const firstLine = Number(/lines (\d+)-/.exec(second)?.[1]);
		expect(texts[1]?.startsWith(`Line ${firstLine} of`)).toBe(true);
	});

	it("refuses missing notes, unsafe paths and other file types with clear errors", async () => {
		const { run } = toolbox({ "a.md": "x" });
		await expect(run("read_note", { path: "b.md" })).rejects.toThrow('There is no note "b.md"');
		await expect(run("read_note", { path: "../a.md" })).rejects.toThrow("leaves the vault");
		await expect(run("read_note", { path: ".obsidian/app.json" })).rejects.toThrow("hidden");
		await expect(run("read_note", { path: "Discover/Chats/x" })).rejects.toThrow("chats folder");
		await expect(run("read_note", { path: "Private/x.md" })).rejects.toThrow("excluded");
	});
});

describe("list_notes", () => {
	const notes = { "Projects/A.md": "# A #project", "Projects/B.md": "---\ntags: [project/alpha]\n---\nB", "Journal/today.md": "today", "Private/p.md": "#project", "Discover/Chats/x.md": "c" };

	it("lists a folder with sizes, and only reachable notes", async () => {
		const { run } = toolbox(notes);
		const out = await run("list_notes", { folder: "Projects" });
		expect(out).toContain("2 notes in Projects");
		expect(out).toMatch(/- Projects\/A\.md \(12 B, modified /);
		expect(out).not.toContain("Journal");
		const all = await run("list_notes", {});
		expect(all).toContain("3 notes");
		expect(all).not.toContain("Private");
		expect(all).not.toContain("Chats");
	});

	it("lists by tag, sub-tags included", async () => {
		const { run } = toolbox(notes);
		const out = await run("list_notes", { tag: "#project" });
		expect(out).toContain("Projects/A.md");
		expect(out).toContain("Projects/B.md");
		expect(out).not.toContain("Private");
	});

	it("lists the most recently modified first, up to the limit, saying more exist", async () => {
		const { run, vault } = toolbox(notes);
		vault.write("Journal/today.md", "edited");
		const out = await run("list_notes", { recent: true, limit: 1 });
		expect(out).toContain("most recently modified first");
		expect(out).toContain("the first 1");
		expect(out.split("\n")[1]).toContain("Journal/today.md");
	});

	it("refuses to list the config folder or an excluded folder", async () => {
		const { run } = toolbox(notes);
		await expect(run("list_notes", { folder: ".obsidian" })).rejects.toThrow("hidden");
		await expect(run("list_notes", { folder: "Private" })).rejects.toThrow("excluded");
	});
});

describe("get_active_note", () => {
	it("returns the open note with the selection", async () => {
		const { run, vault } = toolbox({ "Plan.md": PLAN });
		expect(await run("get_active_note", {})).toBe("No note is open in the editor.");
		vault.activeNote = { path: "Plan.md", selection: "call Anna" };
		const out = await run("get_active_note", {});
		expect(out).toContain("Selected text:\ncall Anna");
		expect(out).toContain("Plan.md (lines 1-12 of 12)");
	});

	it("refuses an open note in an excluded folder", async () => {
		const { run, vault } = toolbox({ "Private/p.md": "secret" });
		vault.activeNote = { path: "Private/p.md", selection: "" };
		await expect(run("get_active_note", {})).rejects.toThrow("excluded");
	});
});
