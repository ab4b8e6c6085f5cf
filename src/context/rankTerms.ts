// The terms a note ranking scores (noteRanking.ts), each with its posting list, weight, idf and an
// upper bound of what it can add to a note's score; and the neighbour pairs turned into terms of
// their own. A pair's list is the live passages that hold both of its terms, found by one cheap
// pass over each paired term's list that sets a bit per term in a passage's mask (no scoring), so
// its frequency (and idf) is exact before any note is scored.
import { BM25_B, BM25_K1, bm25Idf, type WeightedQuery } from "./bm25";
import { TF_SLOTS } from "./noteIndexFormat";

/** A neighbour pair counts this much of the lighter of its two terms. */
export const NEIGHBOUR_WEIGHT = 1;
/** Terms that take part in neighbour pairs: one bit each in a passage's mask. */
const MAX_PAIRED_TERMS = 31;
/** Postings hold passage × TF_SLOTS + tf; TF_SLOTS is a power of two, so a shift and a mask split them. */
export const TF_BITS = Math.round(Math.log2(TF_SLOTS));
export const TF_MASK = TF_SLOTS - 1;
if (2 ** TF_BITS !== TF_SLOTS) throw new Error("TF_SLOTS must be a power of two");
/**
 * Bounds are raised by this share: a note's score is a float sum in another order than the bound's,
 * and the bound must never fall below it by a rounding.
 */
const BOUND_SLACK = 1e-9;

export interface RankSource {
	/** The term's postings (passage id × TF_SLOTS + tf), or undefined when no note has it. */
	postings(term: string): Uint32Array | undefined;
	docCount: number;
	avgLength: number;
	docLength: ArrayLike<number>;
	/** Per passage id: its note's slot, −1 for a passage no longer indexed. */
	docSlot: ArrayLike<number>;
	/** The highest note slot + 1. */
	noteSlots: number;
}

export interface RankTerm {
	/** Postings, ascending for a term of the index (a pair's: tf 1, in no order). */
	list: Uint32Array;
	weight: number;
	idf: number;
	/** What this term can add to a note's score at most (weight × the BM25 term's supremum). */
	bound: number;
}

/**
 * The largest BM25 term score for `idf` at a frequency of at most `maxTf`, in a passage of any
 * length: the length norm is smallest for an empty passage (K1 × (1 − B)), and the score grows
 * with tf, towards idf × (K1 + 1).
 */
export function bm25Bound(idf: number, maxTf: number): number {
	const norm = BM25_K1 * (1 - BM25_B);
	return ((idf * maxTf * (BM25_K1 + 1)) / (maxTf + norm)) * (1 + BOUND_SLACK);
}

/** Reusable buffers for the pairs' pass (a passage mask, the passages it marked). */
export class PairScratch {
	private mask = new Uint32Array(0);
	private marked = new Int32Array(0);
	/** The masks of the passages that hold two paired terms or more, beside them in `marked`. */
	private masks = new Uint32Array(0);

	/**
	 * The query's terms (those some passage holds, in query order), then its usable neighbour
	 * pairs (both terms in the query and held by some passage; those held together by some live
	 * passage), each with its bound.
	 */
	terms(query: WeightedQuery, src: RankSource, pairs: readonly (readonly [string, string])[]): RankTerm[] {
		const out: RankTerm[] = [];
		const lists = new Map<string, Uint32Array>();
		for (const [term, weight] of query) {
			const list = src.postings(term);
			if (!list || list.length === 0) continue;
			lists.set(term, list);
			const idf = bm25Idf(src.docCount, list.length);
			out.push({ list, weight, idf, bound: weight * bm25Bound(idf, TF_SLOTS - 1) });
		}
		const usable = pairs.filter(([a, b]) => lists.has(a) && lists.has(b));
		const bits = new Map<string, number>();
		for (const [a, b] of usable) for (const t of [a, b]) if (!bits.has(t) && bits.size < MAX_PAIRED_TERMS) bits.set(t, bits.size);
		if (bits.size < 2) return out;
		const held = this.pairLists(usable, bits, lists, src);
		usable.forEach(([a, b], p) => {
			const list = held[p];
			if (!list || list.length === 0) return;
			const idf = bm25Idf(src.docCount, list.length);
			const weight = NEIGHBOUR_WEIGHT * Math.min(query.get(a) ?? 0, query.get(b) ?? 0);
			out.push({ list, weight, idf, bound: weight * bm25Bound(idf, 1) });
		});
		return out;
	}

