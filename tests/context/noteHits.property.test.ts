import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NoteIndex } from "../../src/context/NoteIndex";
import { phraseMatcher, quotedPhrase, searchWithText } from "../../src/context/noteHits";
import { cutPassages } from "../../src/context/passages";

// Few words, so notes share terms; long notes have many passages (their postings are removed by
// one scan per term, short ones passage by passage).
const words = ["alpha", "beta", "gamma", "delta", "river", "stone", "lantern", "orchard", "漢字", "仮名", "zebra", "quartz"];
const paragraphArb = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 40 }).map((w) => w.join(" "));
const noteArb = fc.oneof(
	fc.array(paragraphArb, { minLength: 1, maxLength: 4 }).map((ps) => ps.join("\n\n")),
	fc.array(paragraphArb, { minLength: 20, maxLength: 60 }).map((ps) => `# Long\n\n${ps.map((p, i) => `${i % 7 === 0 ? "## Part\n\n" : ""}${p}`).join("\n\n")}`),
);
const idArb = fc.constantFrom("a.md", "b.md", "dir/c.md", "dir/d.md", "e.md");
const opArb = fc.oneof(
	fc.tuple(fc.constant("put" as const), idArb, noteArb),
	fc.tuple(fc.constant("remove" as const), idArb, fc.constant("")),
);
const queries = ["alpha", "river stone", "漢字", "lantern orchard quartz", "zebra alpha beta gamma", "long part", "dir"];

function apply(ops: ["put" | "remove", string, string][], ...indexes: NoteIndex[]): Map<string, string> {
	const vault = new Map<string, string>();
	for (const [op, id, text] of ops) {
		if (op === "put") vault.set(id, text);
		else vault.delete(id);
		for (const index of indexes) {
			if (op === "put") index.upsert(id, text, undefined, 1);
			else index.remove(id);
		}
	}
	return vault;
}

const reader = (vault: Map<string, string>) => (id: string) => Promise.resolve(vault.has(id) ? { text: vault.get(id) as string, mtime: 1 } : undefined);

describe("an index that keeps no texts", () => {
	it("gives the same hits, passage texts included, as one that keeps them, after any puts and removals, and after a save and load", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
				const kept = new NoteIndex();
				const lean = new NoteIndex({ keepText: false });
				const vault = apply(ops, kept, lean);
				const fresh = new NoteIndex();
				for (const [id, text] of vault) fresh.upsert(id, text, undefined, 1);
				const loaded = NoteIndex.fromBinary(lean.toBinary(), { keepText: false });
				for (const q of queries) {
					const expected = kept.search(q);
					// Removals left nothing behind: the same as an index built from the vault as it is.
					expect(fresh.search(q)).toEqual(expected);
					expect(await searchWithText(lean, q, reader(vault))).toEqual(expected);
					expect(await searchWithText(loaded, q, reader(vault))).toEqual(expected);
					// Without the vault's text, search alone still ranks the same notes and passages.
					if (q.split(" ").length < 4) expect(lean.search(q).map((h) => [h.id, h.start, h.end, h.text])).toEqual(expected.map((h) => [h.id, h.start, h.end, ""]));
				}
				expect(loaded.toBinary()).toEqual(lean.toBinary());
			}),
			{ numRuns: 80 },
		);
	});

	it("re-indexes a note changed since it was indexed instead of cutting its new text at the old offsets", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(fc.tuple(idArb, noteArb), { minLength: 1, maxLength: 5 }), idArb, noteArb, async (notes, changed, newText) => {
				const lean = new NoteIndex({ keepText: false });
				const vault = new Map<string, string>();
				for (const [id, text] of notes) {
					vault.set(id, text);
					lean.upsert(id, text, undefined, 1);
				}
				// The vault changes; the index has not heard of it yet.
				vault.set(changed, newText);
				const cuts = cutPassages(newText).map((p) => `${p.start}-${p.end}`);
				for (const q of queries) {
					const hits = await searchWithText(lean, q, reader(vault));
					for (const h of hits) {
						expect(h.text).toBe((vault.get(h.id) as string).slice(h.start, h.end));
						// The changed note's hits are passages of its new text, not its old one's.
						if (h.id === changed) expect(cuts).toContain(`${h.start}-${h.end}`);
					}
				}
			}),
			{ numRuns: 80 },
		);
	});
});

describe("phraseMatcher", () => {
	// What it replaced: the whole text copied with its white space runs made one space and lower-cased, then searched.
	const copied = (text: string, phrase: string): boolean => text.replace(/\s+/g, " ").toLowerCase().includes(phrase);
	const chars = ["a", "B", "c", "Ä", "ß", "Ж", "ж", "漢", "字", "한", "글", ".", "*", "(", ")", "[", "]", "\\", "/", "-", "+", "?", "$", "^", "|", "{", "}", " ", " ", "  ", "\n", "\t", "\u00a0", "\r\n"];
	const textArb = fc.array(fc.constantFrom(...chars), { maxLength: 60 }).map((cs) => cs.join(""));

	it("agrees with searching a lower-cased, space-normalised copy, for phrases cut from the text and made up", () => {
		fc.assert(
			fc.property(textArb, fc.nat(), fc.nat(), textArb, (text, a, b, other) => {
				const normal = text.replace(/\s+/g, " ").toLowerCase();
				const from = a % (normal.length + 1);
				const cut = normal.slice(from, from + (b % 20)).trim();
				for (const candidate of [cut, other.trim().replace(/\s+/g, " ").toLowerCase()]) {
					const phrase = quotedPhrase(candidate) ?? candidate;
					if (phrase === "") continue;
					expect(phraseMatcher(phrase)(text)).toBe(copied(text, phrase));
				}
			}),
			{ numRuns: 400 },
		);
	});
});
