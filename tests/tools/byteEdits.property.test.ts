// Edits keep every byte they do not change, as properties: for random notes with random line ends (LF, CRLF, mixed) and an
// optional BOM, any edit_note edit changes no byte outside its span, and Revert gives back the exact
// bytes; a note that is not UTF-8 is never written. The oracle here is independent of noteText.ts:
// the note is built as a list of the view's characters, each with the bytes it stands for (a CRLF
// is one line end of the view), so the bytes outside a splice of the view are known.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendText, insertUnderHeading, replaceUnique } from "../../src/tools/editOps";
import type { Splice } from "../../src/tools/noteText";
import { toolbox } from "./support";

const BOM = "\uFEFF";
const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** Line text: letters, accents, CJK, an emoji (two UTF-16 units), spaces, '#', a lone CR now and then. */
const lineText = fc.string({ unit: fc.constantFrom("a", "b", "é", "ß", "漢", "😀", " ", "#", "-", "\r", "\t"), maxLength: 12 }).filter((t) => !t.endsWith("\r"));
const heading = (i: number): string => `## Part ${i}`;

interface Line {
	text: string;
	eol: "\n" | "\r\n" | "";
}

/** A note: lines (some headings), each with its line end; the last may have none. */
const note = fc
	.record({
		bom: fc.boolean(),
		lines: fc.array(fc.record({ text: lineText, eol: fc.constantFrom<Line["eol"]>("\n", "\r\n") }), { minLength: 1, maxLength: 10 }),
		headings: fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }),
		lastEnds: fc.boolean(),
	})
	.map(({ bom, lines, headings, lastEnds }) => {
		const all: Line[] = lines.map((l, i) => (headings.includes(i) ? { ...l, text: heading(i) } : l));
		if (!lastEnds) all[all.length - 1] = { ...all[all.length - 1]!, eol: "" };
		// One entry per UTF-16 unit of the view, holding what it is in the note: a CRLF is one view unit.
		const units: string[] = [];
		for (const l of all) {
			for (let i = 0; i < l.text.length; i++) units.push(l.text[i]!);
			if (l.eol !== "") units.push(l.eol);
		}
		return { bom, lines: all, units, text: (bom ? BOM : "") + all.map((l) => l.text + l.eol).join("") };
	});

/** The view the edits see: the units, each CRLF a LF. */
const viewOf = (units: readonly string[]): string => units.map((u) => (u === "\r\n" ? "\n" : u)).join("");

type Edit = { args: Record<string, unknown>; splice: (view: string) => Splice };

const addition = fc.string({ unit: fc.constantFrom("x", "é", "漢", "😀", " ", "\n", "\r\n"), minLength: 1, maxLength: 10 });

function edits(view: string, headings: string[]): fc.Arbitrary<Edit> {
	const options: fc.Arbitrary<Edit>[] = [addition.map((text) => ({ args: { mode: "append", text }, splice: (v) => appendText(v, text) }))];
	if (headings.length > 0) {
		options.push(
			fc.tuple(fc.constantFrom(...headings), addition).map(([h, text]) => ({ args: { mode: "insert_under_heading", heading: h, text }, splice: (v) => insertUnderHeading(v, h, text, "N.md") })),
		);
	}
	if (view.length > 0) {
		options.push(
			fc
				.tuple(fc.nat(view.length - 1), fc.integer({ min: 1, max: 12 }), addition, fc.boolean())
				.map(([from, len, text, crlf]) => {
					const old = view.slice(from, Math.min(view.length, from + len));
					// The model may copy a passage with CRLF line ends: it matches across them.
					const sent = crlf ? old.replace(/\n/g, "\r\n") : old;
					return { args: { mode: "replace", old_text: sent, new_text: text }, splice: (v: string) => replaceUnique(v, sent, text, "N.md") };
				}),
		);
	}
	return fc.oneof(...options);
}

