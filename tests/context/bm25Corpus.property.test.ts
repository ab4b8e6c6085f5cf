import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Bm25Corpus, bm25Idf, bm25Term, type WeightedQuery } from "../../src/context/bm25";
import { drain } from "../../src/context/steps";

const termArb = fc.constantFrom("a", "b", "会話", "話の", "世界", "x~", "long-term", "z");

/** BM25 straight from its definition, one document at a time. */
function reference(docs: readonly (readonly string[])[], query: WeightedQuery): number[] {
	const avg = docs.length > 0 ? docs.reduce((s, d) => s + d.length, 0) / docs.length : 0;
	return docs.map((d) => {
		let score = 0;
		for (const [term, weight] of query) {
			const tf = d.filter((t) => t === term).length;
			if (tf === 0) continue;
			const df = docs.filter((x) => x.includes(term)).length;
			score += weight * bm25Term(bm25Idf(docs.length, df), tf, d.length, avg);
		}
		return score;
	});
}

describe("Bm25Corpus", () => {
	it("scores every document as BM25's definition does, built whole or in steps", () => {
		fc.assert(
			fc.property(fc.array(fc.array(termArb, { maxLength: 12 }), { maxLength: 12 }), fc.array(fc.tuple(termArb, fc.constantFrom(0.5, 1, 2)), { maxLength: 4 }), (docs, q) => {
				const query: WeightedQuery = new Map(q);
				const expected = reference(docs, query);
				for (const corpus of [new Bm25Corpus(docs), drain(Bm25Corpus.build(docs))]) {
					const scores = [...corpus.score(query)];
					expect(scores.length).toBe(expected.length);
					scores.forEach((s, i) => expect(s).toBeCloseTo(expected[i] ?? 0, 9));
				}
			}),
			{ numRuns: 200 },
		);
	});

	it("indexes a corpus of 300,000 distinct terms (a CJK note without punctuation) and finds each", () => {
		const docs: string[][] = [];
		for (let d = 0; d < 300; d++) docs.push(Array.from({ length: 1000 }, (_, k) => String.fromCharCode(0x4e00 + d, 0x4e00 + (k % 1000))));
		const corpus = new Bm25Corpus(docs);
		const scores = corpus.score(new Map([[String.fromCharCode(0x4e00 + 123, 0x4e00 + 7), 1]]));
		expect(scores.findIndex((s) => s > 0)).toBe(123);
		expect(scores.filter((s) => s > 0)).toHaveLength(1);
	});
});
