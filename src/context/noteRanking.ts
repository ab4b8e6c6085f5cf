// Ranking whole notes from passage postings. A note's score is, for each query term, the term's
// best BM25 score among the note's passages, summed over the terms. So a rare word in one paragraph
// and two common words in another add up, and a note that repeats common words in one short
// passage gains no more from them than the repetition saturates to: a rare word anywhere in a note
// outweighs common words repeated across the vault (the case: 7 of 25 such queries missed
// the top 3 when a note was scored by its best passage alone; tests/context/noteRanking.test.ts).
// The title, folders and heading path are terms of every passage (noteUpserts.ts: analyze), so they count
// once per note too. Passage scores are kept to pick which passages of a note are sent.
//
// Neighbours: two terms next to each other in the query (two words, or two overlapping character
// pairs of a Han, kana or Hangul run) also count as one more term, held by a passage that holds
// both; its frequency is the number of passages that hold both, counted during the query. The index
// keeps no positions, so this is co-occurrence within a passage, not adjacency, but it is much rarer
// than either term alone: a Japanese name spelled from common kana ("パスタヴェドル") has only
// common character pairs, and its run of pairs, held together in one passage, is what singles out
// its note (bench/vault100k.ts's rare-word, phrase and misspelling queries).
import { bm25Idf, bm25Term, type WeightedQuery } from "./bm25";
import { TF_SLOTS } from "./noteIndexFormat";
import { appendTerms, PREFIX_MARK } from "./terms";

/** A neighbour pair counts this much of the lighter of its two terms. */
const NEIGHBOUR_WEIGHT = 1;
/** Terms that take part in neighbour pairs: one bit each in a passage's mask. */
const MAX_PAIRED_TERMS = 31;

/** The query's terms that stand next to each other, in order, each pair once (prefix terms left out). */
export function neighbourPairs(query: string): [string, string][] {
	const list: string[] = [];
	appendTerms(query, list);
	const seq = list.filter((t) => !t.endsWith(PREFIX_MARK));
	const seen = new Set<string>();
	const out: [string, string][] = [];
	for (let i = 0; i + 1 < seq.length; i++) {
		const a = seq[i] as string;
		const b = seq[i + 1] as string;
		const key = `${a}\u0000${b}`;
		if (a === b || seen.has(key)) continue;
		seen.add(key);
		out.push([a, b]);
	}
	return out;
}

export interface RankSource {
	/** The term's postings (passage id × TF_SLOTS + tf), or undefined when no note has it. */
	postings(term: string): Uint32Array | undefined;
	docCount: number;
	avgLength: number;
	docLength: readonly number[];
	/** Per passage id: its note's slot, −1 for a passage no longer indexed. */
	docSlot: readonly number[];
	/** The highest note slot + 1. */
	noteSlots: number;
}

export interface RankedNote {
	slot: number;
	score: number;
	/** The note's passages that hold a query term (in no order). */
	docs: number[];
	passageScore(doc: number): number;
}

/** Reusable score buffers (a query at 100,000 notes touches hundreds of thousands of passages). */
export class NoteRanker {
	private passage = new Float64Array(0);
	private best = new Float64Array(0);
	private note = new Float64Array(0);
	/** Per passage, a bit per paired query term it holds. */
	private mask = new Uint32Array(0);

