import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutPassages, cutPassagesSteps } from "../../src/context/passages";
import { NoteIndex } from "../../src/context/NoteIndex";
import { expectTiling } from "../support/passageTiling";

// Pathological pieces: long lines, no spaces, CJK without punctuation, surrogate pairs, CRLF.
const pieceArb = fc.oneof(
	fc.string({ maxLength: 200 }),
	fc.constantFrom("# Title", "## Part", "```js", "```", "\r\n", "\r\n\r\n", "\n\n", "| a | b |\n|---|---|\n| 1 | 2 |"),
	fc.integer({ min: 500, max: 6000 }).map((n) => "x".repeat(n)),
	fc.integer({ min: 200, max: 3000 }).map((n) => "漢字仮名".repeat(n).slice(0, n)),
	fc.integer({ min: 100, max: 2000 }).map((n) => "😀𠀋".repeat(n)),
	fc.integer({ min: 50, max: 1500 }).map((n) => "word ".repeat(n).replace(/ $/, "\r\n")),
	fc.integer({ min: 100, max: 4000 }).map((n) => `{"k":${"1,".repeat(n)}0}`),
);
const noteArb = fc.array(pieceArb, { maxLength: 12 }).map((parts) => parts.join(""));

describe("slicing properties", () => {
	it("passages cover the note exactly: consecutive, no overlap, nothing dropped, never inside a surrogate pair", () => {
		fc.assert(
			fc.property(noteArb, (text) => {
				const ps = cutPassages(text);
				expectTiling(text, ps, { surrogates: true });
				expect(ps.map((p) => text.slice(p.start, p.end)).join("")).toBe(text);
			}),
			{ numRuns: 150 },
		);
	});

	it("the cut in steps is the cut in one go", () => {
		fc.assert(
			fc.property(noteArb, (text) => {
				const steps = cutPassagesSteps(text);
				let r = steps.next();
				while (r.done !== true) r = steps.next();
				expect(r.value).toEqual(cutPassages(text));
			}),
			{ numRuns: 60 },
		);
	});

	it("the index answers the same whether notes were indexed whole or in slices of any size, interleaved", () => {
		const queries = ["word", "x", "漢字", "title part", "😀𠀋", "k"];
		fc.assert(
			fc.property(fc.array(noteArb, { minLength: 1, maxLength: 4 }), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 8 }), (notes, slices) => {
				const whole = new NoteIndex();
				notes.forEach((text, i) => whole.upsert(`n${i}.md`, text));
				// Sliced: every note's steps run a few at a time, the notes' steps interleaved.
				const sliced = new NoteIndex();
				const running = notes.map((text, i) => sliced.upsertSteps(`n${i}.md`, text));
				const done = running.map(() => false);
				for (let k = 0; done.some((d) => !d); k++) {
					const i = k % running.length;
					if (done[i]) continue;
					for (let s = 0; s < (slices[k % slices.length] ?? 1); s++) {
						if (running[i]?.next().done === true) {
							done[i] = true;
							break;
						}
					}
				}
				for (const q of queries) expect(sliced.search(q, { limit: 50 })).toEqual(whole.search(q, { limit: 50 }));
				expect(sliced.passageCount).toBe(whole.passageCount);
				expect(sliced.termCount).toBe(whole.termCount);
			}),
			{ numRuns: 40 },
		);
	});
});
