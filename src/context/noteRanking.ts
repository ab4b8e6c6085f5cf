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
//
// Pruning (max-score, term at a time): each term has an upper bound of what it can add to a note
// (rankTerms.ts). Scored rarest first, the common terms left (a CJK query's frequent character
// pairs: lists of a fifth of the vault's passages) often cannot lift a note the rare ones missed
// into the top k; they are then scored for the notes still in the running only (a passage of another
// note costs two reads, not a score). The results are those of scoring every term for every note
// (tests/context/notePruning.property.test.ts). The bounds are loose (any tf, an empty passage), so
// a Korean or Japanese phrase (50 candidates, every note of the language sharing its common pairs)
// keeps most notes in the running; neighbour pairs are always counted over whole lists (their idf
// must be exact).
import { BM25_B, BM25_K1, type WeightedQuery } from "./bm25";
import { PairScratch, TF_BITS, TF_MASK, type RankSource, type RankTerm } from "./rankTerms";
import { appendTerms, identifierTerms, PREFIX_MARK } from "./terms";

export type { RankSource } from "./rankTerms";

/**
 * The query's terms that stand next to each other, in order, each pair once (prefix terms left out,
 * and an identifier with its own first part: a text that has "non-free" has "non", so the pair would
 * count the word again).
 */
export function neighbourPairs(query: string): [string, string][] {
	const list: string[] = [];
	appendTerms(query, list);
	const seq = list.filter((t) => !t.endsWith(PREFIX_MARK));
	const parts = identifierTerms(query);
	const seen = new Set<string>();
	const out: [string, string][] = [];
	for (let i = 0; i + 1 < seq.length; i++) {
		const a = seq[i] as string;
		const b = seq[i + 1] as string;
		const key = `${a}\u0000${b}`;
		if (a === b || seen.has(key) || parts.get(a)?.includes(b) === true) continue;
		seen.add(key);
		out.push([a, b]);
	}
	return out;
}

export interface RankedNote {
	slot: number;
	score: number;
	/** The note's passages that hold a query term (in no order). */
	docs: number[];
	passageScore(doc: number): number;
}

/** @internal How a ranking went, for tests and benches. */
export interface RankStats {
	/** Terms (with pairs) scored over their whole list. */
	fullTerms: number;
	/** Terms scored only for the notes still in the running (0: the ranking was exhaustive). */
	candidateTerms: number;
	/** Notes still in the running when the first term was skipped for the others. */
	candidates: number;
	/** Postings of the terms scored whole, and of those scored for the notes in the running. */
	fullPostings: number;
	candidatePostings: number;
}

/** @internal Test hooks: no pruning at all, or bounds scaled (below 1 they are wrong: a test shows the difference is seen). */
export interface RankOptions {
	exhaustive?: boolean;
	boundScale?: number;
}

/** Reusable buffers (a query at 100,000 notes touches hundreds of thousands of passages). */
export class NoteRanker {
	private passage = new Float64Array(0);
	private touchedDocs = new Int32Array(0);
	private best = new Float64Array(0);
	private note = new Float64Array(0);
	private inRunning = new Uint8Array(0);
	/** Per note slot, its place in the top k + 1 (0: not in it), while the top's passages are gathered. */
	private topAt = new Int32Array(0);
	private touchedNotes = new Int32Array(0);
	private termNotes = new Int32Array(0);
	private scratch = new Float64Array(0);
	private readonly pairs = new PairScratch();
	private nDocs = 0;
	private nNotes = 0;
	private nTerm = 0;
	/** @internal The last ranking's RankStats. */
	lastStats: RankStats = { fullTerms: 0, candidateTerms: 0, candidates: 0, fullPostings: 0, candidatePostings: 0 };

