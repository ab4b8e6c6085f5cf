// BM25 over a fixed set of documents (the passages of one note), and the query side every BM25
// here shares: which terms a query has and how much each weighs. The vault index (NoteIndex.ts)
// keeps its own incremental postings but scores with the same `bm25Term`.
import { drain, type Steps } from "./steps";
import { appendTerms, PREFIX_MARK, type CjkMode } from "./terms";

/** A prefix term (terms.ts) in a query counts this much of a whole word: it matches more loosely. */
export const PREFIX_WEIGHT = 0.5;

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Inverse document frequency, the non-negative BM25 form. */
export function bm25Idf(docCount: number, docFreq: number): number {
	return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/** One term's contribution to a document's score. */
export function bm25Term(idf: number, tf: number, docLength: number, avgLength: number): number {
	const norm = BM25_K1 * (1 - BM25_B + (BM25_B * docLength) / (avgLength || 1));
	return (idf * tf * (BM25_K1 + 1)) / (tf + norm);
}

/** Query terms with their weights. */
export type WeightedQuery = Map<string, number>;

/**
 * The terms of a query, weighted. `message` is what the person asks now and weighs `messageWeight`
 * (default 2); `context` (the last few turns) weighs 1. A term repeated in a part counts once there:
 * a query is a few words, and repeats rarely mean more.
 */
export function weightedQuery(message: string, context = "", messageWeight = 2, mode: CjkMode = "bigram"): WeightedQuery {
	const out: WeightedQuery = new Map();
	const add = (text: string, weight: number): void => {
		const list: string[] = [];
		appendTerms(text, list, mode);
		for (const t of new Set(list)) {
			const w = t.endsWith(PREFIX_MARK) ? weight * PREFIX_WEIGHT : weight;
			out.set(t, Math.max(out.get(t) ?? 0, w));
		}
	};
	add(context, 1);
	add(message, messageWeight);
	return out;
}

/**
 * An immutable BM25 index of documents given as term lists. Built in two passes over flat typed
 * arrays (term ids, then each term's documents grouped): a 1 MB note has ~130k terms, and a Map of
 * growing arrays per term cost several times more in allocation and garbage.
 */
/** Terms counted between two steps of a corpus build. */
const CORPUS_STEP = 50_000;

export class Bm25Corpus {
	private ids = new Map<string, number>();
	/** Per term id: where its postings start in `docs`/`tfs` (the next id's start ends them). */
	private offsets = new Uint32Array(1);
	private docs = new Uint32Array(0);
	private tfs = new Uint32Array(0);
	private lengths = new Float64Array(0);
	private avgLength = 0;

	constructor(docList: readonly (readonly string[])[] = []) {
		drain(this.buildSteps(docList));
	}

	/** A corpus built in steps of about CORPUS_STEP terms (preparePassages runs them between yields). */
	static *build(docList: readonly (readonly string[])[]): Steps<Bm25Corpus> {
		const corpus = new Bm25Corpus();
		yield* corpus.buildSteps(docList);
		return corpus;
	}

	private *buildSteps(docList: readonly (readonly string[])[]): Steps<void> {
		const ids = new Map<string, number>();
		const lengths = new Float64Array(docList.length);
		let total = 0;
		for (const d of docList) total += d.length;
		const occurrences = new Uint32Array(total);
		let k = 0;
		let work = 0;
		const df: number[] = [];
		const lastDoc: number[] = [];
		for (let doc = 0; doc < docList.length; doc++) {
			const terms = docList[doc] ?? [];
			lengths[doc] = terms.length;
			for (const term of terms) {
				let id = ids.get(term);
				if (id === undefined) {
					id = ids.size;
					ids.set(term, id);
					df.push(0);
					lastDoc.push(-1);
				}
				occurrences[k++] = id;
				if (lastDoc[id] !== doc) {
					lastDoc[id] = doc;
					df[id] = (df[id] ?? 0) + 1;
				}
			}
			work += terms.length;
			if (work >= CORPUS_STEP) {
				work = 0;
				yield;
			}
		}
		const termCount = ids.size;
		const offsets = new Uint32Array(termCount + 1);
		for (let t = 0; t < termCount; t++) offsets[t + 1] = (offsets[t] ?? 0) + (df[t] ?? 0);
		const postings = offsets[termCount] ?? 0;
		const docs = new Uint32Array(postings);
		const tfs = new Uint32Array(postings);
		// Second pass: each term's next free slot; a term seen again in the same document adds to its frequency.
		const fill = Uint32Array.from(offsets.subarray(0, termCount));
		k = 0;
		for (let doc = 0; doc < docList.length; doc++) {
			const count = docList[doc]?.length ?? 0;
			for (let j = 0; j < count; j++) {
				const id = occurrences[k++] ?? 0;
				const at = fill[id] ?? 0;
				if (at > (offsets[id] ?? 0) && docs[at - 1] === doc) tfs[at - 1] = (tfs[at - 1] ?? 0) + 1;
				else {
					docs[at] = doc;
					tfs[at] = 1;
					fill[id] = at + 1;
				}
			}
			work += count;
			if (work >= CORPUS_STEP) {
				work = 0;
				yield;
			}
		}
		this.ids = ids;
		this.offsets = offsets;
		this.docs = docs;
		this.tfs = tfs;
		this.lengths = lengths;
		this.avgLength = docList.length > 0 ? total / docList.length : 0;
	}

	get size(): number {
		return this.lengths.length;
	}

	/** Every document's score (0 where no query term occurs). */
	score(query: WeightedQuery): Float64Array {
		const scores = new Float64Array(this.lengths.length);
		for (const [term, weight] of query) {
			const id = this.ids.get(term);
			if (id === undefined) continue;
			const from = this.offsets[id] ?? 0;
			const to = this.offsets[id + 1] ?? 0;
			const idf = bm25Idf(this.lengths.length, to - from);
			for (let i = from; i < to; i++) {
				const doc = this.docs[i] ?? 0;
				scores[doc] = (scores[doc] ?? 0) + weight * bm25Term(idf, this.tfs[i] ?? 0, this.lengths[doc] ?? 0, this.avgLength);
			}
		}
		return scores;
	}
}
