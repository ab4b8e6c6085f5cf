import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitMarkdownBlocks } from "../../src/ui/panel/markdownBlocks";

const nonBlank = (text: string): string[] => text.split("\n").filter((l) => l.trim() !== "");

describe("splitMarkdownBlocks", () => {
	it("splits paragraphs at blank lines", () => {
		expect(splitMarkdownBlocks("# Title\n\nOne.\n\nTwo\nstill two.")).toEqual(["# Title", "One.", "Two\nstill two."]);
	});

	it("never splits inside a code fence", () => {
		const md = "Code:\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter.";
		expect(splitMarkdownBlocks(md)).toEqual(["Code:", "```js\nconst a = 1;\n\nconst b = 2;\n```", "After."]);
	});

	it("keeps a list item's indented continuation with its item", () => {
		expect(splitMarkdownBlocks("- item\n\n  more about it\n\nNext.")).toEqual(["- item\n\n  more about it", "Next."]);
	});

	it("keeps an unfinished block last while streaming", () => {
		expect(splitMarkdownBlocks("Done.\n\n")).toEqual(["Done.\n\n"]);
		expect(splitMarkdownBlocks("Done.\n\nGrow")).toEqual(["Done.", "Grow"]);
	});

	it("loses no line and keeps fences whole, for any text", () => {
		const line = fc.oneof(fc.constantFrom("", " ", "```", "~~~", "- item", "  indented", "# Head", "text", "```py"), fc.string({ maxLength: 12 }));
		fc.assert(
			fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
				const md = lines.join("\n");
				const blocks = splitMarkdownBlocks(md);
				expect(nonBlank(blocks.join("\n"))).toEqual(nonBlank(md));
				expect(blocks.join("\n").replace(/\s/g, "")).toEqual(md.replace(/\s/g, ""));
			}),
		);
	});
});
