import fc from "fast-check";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { NoteIndex } from "../../src/context/NoteIndex";
import { TF_SLOTS } from "../../src/context/noteIndexFormat";
import { packPair, TermTable } from "../../src/context/termTable";
import { terms } from "../../src/context/terms";
import { seededRandom } from "../support/random";

// The vault index keeps a term of two UTF-16 units (every CJK character pair) as the two units
// packed in a number, and its indexer hands CJK pairs over without making their string. These
// properties hold it to the string form the query side uses (`terms`): the same terms, found by
// their strings, with the same answers after a save and a load.

/** Characters of every script the analyzer pairs: kana, Han (with extension A and compatibility), Hangul syllables and jamo, halfwidth katakana. */
const CJK = "の会話記録世界漢字仮名ひらカタ한국어ᄀᄁ㐀豈ｱｲ";
const cjkRun = fc.array(fc.constantFrom(...CJK), { minLength: 1, maxLength: 40 }).map((cs) => cs.join(""));
const piece = fc.oneof(
	cjkRun,
	cjkRun,
	fc.constantFrom("budget", "Zusammenfassung", "maxTokens", "ab", "x", "42", "résumé", "Ölpreis"),
	// Astral Han (surrogate pairs) stays on the string path: its pairs are three or four units.
	fc.constantFrom("𠀋𠀌", "𠀋", "😀"),
	fc.constantFrom(" ", "\n\n", "。", "、", "\n# 見出し\n", "\n## Part 会話\n", "-", "'"),
);
const noteArb = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(""));

/** Per passage, how often each term is in it, from the saved form (its terms are the table's names). */
function savedCounts(index: NoteIndex): { counts: Map<string, number>[]; lengths: number[]; paths: string[] } {
	const saved = index.toJSON() as { notes: { passages: number[]; paths: string[] }[]; terms: string[]; postings: string[] };
	const note = saved.notes[0];
	const lengths: number[] = [];
	for (let i = 2; i < (note?.passages.length ?? 0); i += 3) lengths.push(note?.passages[i] ?? 0);
	const counts = lengths.map(() => new Map<string, number>());
	saved.terms.forEach((term, i) => {
		let doc = 0;
		for (const part of (saved.postings[i] ?? "").split(",")) {
			const v = parseInt(part, 36);
			doc += Math.floor(v / TF_SLOTS);
			counts[doc]?.set(term, v % TF_SLOTS);
		}
	});
	return { counts, lengths, paths: note?.paths ?? [] };
}

function countsOf(list: readonly string[]): Map<string, number> {
	const out = new Map<string, number>();
	for (const t of list) out.set(t, (out.get(t) ?? 0) + 1);
	return out;
}

describe("CJK pair terms are kept as numbers and answer as their strings", () => {
	it("the term table: a pair added by its units is the pair looked up by its string, and its name is that string (property)", () => {
		type Op = { kind: "add" | "addPair" | "delete" | "get"; term: string };
		const term = fc.oneof(fc.string({ minLength: 2, maxLength: 2, unit: "binary" }), fc.constantFrom(...CJK).chain((a) => fc.constantFrom(...CJK).map((b) => a + b)), fc.string({ maxLength: 4 }));
		const op = fc.record({ kind: fc.constantFrom<Op["kind"]>("add", "addPair", "delete", "get"), term });
		fc.assert(
			fc.property(fc.array(op, { maxLength: 2000 }), (ops) => {
				const table = new TermTable();
				const model = new Map<string, number>();
				for (const { kind, term: t } of ops) {
					const pair = t.length === 2;
					const id = table.get(t);
					expect(id).toBe(model.get(t));
					if (pair) expect(table.getPair(t.charCodeAt(0), t.charCodeAt(1))).toBe(id);
					if ((kind === "add" || kind === "addPair") && id === undefined) {
						const added = kind === "addPair" && pair ? table.addPair(t.charCodeAt(0), t.charCodeAt(1)) : table.add(t);
						expect([...model.values()]).not.toContain(added);
						model.set(t, added);
					} else if (kind === "delete" && id !== undefined) {
						table.delete(id);
						model.delete(t);
					}
					expect(table.size).toBe(model.size);
				}
				expect(new Map(table.entries())).toEqual(model);
				for (const [t, id] of model) {
					expect(table.nameOf(id)).toBe(t);
					expect(table.pairOf(id)).toBe(t.length === 2 ? packPair(t.charCodeAt(0), t.charCodeAt(1)) : -1);
					expect(table.addNew(t)).toBeUndefined();
				}
			}),
			{ numRuns: 80 },
		);
	});

	it("each passage's indexed terms are the string analyzer's terms of its name, folders, heading path and text (property)", () => {
		fc.assert(
			fc.property(noteArb, (text) => {
				const index = new NoteIndex();
				index.upsert("会話/Notes/記録ノート.md", text);
				const { counts, lengths, paths } = savedCounts(index);
				const cuts = (index.toJSON() as { notes: { passages: number[] }[] }).notes[0]?.passages ?? [];
				counts.forEach((got, k) => {
					const expected = [...terms("記録ノート 会話/Notes"), ...terms(paths[k] ?? ""), ...terms(text.slice(cuts[3 * k], cuts[3 * k + 1]))];
					expect(got).toEqual(countsOf(expected));
					expect(lengths[k]).toBe(expected.length);
				});
			}),
			{ numRuns: 150 },
		);
	});

	it("a saved and loaded index answers as the one built, misspelled CJK queries included (property)", () => {
		fc.assert(
			fc.property(fc.array(noteArb, { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...CJK)), { minLength: 1, maxLength: 6 }), (texts, picks) => {
				const built = new NoteIndex();
				texts.forEach((t, i) => built.upsert(`n${i}.md`, t));
				// A query from a note's CJK text, one character changed (the followers correct it).
				const queries = picks.map(([n, at, c]) => {
					const t = texts[n % texts.length] ?? "";
					const from = t.length === 0 ? 0 : at % t.length;
					const q = t.slice(from, from + 4);
					return q.length < 3 ? q : q.slice(0, 1) + c + q.slice(2);
				});
				for (const loaded of [NoteIndex.fromBinary(built.toBinary()), NoteIndex.fromJSON(JSON.parse(JSON.stringify(built.toJSON())))]) {
					expect(loaded.termCount).toBe(built.termCount);
					for (const q of queries) expect(loaded.search(q, { limit: 20, perNote: 3 })).toEqual(built.search(q, { limit: 20, perNote: 3 }));
				}
			}),
			{ numRuns: 60 },
		);
	});

	it("a CJK note without punctuation keeps no string per distinct pair (under 8 bytes of JS heap each; as strings, about 47)", () => {
		setFlagsFromString("--expose-gc");
		const gc = runInNewContext("gc") as () => void;
		const r = seededRandom(2);
		const chars: string[] = [];
		for (let i = 0; i < 300_000; i++) chars.push(String.fromCharCode(0x4e00 + Math.floor(r() * 3000)));
		const text = chars.join("");
		chars.length = 0;
		const index = new NoteIndex();
		index.upsert("warm.md", "warm 会話");
		gc();
		gc();
		const before = process.memoryUsage().heapUsed;
		index.upsert("clipping.md", text);
		gc();
		gc();
		const perTerm = (process.memoryUsage().heapUsed - before) / index.termCount;
		expect(index.termCount).toBeGreaterThan(280_000);
		expect(perTerm).toBeLessThan(8);
		expect(index.search(text.slice(150_000, 150_004), { limit: 1 })[0]?.id).toBe("clipping.md");
	}, 60_000);
});
