import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../src/tools/diff";
import { MAX_CHANGES } from "../../src/tools/changes";
import { toolbox } from "./support";

const PLAN = "# Plan\n\nIntro line.\n\n## Budget\n\nThe budget is 4,000 euros.\n\n## Next steps\n\n- order wood\n- call Anna\n";

/** Applies a unified diff to `before` (a minimal patcher, to check the preview's diff is right). */
function applyDiff(before: string, diff: string): string {
	// Lines only, as the patched text below: without a last newline (seed -1255123432: "c\n" against itself).
	if (diff === "") return before.replace(/\n$/, "");
	const a = before === "" ? [] : before.replace(/\n$/, "").split("\n");
	const out: string[] = [];
	let at = 0;
	for (const line of diff.split("\n").slice(2)) {
		const h = /^@@ -(\d+),(\d+) /.exec(line);
		if (h) {
			const start = Number(h[2]) === 0 ? Number(h[1]) : Number(h[1]) - 1;
			while (at < start) out.push(a[at++] ?? "");
			continue;
		}
		if (line.startsWith(" ")) {
			expect(a[at]).toBe(line.slice(1));
			out.push(a[at++] ?? "");
		} else if (line.startsWith("-")) {
			expect(a[at]).toBe(line.slice(1));
			at++;
		} else if (line.startsWith("+")) out.push(line.slice(1));
	}
	while (at < a.length) out.push(a[at++] ?? "");
	return out.join("\n");
}

describe("write preview diff", () => {
	it("shows a changed line with context and hunk header", () => {
		const d = unifiedDiff("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nd\nE\nf\ng\nh\n", "n.md");
		expect(d).toBe("--- a/n.md\n+++ b/n.md\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n");
		expect(unifiedDiff("same", "same", "n.md")).toBe("");
		expect(unifiedDiff("", "new\n", "n.md")).toBe("--- /dev/null\n+++ b/n.md\n@@ -0,0 +1,1 @@\n+new\n");
	});

	it("a diff applied to the text before gives the text after (lines)", () => {
		const lines = fc.array(fc.constantFrom("a", "b", "c", "", "# H", "x y"), { maxLength: 25 });
		fc.assert(
			fc.property(lines, lines, (x, y) => {
				const before = x.join("\n");
				const after = y.join("\n");
				expect(applyDiff(before, unifiedDiff(before, after, "n.md"))).toBe(after.replace(/\n$/, ""));
			}),
			{ numRuns: 500 },
		);
	});
});

describe("create_note", () => {
	it("previews then creates; the preview writes nothing", async () => {
		const { tool, run, vault } = toolbox({});
		const preview = await tool("create_note").preview?.({ path: "Ideas/New", content: "# New\n\nHello\n" });
		expect(preview).toMatchObject({ path: "Ideas/New.md", before: "", after: "# New\n\nHello\n" });
		expect(preview?.diff).toContain("+Hello");
		expect(vault.exists("Ideas/New.md")).toBe(false);
		expect(await run("create_note", { path: "Ideas/New", content: "# New\n\nHello\n" })).toBe("Created Ideas/New.md (3 lines).");
		expect(await vault.read("Ideas/New.md")).toBe("# New\n\nHello\n");
	});

	it("fails when the note exists, in the preview and the run, and leaves it alone", async () => {
		const { tool, run, vault } = toolbox({ "a.md": "keep" });
		await expect(tool("create_note").preview?.({ path: "a.md", content: "x" })).rejects.toThrow("already exists");
		await expect(run("create_note", { path: "a.md", content: "x" })).rejects.toThrow("already exists");
		expect(await vault.read("a.md")).toBe("keep");
	});

	it("never creates in the config, chats or excluded folders", async () => {
		const { run, vault } = toolbox({});
		for (const path of [".obsidian/plugins/evil/main.js", "Discover/Chats/fake.md", "Private/x.md", "../x.md"]) {
			await expect(run("create_note", { path, content: "x" })).rejects.toThrow();
		}
		expect(vault.files.size).toBe(0);
	});

	it("writes nothing once stopped", async () => {
		const { tool, vault } = toolbox({});
		const stop = new AbortController();
		stop.abort();
		await expect(tool("create_note").run({ path: "a.md", content: "x" }, { signal: stop.signal })).rejects.toThrow("Stopped");
		expect(vault.exists("a.md")).toBe(false);
	});
});