	/**
	 * The `k` best notes, best first; `before(a, b)` breaks ties between two note slots. Returns
	 * fewer when fewer notes match.
	 *
	 * Terms go rarest first (by their bound). Once the bounds of the terms left add up to less than
	 * the k-th best score so far, no note that none of the terms so far holds can reach the top k:
	 * the terms left are scored only for the notes that still can (each term's list is scanned, but
	 * a passage of another note costs two reads, not a score), and a note drops out as soon as its
	 * score plus the bounds left falls below the k-th best. A note in the top k gets every term's
	 * score, added in the same order as without pruning: the same notes, with the same scores.
	 */
	rank(query: WeightedQuery, src: RankSource, k: number, before: (a: number, b: number) => boolean, pairs: readonly (readonly [string, string])[] = [], options: RankOptions = {}): RankedNote[] {
		this.lastStats = { fullTerms: 0, candidateTerms: 0, candidates: 0, fullPostings: 0, candidatePostings: 0 };
		if (k <= 0) return [];
		this.reserve(src.docSlot.length, src.noteSlots);
		const terms = this.pairs.terms(query, src, pairs);
		const scale = options.boundScale ?? 1;
		// Rarest first; a stable sort keeps query order among equal bounds.
		terms.sort((a, b) => b.bound - a.bound);
		const left = new Float64Array(terms.length + 1);
		for (let i = terms.length - 1; i >= 0; i--) left[i] = (left[i + 1] ?? 0) + (terms[i] as RankTerm).bound * scale;
		this.nDocs = 0;
		this.nNotes = 0;
		let running: number[] | undefined;
		let kth = 0;
		let kthLeft = Infinity;
		let top = 0;
		for (let i = 0; i < terms.length; i++) {
			const term = terms[i] as RankTerm;
			const rest = left[i] ?? 0;
			if (running === undefined && !options.exhaustive && this.nNotes >= k && rest < top) {
				// The k-th best so far, worked out again only when the bounds left fell well below the last try.
				if (rest >= kth && rest <= 0.75 * kthLeft) {
					kth = this.kthBest(this.touchedNotes, this.nNotes, k);
					kthLeft = rest;
				}
				if (rest < kth) {
					running = this.stillRunning(this.touchedNotes, this.nNotes, kth, rest);
					this.lastStats.candidates = running.length;
				}
			}
			if (running !== undefined) {
				if (running.length > k) {
					kth = Math.max(kth, this.kthBest(running, running.length, k));
					running = this.stillRunning(running, running.length, kth, rest);
				}
				this.scoreTerm(term, src, true);
				this.lastStats.candidateTerms++;
				this.lastStats.candidatePostings += term.list.length;
			} else {
				top = Math.max(top, this.scoreTerm(term, src, false));
				this.lastStats.fullTerms++;
				this.lastStats.fullPostings += term.list.length;
			}
		}
		const out = this.topNotes(k, before, src, running);
		this.clear(running);
		return out;
	}

	private reserve(docSlots: number, noteSlots: number): void {
		if (this.passage.length < docSlots) {
			this.passage = new Float64Array(Math.max(docSlots, this.passage.length * 2));
			this.touchedDocs = new Int32Array(this.passage.length);
		}
		if (this.best.length < noteSlots) {
			const n = Math.max(noteSlots, this.best.length * 2);
			this.best = new Float64Array(n);
			this.note = new Float64Array(n);
			this.inRunning = new Uint8Array(n);
			this.topAt = new Int32Array(n);
			this.touchedNotes = new Int32Array(n);
			this.termNotes = new Int32Array(n);
			this.scratch = new Float64Array(n);
		}
	}

	/**
	 * Adds one term's score to each note that holds it (its best passage's) and to each passage.
	 * `onlyRunning`: only for notes marked still in the running. Returns the highest note score after.
	 */
	private scoreTerm(term: RankTerm, src: RankSource, onlyRunning: boolean): number {
		const { list, weight, idf } = term;
		const { docSlot, docLength, avgLength } = src;
		// bm25Term with the query's constants taken out of the loop: one division a posting, not two.
		const top = idf * (BM25_K1 + 1) * weight;
		const normBase = BM25_K1 * (1 - BM25_B);
		const normPerUnit = (BM25_K1 * BM25_B) / (avgLength || 1);
		const passage = this.passage;
		const best = this.best;
		const inRunning = this.inRunning;
		const termNotes = this.termNotes;
		const touchedDocs = this.touchedDocs;
		let nTerm = 0;
		let nDocs = this.nDocs;
		for (let i = 0; i < list.length; i++) {
			const v = list[i] as number;
			const doc = v >>> TF_BITS;
			const slot = docSlot[doc] as number;
			if (slot < 0 || (onlyRunning && inRunning[slot] === 0)) continue;
			const tf = v & TF_MASK;
			const c = (top * tf) / (tf + normBase + normPerUnit * (docLength[doc] ?? 0));
			const p = passage[doc] as number;
			if (p === 0) touchedDocs[nDocs++] = doc;
			passage[doc] = p + c;
			const b = best[slot] as number;
			if (b === 0) termNotes[nTerm++] = slot;
			if (c > b) best[slot] = c;
		}
		this.nDocs = nDocs;
		const note = this.note;
		const touchedNotes = this.touchedNotes;
		let nNotes = this.nNotes;
		let highest = 0;
		for (let j = 0; j < nTerm; j++) {
			const slot = termNotes[j] as number;
			const before = note[slot] as number;
			if (before === 0) touchedNotes[nNotes++] = slot;
			const after = before + (best[slot] as number);
			note[slot] = after;
			best[slot] = 0;
			if (after > highest) highest = after;
		}
		this.nNotes = nNotes;
		return highest;
	}

