// The runtime's note parser places headings, tags and the front matter by line and column exactly as
// counting the newlines before each offset does (its line index must agree with the plain definition).
import fc from "fast-check";
import type * as O from "obsidian";
import { describe, expect, it } from "vitest";
import { parseMetadata } from "./metadataCache";

/** The plain definition: the newlines before `offset`, and the characters since the last one. */
function plainLoc(text: string, offset: number): O.Loc {
	const before = text.slice(0, offset);
	return { line: before.split("\n").length - 1, col: offset - (before.lastIndexOf("\n") + 1), offset };
}

function positionsOf(cache: O.CachedMetadata): O.Pos[] {
	return [...(cache.frontmatterPosition ? [cache.frontmatterPosition] : []), ...(cache.headings ?? []).map((h) => h.position), ...(cache.tags ?? []).map((t) => t.position)];
}

const LINES = ["# Title", "## Sub #tag", "text with #a/b and #c-d", "", "  indented #x", "```", "#notatag inside?", "plain words", "### Deep\r", "#1 not a tag", "\t#tab-tag"];

describe("parseMetadata positions", () => {
	it("places each heading, tag and the front matter where it is", () => {
		const text = "---\ntags: [a]\n---\n# One\n\nsome #tag here\n## Two\n";
		const cache = parseMetadata(text);
		expect(cache.frontmatterPosition?.end).toEqual({ line: 3, col: 0, offset: 18 });
		expect(cache.headings?.map((h) => [h.heading, h.position.start.line, h.position.end.col])).toEqual([["One", 3, 5], ["Two", 6, 6]]);
		expect(cache.tags?.map((t) => [t.tag, t.position.start])).toEqual([["#tag", { line: 5, col: 5, offset: 30 }]]);
	});

	it("agrees with counting newlines, on any text of headings, tags, code fences and front matter", () => {
		fc.assert(
			fc.property(fc.boolean(), fc.array(fc.constantFrom(...LINES), { maxLength: 40 }), (front, lines) => {
				const text = (front ? "---\ntitle: x\n---\n" : "") + lines.join("\n");
				const found = positionsOf(parseMetadata(text));
				for (const p of found) {
					expect(p.start).toEqual(plainLoc(text, p.start.offset));
					expect(p.end).toEqual(plainLoc(text, p.end.offset));
				}
				// Headings and tags are found at all (the property would pass vacuously otherwise).
				if (lines.includes("# Title") && !lines.includes("```")) expect(found.length).toBeGreaterThan(0);
			}),
			{ numRuns: 300 },
		);
	});
});
