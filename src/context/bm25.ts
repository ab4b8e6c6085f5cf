// BM25 over a fixed set of documents (the passages of one note), and the query side every BM25
// here shares: which terms a query has and how much each weighs. The vault index (NoteIndex.ts)
// keeps its own incremental postings but scores with the same `bm25Term`.
import { PagedInt32 } from "./paged";
import { drain, type Steps } from "./steps";
import { TermTable } from "./termTable";
import { appendTerms, identifierTerms, PREFIX_MARK, type CjkMode } from "./terms";

/** A note's corpus starts its columns at this many entries (most notes are small; a page is 65,536). */
const SMALL_FIRST = 64;

/** A prefix term (terms.ts) in a query counts this much of a whole word: it matches more loosely. */
export const PREFIX_WEIGHT = 0.5;
/**
 * A part of an identifier in a query ("non" and "free" of "non-free", "max" and "tokens" of
 * "maxTokens") counts this much of a word. A text that has the identifier has its parts too, so
 * at full weight one hyphenated word of the query counted three times (and twice more as
 * neighbour pairs, noteRanking.ts): a common one outweighed the query's rare word.
 */
export const PART_WEIGHT = 0.5;

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * Inverse document frequency, the non-negative BM25 form. A frequency over the count is taken as the
 * count: the vault index's lists still hold the passages of a note being replaced, which the count
 * leaves out, and a negative idf would make a term lower the score of the notes that hold it.
 */
export function bm25Idf(docCount: number, docFreq: number): number {
	const df = Math.min(docFreq, docCount);
	return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
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
 * a query is a few words, and repeats rarely mean more. Prefix terms and identifiers' parts count
 * less (PREFIX_WEIGHT, PART_WEIGHT).
 */
export function weightedQuery(message: string, context = "", messageWeight = 2, mode: CjkMode = "bigram"): WeightedQuery {
	const out: WeightedQuery = new Map();
	const add = (text: string, weight: number): void => {
		const list: string[] = [];
		appendTerms(text, list, mode);
		const parts = new Set([...identifierTerms(text).values()].flat());
		for (const t of new Set(list)) {
			const w = t.endsWith(PREFIX_MARK) ? weight * PREFIX_WEIGHT : parts.has(t) ? weight * PART_WEIGHT : weight;
			out.set(t, Math.max(out.get(t) ?? 0, w));
		}
	};
	add(context, 1);
	add(message, messageWeight);
	return out;
}

/**
 * An immutable BM25 index of documents given as term lists. Built in two passes over flat columns
 * (term ids, then each term's documents grouped): a 1 MB note has ~130k terms, and a Map of growing
 * arrays per term cost several times more in allocation and garbage. The term → id table and the
 * columns grow in steps (termTable.ts, paged.ts): a JS Map rehashed every term at once when it grew,
 * and a CJK note without punctuation brings a new term every character or two (a 0.5 MB one made a
 * task of about 100 ms, a 4 MB one of several hundred).
 */
/** Terms counted between two steps of a corpus build. */
const CORPUS_STEP = 25_000;

export class Bm25Corpus {
	private ids = new TermTable(SMALL_FIRST);
	/** Per term id: where its postings start in `docs`/`tfs` (the next id's start ends them). */
	private offsets = new PagedInt32(SMALL_FIRST);
	private docs = new PagedInt32(SMALL_FIRST);
	private tfs = new PagedInt32(SMALL_FIRST);
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
		const ids = new TermTable(SMALL_FIRST);
		const lengths = new Float64Array(docList.length);
		let total = 0;
		const occurrences = new PagedInt32(SMALL_FIRST);
		let k = 0;
		let work = 0;
		const df = new PagedInt32(SMALL_FIRST);
		/** Per term id: the last document it was counted in, + 1. */
		const lastDoc = new PagedInt32(SMALL_FIRST);
		for (let doc = 0; doc < docList.length; doc++) {
			const terms = docList[doc] ?? [];
			lengths[doc] = terms.length;
			total += terms.length;
			for (const term of terms) {
				const id = ids.get(term) ?? ids.add(term);
				occurrences.set(k++, id);
				if (lastDoc.get(id) !== doc + 1) {
					lastDoc.set(id, doc + 1);
					df.set(id, df.get(id) + 1);
				}
			}
			work += terms.length;
			if (work >= CORPUS_STEP) {
				work = 0;
				yield;
			}
		}
		const termCount = ids.size;
		const offsets = new PagedInt32(SMALL_FIRST);
		// Each term's next free slot, from its start on.
		const fill = new PagedInt32(SMALL_FIRST);
		for (let t = 0; t < termCount; t++) {
			const at = offsets.get(t);
			fill.set(t, at);
			offsets.set(t + 1, at + df.get(t));
			if (t % CORPUS_STEP === CORPUS_STEP - 1) yield;
		}
		const docs = new PagedInt32(SMALL_FIRST);
		const tfs = new PagedInt32(SMALL_FIRST);
		// Second pass: a term seen again in the same document adds to its frequency.
		k = 0;
		for (let doc = 0; doc < docList.length; doc++) {
			const count = docList[doc]?.length ?? 0;
			for (let j = 0; j < count; j++) {
				const id = occurrences.get(k++);
				const at = fill.get(id);
				if (at > offsets.get(id) && docs.get(at - 1) === doc) tfs.set(at - 1, tfs.get(at - 1) + 1);
				else {
					docs.set(at, doc);
					tfs.set(at, 1);
					fill.set(id, at + 1);
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
			const from = this.offsets.get(id);
			const to = this.offsets.get(id + 1);
			const idf = bm25Idf(this.lengths.length, to - from);
			for (let i = from; i < to; i++) {
				const doc = this.docs.get(i);
				scores[doc] = (scores[doc] ?? 0) + weight * bm25Term(idf, this.tfs.get(i), this.lengths[doc] ?? 0, this.avgLength);
			}
		}
		return scores;
	}
}
