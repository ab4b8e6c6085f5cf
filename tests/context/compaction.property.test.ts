import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NoteIndex } from "../../src/context/NoteIndex";
import { indexInSlices } from "../../src/context/indexInSlices";
import { drain } from "../../src/context/steps";

// An index whose posting lists are encoded again at any point (compactSteps: about 1.5 bytes a
// posting in place of 4) answers, changes and saves exactly like one that never is: the same hits
// with the same scores, the same saved bytes, through upserts, removals and queries in any order.
const WORDS = ["alpha", "beta", "gamma", "delta", "omega", "kappa", "zeta", "theta", "漢字", "字典", "典籍", "데이터", "データ", "maxTokens"];
const textArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 40 }).map((words) => words.join(" ") + "\n\n" + words.slice().reverse().join(" "));

const opArb = fc.oneof(
	{ weight: 4, arbitrary: fc.record({ upsert: fc.nat({ max: 9 }), text: textArb }) },
	{ weight: 1, arbitrary: fc.record({ remove: fc.nat({ max: 9 }) }) },
	{ weight: 2, arbitrary: fc.record({ query: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }) }) },
	{ weight: 2, arbitrary: fc.record({ compact: fc.integer({ min: 1, max: 50 }) }) },
);

const hitsOf = (index: NoteIndex, query: string): [string, number, number | undefined][] => index.search(query, { limit: 20 }).map((h) => [h.id, h.score, h.start]);

describe("compacting the vault index's posting lists", () => {
	it("answers, changes and saves exactly like an index never compacted", () => {
		fc.assert(
			fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
				const compacted = new NoteIndex();
				const plain = new NoteIndex();
				let compactions = 0;
				for (const op of ops) {
					if ("upsert" in op) {
						compacted.upsert(`n${op.upsert}.md`, op.text);
						plain.upsert(`n${op.upsert}.md`, op.text);
					} else if ("remove" in op) {
						compacted.remove(`n${op.remove}.md`);
						plain.remove(`n${op.remove}.md`);
					} else if ("query" in op) {
						const q = op.query.join(" ");
						expect(hitsOf(compacted, q)).toEqual(hitsOf(plain, q));
					} else {
						expect(drain(compacted.compactSteps(op.compact))).toBe(true);
						expect(compacted.postingBytes.decoded).toBe(0);
						compactions++;
					}
				}
				for (const q of WORDS) expect(hitsOf(compacted, q)).toEqual(hitsOf(plain, q));
				expect(Buffer.from(compacted.toBinary()).equals(Buffer.from(plain.toBinary()))).toBe(true);
				expect(compacted.termCount).toBe(plain.termCount);
				return compactions >= 0;
			}),
			{ numRuns: 150 },
		);
	});

	it("a build in slices compacts once the decoded postings outgrow the encoded ones, and its index is the one a plain build makes", async () => {
		const notes = Array.from({ length: 1_500 }, (_, i) => ({ id: `notes/${i}.md`, text: Array.from({ length: 700 }, (_, k) => `w${(i * 31 + k * 7) % 5_000} common${k % 13}`).join(" ") }));
		const sliced = new NoteIndex({ keepText: false });
		await indexInSlices(sliced, notes, () => Promise.resolve(), { sliceMs: 1 });
		const plain = new NoteIndex({ keepText: false });
		for (const n of notes) plain.upsert(n.id, n.text);
		// Its pages passed 16 MB of decoded postings (they were encoded), and what is left decoded is under
		// 16 MB or a 32nd of the encoded.
		expect(sliced.postingBytes.encoded).toBeGreaterThan(0);
		expect(sliced.postingBytes.decoded).toBeLessThanOrEqual(Math.max(16 << 20, sliced.postingBytes.encoded / 32));
		expect(plain.postingBytes.encoded).toBe(0);
		for (const q of ["w17 common3", "w4999", "common12 w2500 w2501"]) expect(hitsOf(sliced, q)).toEqual(hitsOf(plain, q));
		expect(Buffer.from(sliced.toBinary()).equals(Buffer.from(plain.toBinary()))).toBe(true);
	});
});
