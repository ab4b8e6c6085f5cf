import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NoteIndex } from "../../src/context/NoteIndex";
import { NoteRanker, kthLargest, type RankOptions, type RankSource } from "../../src/context/noteRanking";
import { TF_SLOTS } from "../../src/context/noteIndexFormat";

// Random small indexes given straight as posting lists: a few notes of a few passages, some passages
// no longer indexed (slot −1), terms from very rare to held by most passages, tf up to a few.
interface Case {
	docSlot: number[];
	docLength: number[];
	lists: Map<string, Uint32Array>;
	query: Map<string, number>;
	pairs: [string, string][];
	k: number;
}

const TERMS = ["a", "b", "c", "d", "e", "f", "g", "h"];

const caseArb: fc.Arbitrary<Case> = fc
	.record({
		notes: fc.integer({ min: 1, max: 14 }),
		passages: fc.array(fc.record({ note: fc.nat(), length: fc.integer({ min: 0, max: 60 }) }), { minLength: 1, maxLength: 50 }),
		// Per term, the share of passages that hold it (0.02 … 0.9) and a seed for which ones.
		spread: fc.array(fc.record({ share: fc.double({ min: 0.02, max: 0.9, noNaN: true }), seed: fc.array(fc.nat({ max: 99 }), { minLength: 50, maxLength: 50 }), tf: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 50, maxLength: 50 }) }), { minLength: TERMS.length, maxLength: TERMS.length }),
		weights: fc.array(fc.constantFrom(0, 0.5, 1, 1.6, 2), { minLength: TERMS.length, maxLength: TERMS.length }),
		dead: fc.array(fc.boolean(), { minLength: 50, maxLength: 50 }),
		pairs: fc.array(fc.tuple(fc.constantFrom(...TERMS), fc.constantFrom(...TERMS)), { maxLength: 6 }),
		k: fc.integer({ min: 1, max: 5 }),
	})
	.map(({ notes, passages, spread, weights, dead, pairs, k }) => {
		const docSlot = passages.map((p, i) => (dead[i] === true && i % 4 === 0 ? -1 : p.note % notes));
		const docLength = passages.map((p) => p.length);
		const lists = new Map<string, Uint32Array>();
		TERMS.forEach((t, ti) => {
			const s = spread[ti];
			if (!s) return;
			const values: number[] = [];
			passages.forEach((_, doc) => {
				if ((s.seed[doc] ?? 0) < s.share * 100) values.push(doc * TF_SLOTS + (s.tf[doc] ?? 1));
			});
			if (values.length > 0) lists.set(t, Uint32Array.from(values));
		});
		const query = new Map<string, number>();
		TERMS.forEach((t, ti) => {
			const w = weights[ti] ?? 0;
			if (w > 0) query.set(t, w);
		});
		return { docSlot, docLength, lists, query, pairs: pairs.filter(([a, b]) => a !== b), k };
	});

function sourceOf(c: Case): RankSource {
	const live = c.docSlot.filter((s) => s >= 0).length;
	const total = c.docLength.reduce((s, l, i) => s + ((c.docSlot[i] ?? -1) >= 0 ? l : 0), 0);
	return { postings: (t) => c.lists.get(t), docCount: Math.max(1, live), avgLength: live > 0 ? total / live : 1, docLength: c.docLength, docSlot: c.docSlot, noteSlots: Math.max(0, ...c.docSlot) + 1 };
}

/** Every ranked note with its score and its passages' scores, in order. */
function ranked(ranker: NoteRanker, c: Case, options: RankOptions): unknown[] {
	return ranker.rank(c.query, sourceOf(c), c.k, (a, b) => a < b, c.pairs, options).map((r) => ({ slot: r.slot, score: r.score, passages: [...r.docs].sort((x, y) => x - y).map((d) => [d, r.passageScore(d)]) }));
}

const samePruned = (ranker: NoteRanker, scale: number) =>
	fc.property(caseArb, (c) => {
		const exhaustive = ranked(ranker, c, { exhaustive: true });
		expect(ranked(ranker, c, { boundScale: scale })).toEqual(exhaustive);
	});

describe("note ranking with max-score pruning", () => {
	it("returns the same top k notes, with the same scores and passage scores, as scoring every term for every note", () => {
		const ranker = new NoteRanker();
		let pruned = 0;
		fc.assert(
			fc.property(caseArb, (c) => {
				const exhaustive = ranked(ranker, c, { exhaustive: true });
				expect(ranker.lastStats.candidateTerms).toBe(0);
				expect(ranked(ranker, c, {})).toEqual(exhaustive);
				if (ranker.lastStats.candidateTerms > 0) pruned++;
			}),
			{ numRuns: 400 },
		);
		// The property is worth something only if pruning happened in a fair share of the cases.
		expect(pruned).toBeGreaterThan(40);
	});

	it("the property sees a wrong bound: terms' bounds scaled below their true maximum give other results", () => {
		expect(() => fc.assert(samePruned(new NoteRanker(), 0.3), { numRuns: 400 })).toThrow();
	});

	it("kthLargest is the k-th value of the list sorted high to low", () => {
		fc.assert(
			fc.property(fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 40 }), fc.nat(), (values, at) => {
				const k = 1 + (at % values.length);
				const sorted = [...values].sort((a, b) => b - a);
				expect(kthLargest(Float64Array.from(values), values.length, k)).toBe(sorted[k - 1]);
			}),
		);
	});

	it("in a real index, a query of rare and common words, or CJK pairs, prunes and answers as the exhaustive ranking", () => {
		const index = new NoteIndex();
		const common = ["river", "stone", "lantern", "orchard", "meadow", "harbour"];
		for (let i = 0; i < 300; i++) {
			const words = Array.from({ length: 30 }, (_, j) => common[(i * 7 + j * 3) % common.length] ?? "");
			const rare = i % 30 === 0 ? ` zq${i}word` : "";
			index.upsert(`n/${i}.md`, `# Note ${i}\n\n${words.join(" ")}${rare}\n\n東京の川と石の灯籠${i % 11 === 0 ? "星降る夜" : ""}`);
		}
		const ranker = (index as unknown as { ranker: NoteRanker }).ranker;
		const options: RankOptions[] = [];
		const original = ranker.rank.bind(ranker);
		ranker.rank = (q, src, k, before, pairs, opts) => original(q, src, k, before, pairs, { ...opts, ...options[0] });
		for (const query of ["zq60word river stone", "river lantern meadow", "東京の灯籠星降る夜", "lantern orchard zq90word harbour"]) {
			options[0] = { exhaustive: true };
			const exhaustive = index.search(query, { limit: 5 });
			options[0] = {};
			expect(index.search(query, { limit: 5 }), query).toEqual(exhaustive);
		}
		options[0] = {};
		index.search("zq60word river stone", { limit: 3 });
		expect(ranker.lastStats.candidateTerms).toBeGreaterThan(0);
	});
});
