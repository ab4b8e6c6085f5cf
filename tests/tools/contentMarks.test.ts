// What in a write's text another plugin may run: Templater commands, DataviewJS
// blocks and inline queries, obsidian:// URIs; found in the call's text and in the changed part
// of the note, and nowhere else.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changedMarks, marksIn, writeMarks } from "../../src/tools/contentMarks";

describe("content marks", () => {
	it("finds each kind, in any case spelling, and nothing in plain text", () => {
		expect(marksIn("<%* await tp.system.prompt('x') %>")).toEqual(["templater"]);
		expect(marksIn("<% tp.date.now() ")).toEqual(["templater"]);
		expect(marksIn("a\n```dataviewjs\ndv.list([1])\n```\n")).toEqual(["dataviewjs"]);
		expect(marksIn("~~~~ DataviewJS\ndv.list([1])\n~~~~")).toEqual(["dataviewjs"]);
		expect(marksIn("count: `$= dv.pages().length`")).toEqual(["dataviewjs"]);
		expect(marksIn("[go](OBSIDIAN://advanced-uri?commandid=app:delete-file)")).toEqual(["obsidianUri"]);
		expect(marksIn("<%x%> ```dataviewjs\n``` obsidian://x")).toEqual(["templater", "obsidianUri"]);
		expect(marksIn("50% < 60%, ```js\ncode\n```, `= this.file.name`, https://obsidian.md, a dataview query")).toEqual([]);
	});

	it("an edit is marked when its change touches a command, even one assembled from pieces already in the note", () => {
		expect(changedMarks("a <\nb", "a <% tR %>\nb")).toEqual(["templater"]);
		// Changing a line inside an existing dataviewjs block changes the code Dataview runs.
		expect(changedMarks("```dataviewjs\ndv.list(1)\n```\n", "```dataviewjs\ndv.list(2)\n```\n")).toEqual(["dataviewjs"]);
		// An untouched command elsewhere in the note does not mark an unrelated edit.
		expect(changedMarks("<% tp.file.title %>\n\nfirst\n\nlast\n", "<% tp.file.title %>\n\nfirst\n\nlast, edited\n")).toEqual([]);
		expect(changedMarks("same", "same")).toEqual([]);
	});

	it("looks at every text argument of the call and at the preview", () => {
		expect(writeMarks({ path: "a.md", mode: "replace", old_text: "x", new_text: "obsidian://open" })).toEqual(["obsidianUri"]);
		expect(writeMarks({ path: "a.md", nested: { deep: ["<% x %>"] } })).toEqual(["templater"]);
		expect(writeMarks({ path: "a.md", text: "%> tail" }, { before: "<% head ", after: "<% head %> tail" })).toEqual(["templater"]);
		expect(writeMarks({ path: "a.md", text: "plain" }, { before: "", after: "plain" })).toEqual([]);
	});

	it("(property) any text holding a marker, anywhere in a new note, is marked", () => {
		const marker = fc.constantFrom("<%", "<%*", "\n```dataviewjs\n", "`$=", "obsidian://");
		fc.assert(
			fc.property(fc.string(), marker, fc.string(), (before, m, after) => {
				const text = before + m + after;
				expect(writeMarks({ path: "n.md", content: text }, { before: "", after: text }).length).toBeGreaterThan(0);
			}),
		);
	});
});
