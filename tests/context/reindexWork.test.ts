import { afterEach, describe, expect, it } from "vitest";
import { NoteIndex } from "../../src/context/NoteIndex";

// Work counted in posting entries moved (TypedArray.prototype.copyWithin), not in time. Posting lists
// are ascending; a re-indexed note's postings inserted or removed in the middle of a common term's
// list move its whole tail, once per posting.
const typed = Object.getPrototypeOf(Uint8Array.prototype) as { copyWithin: (target: number, start: number, end?: number) => unknown };
const originalCopyWithin = typed.copyWithin;
let moved = 0;
afterEach(() => {
	typed.copyWithin = originalCopyWithin;
});

const note = (i: number, edit = ""): string =>
	Array.from({ length: 6 }, (_, p) => `## Part ${p}\n\nThe common words of the vault are here and there, in note ${i} part ${p}.${edit}\n`).join("\n");

describe("re-indexing one note", () => {
	it("moves each common term's list tail at most once, not once per posting", () => {
		const index = new NoteIndex();
		for (let i = 0; i < 3000; i++) index.upsert(`Notes/${i}.md`, note(i));
		typed.copyWithin = function (this: Uint32Array, target: number, start: number, end?: number) {
			moved += (end ?? this.length) - start;
			return originalCopyWithin.call(this, target, start, end);
		};
		let worst = 0;
		for (let k = 0; k < 20; k++) {
			moved = 0;
			index.upsert(`Notes/${(k * 149) % 3000}.md`, note(k, ` Edited ${k}.`));
			worst = Math.max(worst, moved);
		}
		typed.copyWithin = originalCopyWithin;
		// Each common term holds a posting in all 18,000 passages. Moving the tail once per posting
		// (inserted in the middle, removed passage by passage) moved 2.4 million entries here; once
		// per common term, for the removal only, is about 216,000.
		expect(worst).toBeLessThan(500_000);
		expect(index.search("edited 19", { limit: 1 })[0]?.id).toBe(`Notes/${(19 * 149) % 3000}.md`);
	}, 60_000);
});
