// A long note's tokens are counted in pieces, a piece a step (passageCache's estimateSteps, which
// preparePassages runs in slices when a note or PDF becomes a source). The estimator's code runs
// slower before the JIT has compiled it, so the first piece is small and each next one at most
// twice the last. Whatever the pacing, the pieces tile the text: in order, no gap, no overlap,
// never between the two halves of a surrogate pair.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateSteps, FIRST_ESTIMATE_CHARS, ESTIMATE_STEP_CHARS } from "../../src/context/passageCache";
import { drain } from "../../src/context/steps";

/** The pieces the estimator is handed, in order, and the steps taken. */
function pieces(text: string): { pieces: string[]; steps: number; total: number; approximate: boolean } {
	const seen: string[] = [];
	const gen = estimateSteps(text, (t) => {
		seen.push(t);
		return t.length;
	});
	let steps = 0;
	for (;;) {
		const r = gen.next();
		if (r.done === true) return { pieces: seen, steps, total: r.value.total, approximate: r.value.approximate === true };
		steps++;
	}
}

describe("estimateSteps", () => {
	it("hands the estimator a small first piece, then pieces that at most double, up to the step's size", () => {
		const line = "The keeper wrote the tide tables by lamplight, and the harbour master signed them at dawn.\n";
		const text = line.repeat(Math.ceil(1_000_000 / line.length));
		const { pieces: seen, steps, total } = pieces(text);
		expect(seen.join("")).toBe(text);
		expect(total).toBe(text.length);
		expect(seen[0]?.length).toBeLessThanOrEqual(FIRST_ESTIMATE_CHARS);
		for (let i = 1; i < seen.length; i++) expect(seen[i]?.length ?? 0).toBeLessThanOrEqual(Math.min(ESTIMATE_STEP_CHARS, 2 * FIRST_ESTIMATE_CHARS * 2 ** (i - 1)) + 1);
		// One yield a piece: each piece is its own step.
		expect(steps).toBe(seen.length);
	});

	it("counts a short note whole, in one go", () => {
		const text = "A short note.\n".repeat(100);
		expect(pieces(text)).toEqual({ pieces: [text], steps: 0, total: text.length, approximate: false });
	});

	it("tiles any text: in order, no gap, no overlap, no piece starting inside a surrogate pair", () => {
		const unit = fc.array(fc.oneof(fc.constantFrom("\n", " ", "a", "é", "港", "😀", "\u{20000}"), fc.string({ maxLength: 12 })), { minLength: 1, maxLength: 40 }).map((parts) => parts.join("")).filter((u) => u.length > 0);
		fc.assert(
			fc.property(unit, fc.integer({ min: 1, max: 700_000 }), (u, length) => {
				const text = u.repeat(Math.ceil(length / u.length));
				const { pieces: seen } = pieces(text);
				expect(seen.join("")).toBe(text);
				let at = 0;
				for (const piece of seen) {
					expect(piece.length).toBeGreaterThan(0);
					const before = text.charCodeAt(at - 1);
					expect(at > 0 && before >= 0xd800 && before <= 0xdbff).toBe(false);
					at += piece.length;
				}
				expect(drain(estimateSteps(text, (t) => t.length)).total).toBe(text.length);
			}),
			{ numRuns: 60 },
		);
	});
});