	/**
	 * The `k` best notes, best first; `before(a, b)` breaks ties between two note slots. Returns
	 * fewer when fewer notes match.
	 */
	rank(query: WeightedQuery, src: RankSource, k: number, before: (a: number, b: number) => boolean, pairs: readonly (readonly [string, string])[] = []): RankedNote[] {
		const docSlots = src.docSlot.length;
		if (this.passage.length < docSlots) {
			this.passage = new Float64Array(Math.max(docSlots, this.passage.length * 2));
			this.mask = new Uint32Array(this.passage.length);
		}
		const noteSlots = src.noteSlots;
		if (this.best.length < noteSlots) {
			this.best = new Float64Array(Math.max(noteSlots, this.best.length * 2));
			this.note = new Float64Array(this.best.length);
		}
		const passage = this.passage;
		const best = this.best;
		const note = this.note;
		const mask = this.mask;
		const touchedDocs: number[] = [];
		const touchedNotes: number[] = [];
		const termNotes: number[] = [];
		// A bit per term that is in a pair both of whose terms some note has.
		const bits = new Map<string, number>();
		const usable = pairs.filter(([a, b]) => query.has(a) && query.has(b) && (src.postings(a)?.length ?? 0) > 0 && (src.postings(b)?.length ?? 0) > 0);
		for (const [a, b] of usable) for (const t of [a, b]) if (!bits.has(t) && bits.size < MAX_PAIRED_TERMS) bits.set(t, bits.size);
		const addNotes = (): void => {
			for (const slot of termNotes) {
				if (note[slot] === 0) touchedNotes.push(slot);
				note[slot] = (note[slot] ?? 0) + (best[slot] ?? 0);
				best[slot] = 0;
			}
			termNotes.length = 0;
		};
		for (const [term, weight] of query) {
			const list = src.postings(term);
			if (!list || list.length === 0) continue;
			const idf = bm25Idf(src.docCount, list.length);
			const bit = bits.has(term) ? 1 << (bits.get(term) ?? 0) : 0;
			for (let i = 0; i < list.length; i++) {
				const v = list[i] ?? 0;
				const doc = Math.floor(v / TF_SLOTS);
				const slot = src.docSlot[doc] ?? -1;
				if (slot < 0) continue;
				const c = weight * bm25Term(idf, v % TF_SLOTS, src.docLength[doc] ?? 0, src.avgLength);
				if (passage[doc] === 0) touchedDocs.push(doc);
				passage[doc] = (passage[doc] ?? 0) + c;
				mask[doc] = (mask[doc] ?? 0) | bit;
				const b = best[slot] ?? 0;
				if (b === 0) termNotes.push(slot);
				if (c > b) best[slot] = c;
			}
			addNotes();
		}
		if (bits.size > 1) {
			// Passages that hold two paired terms or more; each pair's frequency among them.
			const multi: number[] = [];
			for (const doc of touchedDocs) {
				const m = mask[doc] ?? 0;
				if ((m & (m - 1)) !== 0) multi.push(doc);
			}
			for (const [a, b] of usable) {
				const ba = bits.get(a);
				const bb = bits.get(b);
				if (ba === undefined || bb === undefined) continue;
				const both = (1 << ba) | (1 << bb);
				let df = 0;
				for (const doc of multi) if (((mask[doc] ?? 0) & both) === both) df++;
				if (df === 0) continue;
				const idf = bm25Idf(src.docCount, df);
				const weight = NEIGHBOUR_WEIGHT * Math.min(query.get(a) ?? 0, query.get(b) ?? 0);
				for (const doc of multi) {
					if (((mask[doc] ?? 0) & both) !== both) continue;
					const slot = src.docSlot[doc] ?? -1;
					const c = weight * bm25Term(idf, 1, src.docLength[doc] ?? 0, src.avgLength);
					passage[doc] = (passage[doc] ?? 0) + c;
					const prev = best[slot] ?? 0;
					if (prev === 0) termNotes.push(slot);
					if (c > prev) best[slot] = c;
				}
				addNotes();
			}
		}
		// The k best notes by insertion into a short sorted list (k is a page of results).
		const top: number[] = [];
		const better = (a: number, b: number): boolean => (note[a] ?? 0) > (note[b] ?? 0) || ((note[a] ?? 0) === (note[b] ?? 0) && before(a, b));
		for (const slot of touchedNotes) {
			if (top.length === k && !better(slot, top[k - 1] ?? 0)) continue;
			let at = top.length;
			while (at > 0 && better(slot, top[at - 1] ?? 0)) at--;
			top.splice(at, 0, slot);
			if (top.length > k) top.pop();
		}
		const docsOf = new Map<number, number[]>(top.map((slot) => [slot, []]));
		for (const doc of touchedDocs) docsOf.get(src.docSlot[doc] ?? -1)?.push(doc);
		const scores = new Map<number, number>();
		for (const [, docs] of docsOf) for (const doc of docs) scores.set(doc, passage[doc] ?? 0);
		const out = top.map((slot) => ({ slot, score: note[slot] ?? 0, docs: docsOf.get(slot) ?? [], passageScore: (doc: number) => scores.get(doc) ?? 0 }));
		for (const doc of touchedDocs) {
			passage[doc] = 0;
			mask[doc] = 0;
		}
		for (const slot of touchedNotes) note[slot] = 0;
		return out;
	}
}
