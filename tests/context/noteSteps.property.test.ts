import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeTermIds, ENCODE_STEP, encodeTermIds, encodeTermIdsSteps, termIdsOf, termIdsWithin, textHash, textHashSteps } from "../../src/context/noteTerms";
import { compactText, compactTextSteps } from "../../src/context/noteText";
import { drain, type Steps } from "../../src/context/steps";

/** Runs steps to the end, counting them. */
function stepped<T>(steps: Steps<T>): { value: T; steps: number } {
	let n = 0;
	for (;;) {
		const r = steps.next();
		n++;
		if (r.done === true) return { value: r.value, steps: n };
	}
}

// The upsert's per-note steps over the whole text (hash, compact text, term ids) give what the
// one-task forms give, in many steps for a huge note.
describe("a note's hash, compact text and term ids, in steps", () => {
	it("textHashSteps is textHash", () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 300 }), (s) => {
				expect(drain(textHashSteps(s))).toBe(textHash(s));
			}),
		);
		const big = "漢字 abc 😀".repeat(300_000);
		const r = stepped(textHashSteps(big));
		expect(r.value).toBe(textHash(big));
		expect(r.steps).toBeGreaterThan(1);
	});

	it("compactTextSteps is compactText, a surrogate pair never split between steps", () => {
		const piece = fc.constantFrom("a", "é", "漢", "😀", "\ud800", "\udc00", " ", "—");
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 0, max: 3 }), (parts, shift) => {
				// Long enough to be encoded in several steps; the shift moves where the steps fall.
				const s = "a".repeat((1 << 20) - 20 + shift) + parts.join("").repeat(2);
				const got = drain(compactTextSteps(s));
				const want = compactText(s);
				expect(typeof got).toBe(typeof want);
				if (typeof want === "string") expect(got).toBe(want);
				else expect(Buffer.from(got as Uint8Array).equals(Buffer.from(want))).toBe(true);
			}),
			{ numRuns: 25 },
		);
	});

	it("a lone high surrogate right before a step's end, then a pair: the pair is not split (found by the property above)", () => {
		const s = "a".repeat((1 << 20) - 20) + ["😀", "😀", "a", "😀", "\ud800", "😀", "😀"].join("").repeat(2);
		const got = drain(compactTextSteps(s));
		expect(Buffer.from(got as Uint8Array).equals(Buffer.from(compactText(s) as Uint8Array))).toBe(true);
	});

	it("encodeTermIdsSteps is encodeTermIds, and termIdsOf reads back decodeTermIds", () => {
		fc.assert(
			fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 200 }), (ids) => {
				const set = new Set(ids);
				const bytes = drain(encodeTermIdsSteps(set, 5001));
				expect([...bytes]).toEqual([...encodeTermIds(set)]);
				expect([...termIdsOf(bytes)]).toEqual(decodeTermIds(bytes));
			}),
		);
		// A set large enough to be marked and read back in steps (no sort).
		const set = new Set<number>();
		for (let i = 0; i < ENCODE_STEP * 3; i++) set.add((i * 7919) % (ENCODE_STEP * 4));
		const r = stepped(encodeTermIdsSteps(set, ENCODE_STEP * 4));
		expect(Buffer.from(r.value).equals(Buffer.from(encodeTermIds(set)))).toBe(true);
		expect(r.steps).toBeGreaterThan(3);
		expect([...termIdsOf(r.value)]).toEqual(decodeTermIds(r.value));
	});
});

/** The check as it was first written (one id a generator step): the model the fast one must agree with. */
function* referenceWithin(bytes: Uint8Array, bound: number, every: number, seen: { ids: number }): Generator<void, boolean, void> {
	let prev = -1;
	let v = 0;
	let shift = 0;
	for (const b of bytes) {
		if (shift > 28) return false;
		v += (b & 127) * 2 ** shift;
		if (b >= 128) {
			shift += 7;
			continue;
		}
		prev += v + 1;
		if (prev >= bound) return false;
		v = 0;
		shift = 0;
		if (++seen.ids % every === 0) yield;
	}
	return shift === 0;
}

describe("termIdsWithin across many lists", () => {
	it("gives the reference check's answer and yields where it does, for any bytes (damaged ones too) and any bound", () => {
		const anyBytes = fc.oneof(
			fc.uint8Array({ maxLength: 60 }),
			fc.uniqueArray(fc.integer({ min: 0, max: 3_000_000 }), { maxLength: 40 }).map((ids) => encodeTermIds(ids)),
			fc.tuple(fc.uniqueArray(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 255 })).map(([ids, last]) => Uint8Array.from([...encodeTermIds(ids), last])),
		);
		fc.assert(
			fc.property(fc.array(anyBytes, { maxLength: 6 }), fc.integer({ min: 1, max: 3_000_001 }), fc.integer({ min: 1, max: 7 }), (lists, bound, every) => {
				const got = { ids: 0 };
				const want = { ids: 0 };
				for (const list of lists) {
					const a = stepped(termIdsWithin(list, bound, every, got));
					const b = stepped(referenceWithin(list, bound, every, want));
					expect(a).toEqual(b);
					// After damage the count of ids checked may differ (the reference counts as it goes): stop there, as a load does.
					if (!b.value) return;
					expect(got.ids).toBe(want.ids);
				}
			}),
			{ numRuns: 500 },
		);
	});

	it("yields every `every` ids counted over all the lists checked, not per list (a vault's small notes were checked in one task)", () => {
		const lists = Array.from({ length: 1000 }, (_, k) => encodeTermIds(new Set(Array.from({ length: 10 }, (_, i) => k + i * 7))));
		const seen = { ids: 0 };
		let yields = 0;
		for (const list of lists) {
			const steps = termIdsWithin(list, 10_000, 100, seen);
			for (let r = steps.next(); ; r = steps.next()) {
				if (r.done) {
					expect(r.value).toBe(true);
					break;
				}
				yields++;
			}
		}
		expect(seen.ids).toBe(10_000);
		expect(yields).toBe(100);
	});
});
