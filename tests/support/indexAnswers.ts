// Two vault indexes that must answer alike (a loaded one and the one it was built from, or one
// changed after a load and a fresh one): the same sizes, notes and search hits for queries in
// several scripts, a misspelling included.
import { expect } from "vitest";
import type { NoteIndex } from "../../src/context/NoteIndex";

export const INDEX_QUERIES = ["budget window", "世界 会話", "привет мир", "Zusammenfassung", "résumé", "the", "42", "conversations", "разговоры", "compost", "会話の記録", "budgte"];

export function sameAnswers(a: NoteIndex, b: NoteIndex): void {
	expect(a.size).toBe(b.size);
	expect(a.passageCount).toBe(b.passageCount);
	expect(a.termCount).toBe(b.termCount);
	expect(a.entries()).toEqual(b.entries());
	for (const q of INDEX_QUERIES) expect(a.search(q, { limit: 50, perNote: 5 })).toEqual(b.search(q, { limit: 50, perNote: 5 }));
}