	/** The k-th highest score among the first n notes of `slots` (n ≥ k). */
	private kthBest(slots: ArrayLike<number>, n: number, k: number): number {
		const values = this.scratch;
		for (let i = 0; i < n; i++) values[i] = this.note[slots[i] as number] as number;
		return kthLargest(values, n, k);
	}

	/** The notes among the first n of `slots` that can still reach `kth` with `rest` more; marks them in the running, unmarks the others. */
	private stillRunning(slots: ArrayLike<number>, n: number, kth: number, rest: number): number[] {
		const out: number[] = [];
		for (let i = 0; i < n; i++) {
			const slot = slots[i] as number;
			// Raised by a share, as the bounds are: the float sums may round the other way.
			const keep = ((this.note[slot] as number) + rest) * (1 + 1e-9) >= kth;
			this.inRunning[slot] = keep ? 1 : 0;
			if (keep) out.push(slot);
		}
		return out;
	}

	/** The k best of the notes scored (those still in the running, when some were left out), best first, with their passages and those passages' scores. */
	private topNotes(k: number, before: (a: number, b: number) => boolean, src: RankSource, running: readonly number[] | undefined): RankedNote[] {
		const note = this.note;
		const top: number[] = [];
		const better = (a: number, b: number): boolean => (note[a] as number) > (note[b] as number) || (note[a] === note[b] && before(a, b));
		const pool = running ?? this.touchedNotes;
		const n = running ? running.length : this.nNotes;
		for (let i = 0; i < n; i++) {
			const slot = pool[i] as number;
			if (top.length === k && (note[slot] as number) < (note[top[k - 1] as number] as number)) continue;
			if (top.length === k && !better(slot, top[k - 1] as number)) continue;
			let at = top.length;
			while (at > 0 && better(slot, top[at - 1] as number)) at--;
			top.splice(at, 0, slot);
			if (top.length > k) top.pop();
		}
		const topAt = this.topAt;
		top.forEach((slot, i) => (topAt[slot] = i + 1));
		const docsOf: number[][] = top.map(() => []);
		const scores = new Map<number, number>();
		const docSlot = src.docSlot;
		for (let i = 0; i < this.nDocs; i++) {
			const doc = this.touchedDocs[i] as number;
			const at = topAt[docSlot[doc] as number] as number;
			if (at === 0) continue;
			docsOf[at - 1]?.push(doc);
			scores.set(doc, this.passage[doc] as number);
		}
		for (const slot of top) topAt[slot] = 0;
		return top.map((slot, i) => ({ slot, score: note[slot] as number, docs: docsOf[i] ?? [], passageScore: (doc: number) => scores.get(doc) ?? 0 }));
	}

	private clear(running: readonly number[] | undefined): void {
		for (let i = 0; i < this.nDocs; i++) this.passage[this.touchedDocs[i] as number] = 0;
		for (let i = 0; i < this.nNotes; i++) this.note[this.touchedNotes[i] as number] = 0;
		for (const slot of running ?? []) this.inRunning[slot] = 0;
		this.nDocs = 0;
		this.nNotes = 0;
	}
}

/** The k-th largest of values[0, n) (1 ≤ k ≤ n), by quickselect; reorders them. */
export function kthLargest(values: Float64Array, n: number, k: number): number {
	let lo = 0;
	let hi = n - 1;
	const want = k - 1;
	while (lo < hi) {
		const pivot = values[(lo + hi) >>> 1] as number;
		let i = lo;
		let j = hi;
		while (i <= j) {
			while ((values[i] as number) > pivot) i++;
			while ((values[j] as number) < pivot) j--;
			if (i <= j) {
				const t = values[i] as number;
				values[i] = values[j] as number;
				values[j] = t;
				i++;
				j--;
			}
		}
		if (want <= j) hi = j;
		else if (want >= i) lo = i;
		else return values[want] as number;
	}
	return values[want] as number;
}
