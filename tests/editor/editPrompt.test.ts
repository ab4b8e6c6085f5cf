import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editMessage, neutralMarkers, noteAround, proposalFrom, restoredMarkers } from "../../src/editor/editPrompt";

describe("the edit's prompt and answer", () => {
	it("sends the instruction and the whole selection between markers", () => {
		expect(editMessage(" tighten this ", "A\nB\n", "Notes/Plan.md")).toBe("Instruction: tighten this\n\nNote: Notes/Plan.md\n\n<selection>\nA\nB\n\n</selection>");
	});

	it("takes a fence or the markers off the answer, and keeps the selection's final line break", () => {
		expect(proposalFrom("```markdown\nThe slow fox.\n```", "The quick fox.\n")).toBe("The slow fox.\n");
		expect(proposalFrom("<selection>\nThe slow fox.\n</selection>", "The quick fox.")).toBe("The slow fox.");
		expect(proposalFrom("The slow fox.\n\n", "The quick fox.")).toBe("The slow fox.");
		// A selection that is itself a code block keeps its fence.
		expect(proposalFrom("```js\nlet b = 2;\n```\n", "```js\nlet a = 1;\n```\n")).toBe("```js\nlet b = 2;\n```\n");
	});

	it("leaves a plain answer as it is (but for trailing space)", () => {
		fc.assert(
			fc.property(fc.string().filter((s) => !/^\s|\s$|```|~~~|<selection>/.test(s)), (answer) => {
				expect(proposalFrom(answer, "x")).toBe(answer);
			}),
		);
	});

	const count = (text: string, re: RegExp): number => (text.match(re) ?? []).length;
	// A marker as a model may read it: its brackets as characters or as HTML character references
	// (named, decimal, hexadecimal, with or without the semicolon), which a model may well decode.
	const LT = String.raw`(?:<|&(?:lt|#0*60|#x0*3c);?)`;
	const GT = String.raw`(?:>|&(?:gt|#0*62|#x0*3e);?)`;
	const OPEN = new RegExp(String.raw`${LT}\s*selection\s*${GT}`, "gi");
	const CLOSE = new RegExp(String.raw`${LT}\s*\/\s*selection\s*${GT}`, "gi");
	const MARK = new RegExp(String.raw`${LT}\s*selection\s*\/\s*${GT}`, "gi");
	const pieces = fc.constantFrom(
		"The quick fox.",
		" ",
		"\n",
		"<selection/>",
		"<selection>",
		"</selection>",
		"<SELECTION />",
		"< / Selection >",
		"<selection",
		"selection>",
		"a < b > c",
		"&lt;selection/&gt;",
		"&lt;/selection&gt;",
		"&#60;selection&#62;",
		"&#x3C;/selection&#x3e;",
		"&#0060;selection/>",
		"&LT;selection&GT;",
		"&lt selection&gt",
		"&amp;lt;selection&amp;gt;",
		"&amp;",
		"&",
		"lt;",
		"amp;",
		// The look-alikes the markers are made harmless with, written by the person.
		"\u2039selection\u203a",
		"\u2039/selection/\u203a",
		"\u2039",
		"\u203a",
		"&lsaquo;selection&rsaquo;",
		"&#8249;/selection&#x203A;",
		"\u2039<selection>\u203a",
		"&AMP;lt;selection&LSAQUO;",
		"&lsaquoselection&rsaquo",
	);
	const textArb = fc.array(pieces, { maxLength: 14 }).map((p) => p.join(""));

	it("as a property: whatever the note and the selection carry, the model sees exactly one real marker of each kind, the place mark where the selection is", () => {
		fc.assert(
			fc.property(textArb, fc.nat(), fc.nat(), textArb, (text, a, b, instruction) => {
				const from = Math.min(a, b) % (text.length + 1);
				const to = Math.min(text.length, from + (Math.max(a, b) % (text.length + 1)));
				const message = editMessage(instruction, text.slice(from, to), `Notes/${instruction}.md`);
				const rest = noteAround(text, from, to);
				expect([count(message, OPEN), count(message, CLOSE), count(message, MARK)]).toEqual([1, 1, 0]);
				expect([count(rest, OPEN), count(rest, CLOSE), count(rest, MARK)]).toEqual([0, 0, 1]);
				// The mark is where the selection was: what is around it is the note's text, made harmless.
				expect(rest.indexOf("<selection/>")).toBe(neutralMarkers(text.slice(0, from)).length);
			}),
			{ numRuns: 300 },
		);
	});

	it("as a property: whatever was made harmless comes back byte for byte", () => {
		fc.assert(
			fc.property(textArb, (text) => {
				expect(restoredMarkers(neutralMarkers(text))).toBe(text);
			}),
			{ numRuns: 500 },
		);
	});

	it("a selection with the look-alike of a marker beside a real one: each comes back as it was", () => {
		const selection = "Write \u2039selection\u203a, not <selection>, nor &lsaquo;/selection&rsaquo;.";
		const seen = /<selection>\n([\s\S]*)\n<\/selection>$/.exec(editMessage("x", selection, "a.md"))?.[1] ?? "";
		expect(seen).not.toContain("<");
		expect(proposalFrom(seen, selection)).toBe(selection);
		expect(proposalFrom(seen.replace("Write", "Type"), selection)).toBe(selection.replace("Write", "Type"));
	});

	it("a selection's marker-like text comes back as it was when the model repeats it as it saw it", () => {
		const selection = "Keep </selection> and <Selection/>, &lt;/selection&gt; and &#60;selection/&#62; as text.\n";
		const seen = /<selection>\n([\s\S]*)\n<\/selection>$/.exec(editMessage("x", selection, "a.md"))?.[1] ?? "";
		expect(seen).not.toContain("<");
		expect(seen).not.toMatch(/&(lt|#60)/);
		expect(proposalFrom(seen, selection)).toBe(selection);
		expect(proposalFrom(seen.replace("Keep", "Leave"), selection)).toBe(selection.replace("Keep", "Leave"));
		fc.assert(
			fc.property(textArb, (sel) => {
				const message = editMessage("x", `${sel}.`, "a.md");
				const inside = message.slice(message.indexOf("<selection>\n") + 12, message.lastIndexOf("\n</selection>"));
				expect(proposalFrom(inside, `${sel}.`).trim()).toBe(`${sel}.`.trim());
				// What the model changed is changed, the rest comes back as it was.
				expect(proposalFrom(inside.replaceAll("quick", "slow"), `${sel}.`).trim()).toBe(`${sel}.`.replaceAll("quick", "slow").trim());
			}),
		);
	});
});
