// BM25 over a fixed set of documents (the passages of one note), and the query side every BM25
// here shares: which terms a query has and how much each weighs. The vault index (NoteIndex.ts)
// keeps its own incremental postings but scores with the same `bm25Term`.
import { appendTerms, type CjkMode } from "./terms";

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
		for (const t of new Set(list)) out.set(t, Math.max(out.get(t) ?? 0, weight));
	};
	add(context, 1);
	add(message, messageWeight);
	return out;
}

/** Term frequencies of one document's terms. */
function frequencies(terms: readonly string[], into: Map<string, number>): Map<string, number> {
	into.clear();
	for (const t of terms) into.set(t, (into.get(t) ?? 0) + 1);
	return into;
}

/** An immutable BM25 index of documents given as term lists. */
export class Bm25Corpus {
	/** term → flat [doc, tf, doc, tf, ...], docs ascending. */
	private readonly postings = new Map<string, number[]>();
	private readonly lengths: Float64Array;
	private readonly avgLength: number;

	constructor(docs: readonly (readonly string[])[]) {
		this.lengths = new Float64Array(docs.length);
		let total = 0;
		const tf = new Map<string, number>();
		docs.forEach((terms, doc) => {
			this.lengths[doc] = terms.length;
			total += terms.length;
			for (const [term, n] of frequencies(terms, tf)) {
				const list = this.postings.get(term);
				if (list) list.push(doc, n);
				else this.postings.set(term, [doc, n]);
			}
		});
		this.avgLength = docs.length > 0 ? total / docs.length : 0;
	}

	get size(): number {
		return this.lengths.length;
	}

	/** Every document's score (0 where no query term occurs). */
	score(query: WeightedQuery): Float64Array {
		const scores = new Float64Array(this.lengths.length);
		for (const [term, weight] of query) {
			const list = this.postings.get(term);
			if (!list) continue;
			const idf = bm25Idf(this.lengths.length, list.length / 2);
			for (let i = 0; i < list.length; i += 2) {
				const doc = list[i] ?? 0;
				scores[doc] = (scores[doc] ?? 0) + weight * bm25Term(idf, list[i + 1] ?? 0, this.lengths[doc] ?? 0, this.avgLength);
			}
		}
		return scores;
	}
}