describe("edit_note", () => {
	it("replaces an exact unique passage, previewed first", async () => {
		const { tool, run, vault } = toolbox({ "Plan.md": PLAN });
		const args = { path: "Plan.md", mode: "replace", old_text: "4,000 euros", new_text: "5,000 euros" };
		const preview = await tool("edit_note").preview?.(args);
		expect(preview?.diff).toContain("-The budget is 4,000 euros.\n+The budget is 5,000 euros.");
		expect(await vault.read("Plan.md")).toBe(PLAN);
		expect(await run("edit_note", args)).toBe("Edited Plan.md: 1 line added, 1 removed.");
		expect(await vault.read("Plan.md")).toBe(PLAN.replace("4,000", "5,000"));
	});

	it("a missing passage is an error that shows the nearest text, and nothing is written", async () => {
		const { run, vault } = toolbox({ "Plan.md": PLAN });
		const err = run("edit_note", { path: "Plan.md", mode: "replace", old_text: "The budget is 4000 euro.", new_text: "x" });
		await expect(err).rejects.toThrow("was not found");
		await expect(err).rejects.toThrow("line 7: The budget is 4,000 euros.");
		expect(await vault.read("Plan.md")).toBe(PLAN);
	});

	it("an ambiguous passage is an error naming its lines", async () => {
		const { run } = toolbox({ "n.md": "- todo\n- done\n- todo\n" });
		await expect(run("edit_note", { path: "n.md", mode: "replace", old_text: "todo", new_text: "x" })).rejects.toThrow("occurs 2 times in n.md (at lines 1, 3)");
	});

	it("appends, and inserts at the end of a heading's section", async () => {
		const { run, vault } = toolbox({ "Plan.md": PLAN });
		await run("edit_note", { path: "Plan.md", mode: "insert_under_heading", heading: "Budget", text: "Paid so far: 1,000." });
		expect(await vault.read("Plan.md")).toContain("The budget is 4,000 euros.\nPaid so far: 1,000.\n\n## Next steps");
		await run("edit_note", { path: "Plan.md", mode: "append", text: "- sand the floor" });
		expect(await vault.read("Plan.md")).toMatch(/- call Anna\n\n- sand the floor\n$/);
	});

	it("a missing heading is an error listing the nearest and the note's headings", async () => {
		const { run } = toolbox({ "Plan.md": PLAN });
		await expect(run("edit_note", { path: "Plan.md", mode: "insert_under_heading", heading: "Next step", text: "x" })).rejects.toThrow("The nearest: ## Next steps");
	});

	it("refuses a bad mode, a missing note and an edit that changes nothing", async () => {
		const { run } = toolbox({ "a.md": "x" });
		await expect(run("edit_note", { path: "a.md", mode: "rewrite" })).rejects.toThrow('"mode" must be one of');
		await expect(run("edit_note", { path: "b.md", mode: "append", text: "y" })).rejects.toThrow("use create_note");
		await expect(run("edit_note", { path: "a.md", mode: "replace", old_text: "x", new_text: "x" })).rejects.toThrow("unchanged");
	});

	it("applies the edit to the note as it is when written, not as it was previewed", async () => {
		const { tool, run, vault } = toolbox({ "n.md": "one\ntwo\n" });
		const args = { path: "n.md", mode: "replace", old_text: "two", new_text: "TWO" };
		await tool("edit_note").preview?.(args);
		vault.write("n.md", "zero\none\ntwo\n");
		await run("edit_note", args);
		expect(await vault.read("n.md")).toBe("zero\none\nTWO\n");
	});
});