	/** Per usable pair, the live passages that hold both its terms, as postings of tf 1 (undefined: a term without a bit). */
	private pairLists(usable: readonly (readonly [string, string])[], bits: ReadonlyMap<string, number>, lists: ReadonlyMap<string, Uint32Array>, src: RankSource): (Uint32Array | undefined)[] {
		const docSlots = src.docSlot.length;
		if (this.mask.length < docSlots) {
			this.mask = new Uint32Array(Math.max(docSlots, this.mask.length * 2));
			this.marked = new Int32Array(this.mask.length);
			this.masks = new Uint32Array(this.mask.length);
		}
		const mask = this.mask;
		const marked = this.marked;
		const docSlot = src.docSlot;
		let n = 0;
		for (const [term, b] of bits) {
			const list = lists.get(term) as Uint32Array;
			const bit = 1 << b;
			// Liveness is checked only for a passage found to hold two terms or more (below).
			for (let i = 0; i < list.length; i++) {
				const doc = (list[i] as number) >>> TF_BITS;
				const m = mask[doc] as number;
				if (m === 0) marked[n++] = doc;
				mask[doc] = m | bit;
			}
		}
		// Each pair listed under its first term's bit (flat, typed): a passage's set bits lead to the pairs it may hold.
		const both = Int32Array.from(usable, ([a, b]) => (bits.has(a) && bits.has(b) ? (1 << (bits.get(a) ?? 0)) | (1 << (bits.get(b) ?? 0)) : 0));
		const firstAt = new Int32Array(MAX_PAIRED_TERMS + 2);
		both.forEach((m) => {
			const at = 32 - Math.clz32(m & -m);
			if (m !== 0) firstAt[at] = (firstAt[at] ?? 0) + 1;
		});
		for (let b = 1; b < firstAt.length; b++) firstAt[b] = (firstAt[b] ?? 0) + (firstAt[b - 1] ?? 0);
		const byFirst = new Int32Array(both.length);
		const fill = firstAt.slice();
		both.forEach((m, p) => {
			const b = 31 - Math.clz32(m & -m);
			if (m === 0) return;
			const at = fill[b] ?? 0;
			byFirst[at] = p;
			fill[b] = at + 1;
		});
		// Two passes over the passages that hold two paired terms or more: count each pair's, then fill
		// its list (typed, of the exact length: no array grown per pair).
		let multi = 0;
		for (let i = 0; i < n; i++) {
			const doc = marked[i] as number;
			const m = mask[doc] as number;
			mask[doc] = 0;
			if ((m & (m - 1)) === 0 || (docSlot[doc] as number) < 0) continue;
			marked[multi] = doc;
			this.masks[multi++] = m;
		}
		const counts = new Int32Array(both.length);
		const masks = this.masks;
		for (let i = 0; i < multi; i++) {
			const m = masks[i] as number;
			for (let rest = m; rest !== 0; rest &= rest - 1) {
				const b = 31 - Math.clz32(rest & -rest);
				for (let q = firstAt[b] as number, end = firstAt[b + 1] as number; q < end; q++) {
					const p = byFirst[q] as number;
					const need = both[p] as number;
					if ((m & need) === need) counts[p] = (counts[p] ?? 0) + 1;
				}
			}
		}
		const held = Array.from(both, (m, p) => (m === 0 ? undefined : new Uint32Array(counts[p] ?? 0)));
		counts.fill(0);
		for (let i = 0; i < multi; i++) {
			const m = masks[i] as number;
			const value = (marked[i] as number) * TF_SLOTS + 1;
			for (let rest = m; rest !== 0; rest &= rest - 1) {
				const b = 31 - Math.clz32(rest & -rest);
				for (let q = firstAt[b] as number, end = firstAt[b + 1] as number; q < end; q++) {
					const p = byFirst[q] as number;
					const need = both[p] as number;
					if ((m & need) !== need) continue;
					const at = counts[p] ?? 0;
					(held[p] as Uint32Array)[at] = value;
					counts[p] = at + 1;
				}
			}
		}
		return held;
	}
}