describe("edits keep every byte they do not change", () => {
	it("property: an edit changes no byte outside its span, its new lines take the note's line ends there, and Revert gives back the exact bytes", async () => {
		const scenario = note.chain((n) => {
			const view = viewOf(n.units);
			const heads = n.lines.filter((l) => l.text.startsWith("## ")).map((l) => l.text.slice(3));
			return fc.tuple(fc.constant(n), edits(view, heads));
		});
		await fc.assert(
			fc.asyncProperty(scenario, async ([n, edit]) => {
				const { vault, run, changes } = toolbox({});
				vault.writeBytes("N.md", enc(n.text));
				const original = await vault.readBytes("N.md");
				const view = viewOf(n.units);
				let splice: Splice;
				try {
					splice = edit.splice(view);
				} catch {
					// Not found, found twice: the tool refuses the same way and writes nothing.
					await expect(run("edit_note", { path: "N.md", ...edit.args }, "c1")).rejects.toThrow();
					expect(sha256(await vault.readBytes("N.md"))).toBe(sha256(original));
					return;
				}
				// The note's own text before the span and after it.
				const prefix = (n.bom ? BOM : "") + n.units.slice(0, splice.from).join("");
				const suffix = n.units.slice(splice.to).join("");
				let result: string;
				try {
					result = await run("edit_note", { path: "N.md", ...edit.args }, "c1");
				} catch (err) {
					// Unchanged, or a splice inside a character: refused, nothing written.
					expect(String(err)).toMatch(/unchanged|inside a character/);
					expect(sha256(await vault.readBytes("N.md"))).toBe(sha256(original));
					return;
				}
				expect(result).toMatch(/^Edited N\.md/);
				const after = await vault.readBytes("N.md");
				const [pre, post] = [enc(prefix), enc(suffix)];
				// The bytes before the span and after it are the note's own.
				expect(sha256(after.slice(0, pre.length))).toBe(sha256(pre));
				expect(sha256(after.slice(after.length - post.length))).toBe(sha256(post));
				// What went in: the edit's text, its line ends one kind (the note's there).
				const middle = new TextDecoder().decode(after.slice(pre.length, after.length - post.length));
				expect(middle.replace(/\r\n/g, "\n")).toBe(splice.insert);
				// The note's line end there: its line's own (the first at or after the span), else the last before it, else LF.
				const isEol = (u: string | undefined): boolean => u === "\n" || u === "\r\n";
				const next = n.units.findIndex((u, i) => i >= splice.from && isEol(u));
				const last = n.units.slice(0, splice.from).findLastIndex(isEol);
				const eol = next >= 0 ? n.units[next] : last >= 0 ? n.units[last] : "\n";
				if (eol === "\r\n") expect(middle).not.toMatch(/(^|[^\r])\n/);
				else expect(middle).not.toContain("\r\n");

				await changes.revert("c1");
				expect(sha256(await vault.readBytes("N.md"))).toBe(sha256(original));
			}),
			{ numRuns: 300 },
		);
	});

	it("property: a note that is not UTF-8 is refused by every edit, and its bytes stay", async () => {
		const latin1 = fc.uint8Array({ minLength: 1, maxLength: 40 }).filter((b) => {
			try {
				new TextDecoder("utf-8", { fatal: true }).decode(b);
				return false;
			} catch {
				return true;
			}
		});
		await fc.assert(
			fc.asyncProperty(latin1, fc.constantFrom<Record<string, unknown>>({ mode: "append", text: "x" }, { mode: "replace", old_text: "a", new_text: "b" }, { mode: "insert_under_heading", heading: "H", text: "x" }), async (bytes, args) => {
				const { vault, run, tool } = toolbox({});
				vault.writeBytes("L.md", bytes);
				await expect(run("edit_note", { path: "L.md", ...args }, "c1")).rejects.toThrow(/not valid UTF-8/);
				await expect(tool("edit_note").preview!({ path: "L.md", ...args })).rejects.toThrow(/not valid UTF-8/);
				expect(sha256(await vault.readBytes("L.md"))).toBe(sha256(bytes));
			}),
			{ numRuns: 100 },
		);
	});
});