describe("revert", () => {
	it("restores the previous content while the note is unchanged since", async () => {
		const { run, changes, vault } = toolbox({ "Plan.md": PLAN });
		await run("edit_note", { path: "Plan.md", mode: "append", text: "more" }, "call-1");
		expect(changes.get("call-1")).toMatchObject({ path: "Plan.md", before: PLAN, tool: "edit_note" });
		expect(await changes.revert("call-1")).toContain("earlier text again");
		expect(await vault.read("Plan.md")).toBe(PLAN);
		await expect(changes.revert("call-1")).rejects.toThrow("can no longer be reverted");
	});

	it("refuses after the note changed since, and keeps the person's edit", async () => {
		const { run, changes, vault } = toolbox({ "Plan.md": PLAN });
		await run("edit_note", { path: "Plan.md", mode: "append", text: "more" }, "call-1");
		const edited = `${await vault.read("Plan.md")}mine\n`;
		vault.write("Plan.md", edited);
		await expect(changes.revert("call-1")).rejects.toThrow("was changed after this edit");
		expect(await vault.read("Plan.md")).toBe(edited);
	});

	it("reverting a created note moves it to the trash, unless changed since", async () => {
		const { run, changes, vault } = toolbox({});
		await run("create_note", { path: "a.md", content: "hi" }, "c1");
		await run("create_note", { path: "b.md", content: "hi" }, "c2");
		vault.write("b.md", "hi, changed");
		await changes.revert("c1");
		expect(vault.trashed).toEqual(["a.md"]);
		await expect(changes.revert("c2")).rejects.toThrow("was changed");
		expect(vault.exists("b.md")).toBe(true);
	});

	it("files changes without a call id under their own, and keeps only the latest", async () => {
		const { run, changes } = toolbox({ "n.md": "" });
		for (let i = 0; i < MAX_CHANGES + 5; i++) await run("edit_note", { path: "n.md", mode: "append", text: `line ${i}` });
		expect(changes.list()).toHaveLength(MAX_CHANGES);
		expect(changes.list()[0]?.id).toBe("change-6");
	});

	it("an id filed twice never takes over the earlier change: Revert by it undoes the write it named", async () => {
		const { run, changes, vault } = toolbox({ "A.md": "a\n", "B.md": "b\n" });
		await run("edit_note", { path: "A.md", mode: "append", text: "more" }, "call_0");
		await run("edit_note", { path: "B.md", mode: "append", text: "more" }, "call_0");
		expect(changes.get("call_0")?.path).toBe("A.md");
		await changes.revert("call_0");
		expect(await vault.read("A.md")).toBe("a\n");
		expect(await vault.read("B.md")).toBe("b\n\nmore\n");
		// The second write is still there to revert, under its journal id.
		await changes.revert(changes.list().find((c) => c.path === "B.md")!.id);
		expect(await vault.read("B.md")).toBe("b\n");
	});
});

describe("edits on a vault without bytes", () => {
	it("a vault that cannot hand over bytes: a note whose text holds U+FFFD (a failed decode) is refused, nothing written", async () => {
		const { vault, run } = toolbox({ "Bad.md": "Caf\uFFFD cr\uFFFDme\n", "Good.md": "Café\n" });
		const bare = vault as { readBytes?: unknown };
		bare.readBytes = undefined;
		await expect(run("edit_note", { path: "Bad.md", mode: "append", text: "x" })).rejects.toThrow(/not valid UTF-8/);
		expect(await vault.read("Bad.md")).toBe("Caf\uFFFD cr\uFFFDme\n");
		await expect(run("edit_note", { path: "Good.md", mode: "append", text: "x" })).resolves.toMatch(/^Edited Good\.md/);
	});

	it("the preview of a CRLF note with a BOM shows its lines without CR or BOM; an LF note shows a stray CR the edit brings", async () => {
		const { tool } = toolbox({ "C.md": "\uFEFF# C\r\n\r\nold\r\n", "L.md": "# L\n\nold\n" });
		const crlf = await tool("edit_note").preview!({ path: "C.md", mode: "replace", old_text: "old", new_text: "new" });
		expect(crlf).toMatchObject({ before: "# C\n\nold\n", after: "# C\n\nnew\n" });
		expect(crlf.diff).not.toMatch(/[\r\uFEFF]/);
		const lf = await tool("edit_note").preview!({ path: "L.md", mode: "replace", old_text: "old", new_text: "new\r" });
		expect(lf.diff).toContain("+new\r");
	});
});
