import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NoteIndex } from "../../src/context/NoteIndex";
import { textArb } from "../support/scriptTexts";
import { sameAnswers } from "../support/indexAnswers";

// A loaded index's posting lists stay in the saved bytes (lazyPostings.ts) through a re-index: new
// passages go past the saved ones, and a removed note's saved postings are skipped, not decoded away.
const ids = ["a.md", "b.md", "Folder/c.md", "d.md", "日本/メモ.md", "e.md"] as const;
const noteArb = fc.record({ id: fc.constantFrom(...ids), text: fc.array(textArb, { maxLength: 8 }).map((p) => p.join("\n\n")) });
const opArb = fc.oneof(
	{ weight: 4, arbitrary: noteArb.map((n) => ({ upsert: n })) },
	{ weight: 2, arbitrary: fc.constantFrom(...ids).map((id) => ({ remove: id })) },
	{ weight: 1, arbitrary: fc.constantFrom("budget window", "the", "世界 会話", "conversations").map((q) => ({ query: q })) },
	{ weight: 1, arbitrary: fc.constant({ save: true }) },
);

/** Runs a change's steps with a query between two steps (lists then decode while a removed note's postings are half gone). */
function stepped(steps: Iterable<void>, index: NoteIndex): void {
	const it = steps[Symbol.iterator]();
	while (it.next().done !== true) index.search("the budget 会話", { limit: 5 });
}

const words = (n: number, from: number): string => Array.from({ length: n }, (_, i) => `word${(from + i) % 40}`).join(" ");

describe("a loaded index re-indexes a note without decoding its terms' saved lists", () => {
	it("an upsert of a loaded note leaves the lists of the terms it keeps in the saved bytes", () => {
		const built = new NoteIndex();
		for (let i = 0; i < 30; i++) built.upsert(`n${i}.md`, `${words(30, i)}\n\n${words(20, i + 7)} common shared`);
		const loaded = NoteIndex.fromBinary(built.toBinary());
		const before = loaded.undecodedTerms;
		expect(before).toBe(built.termCount);
		for (const index of [built, loaded]) index.upsert("n3.md", `${words(30, 3)}\n\n${words(20, 10)} common shared brandnew`);
		// Only a list that had to change in the middle may be decoded; "common" and the words kept are not.
		expect(loaded.undecodedTerms).toBe(before);
		const terms = built.termCount;
		for (const index of [built, loaded]) index.remove("n4.md");
		// Its name was a term of its passages only: that list is read to find it empty, and the term goes.
		expect(built.termCount).toBe(terms - 1);
		expect(loaded.undecodedTerms).toBe(before - 1);
		sameAnswers(loaded, built);
		expect(NoteIndex.fromBinary(loaded.toBinary()).search("common brandnew")).toEqual(built.search("common brandnew"));
	});

	it("upserts, removals, queries and saves on a loaded index give the answers of a fresh index and the bytes of an index whose lists were all decoded", () => {
		fc.assert(
			fc.property(fc.array(noteArb, { minLength: 1, maxLength: 6 }), fc.array(fc.constantFrom(...ids), { maxLength: 2 }), fc.array(opArb, { maxLength: 12 }), fc.boolean(), (notes, removed, later, sliced) => {
				const built = new NoteIndex();
				for (const n of notes) built.upsert(n.id, n.text);
				for (const id of removed) built.remove(id);
				const bytes = built.toBinary();
				const lazy = NoteIndex.fromBinary(bytes);
				// The same index with every list decoded at load (the JSON form fills each list).
				const eager = NoteIndex.fromJSON(built.toJSON());
				expect(eager.toBinary()).toEqual(bytes);
				for (const op of later) {
					if ("query" in op) {
						expect(lazy.search(op.query, { limit: 50, perNote: 5 })).toEqual(built.search(op.query, { limit: 50, perNote: 5 }));
						continue;
					}
					if ("save" in op) {
						expect(lazy.toBinary()).toEqual(eager.toBinary());
						continue;
					}
					for (const index of [built, lazy, eager]) {
						if ("upsert" in op) {
							if (sliced) stepped(index.upsertSteps(op.upsert.id, op.upsert.text), index);
							else index.upsert(op.upsert.id, op.upsert.text);
						} else if (sliced) stepped(index.removeSteps(op.remove), index);
						else index.remove(op.remove);
					}
				}
				sameAnswers(lazy, built);
				sameAnswers(lazy, eager);
				expect(lazy.toBinary()).toEqual(eager.toBinary());
				sameAnswers(NoteIndex.fromBinary(lazy.toBinary()), built);
			}),
			{ numRuns: 100 },
		);
	}, 120_000);
});
