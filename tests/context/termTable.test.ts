import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { NoteIndex } from "../../src/context/NoteIndex";
import { MOVE_BUCKETS, TermTable } from "../../src/context/termTable";
import { PagedList } from "../../src/context/paged";
import { seededRandom } from "../support/random";

// Work counted in table entries copied or rehashed, not in time (tests never assert timings).
// A typed array grown by doubling copies every entry (TypedArray.prototype.set); a Map or Set that
// reaches a power-of-two size rehashes every entry (V8 doubles its table there).
const typedSet = Object.getPrototypeOf(Uint8Array.prototype) as { set: (source: ArrayLike<number>, offset?: number) => void };
const originalTypedSet = typedSet.set;
const originalMapSet = Object.getOwnPropertyDescriptor(Map.prototype, "set")?.value as Map<unknown, unknown>["set"];
const originalSetAdd = Object.getOwnPropertyDescriptor(Set.prototype, "add")?.value as Set<unknown>["add"];
let counted = 0;
const isBigPowerOfTwo = (n: number): boolean => n >= 1 << 16 && (n & (n - 1)) === 0;

function countTableWork(): void {
	typedSet.set = function (this: Uint8Array, source: ArrayLike<number>, offset?: number) {
		counted += source.length;
		return originalTypedSet.call(this, source, offset);
	};
	Map.prototype.set = function <K, V>(this: Map<K, V>, key: K, value: V) {
		const r = originalMapSet.call(this, key, value) as Map<K, V>;
		if (isBigPowerOfTwo(this.size)) counted += this.size;
		return r;
	};
	Set.prototype.add = function <T>(this: Set<T>, value: T) {
		const r = originalSetAdd.call(this, value) as Set<T>;
		if (isBigPowerOfTwo(this.size)) counted += this.size;
		return r;
	};
}

afterEach(() => {
	typedSet.set = originalTypedSet;
	Map.prototype.set = originalMapSet;
	Set.prototype.add = originalSetAdd;
});

describe("the index's term table grows in steps", () => {
	it("a CJK note without punctuation (300,000 new character pairs): no step of its upsert copies or rehashes more than 100,000 entries", () => {
		const r = seededRandom(2);
		let text = "";
		while (text.length < 300_000) text += String.fromCharCode(0x4e00 + Math.floor(r() * 3000));
		const index = new NoteIndex();
		countTableWork();
		const steps = index.upsertSteps("clipping.md", text);
		let worst = 0;
		for (;;) {
			counted = 0;
			const done = steps.next().done === true;
			worst = Math.max(worst, counted);
			if (done) break;
		}
		expect(index.termCount).toBeGreaterThan(270_000);
		// A Map of term ids, a Set of the note's ids or a column grown by doubling moves 131,072 or 262,144 at once here.
		expect(worst).toBeLessThanOrEqual(100_000);
		expect(index.search(text.slice(150_000, 150_006), { limit: 1 })[0]?.id).toBe("clipping.md");
	}, 60_000);

	it("no add or lookup moves more than a few buckets' chains, at any size", () => {
		const table = new TermTable();
		let worst = 0;
		for (let i = 0; i < 300_000; i++) {
			table.add(`t${i.toString(36)}`);
			worst = Math.max(worst, table.lastMoved);
			if (i % 3 === 0) {
				table.get(`t${(i >> 1).toString(36)}`);
				worst = Math.max(worst, table.lastMoved);
			}
		}
		expect(table.size).toBe(300_000);
		// About one entry per bucket: MOVE_BUCKETS buckets move a handful of entries, never the table.
		expect(worst).toBeLessThanOrEqual(MOVE_BUCKETS * 6);
		for (let i = 0; i < 300_000; i += 997) expect(table.get(`t${i.toString(36)}`)).toBe(i);
	});

	it("behaves as a Map from term to id, ids reused after a delete (property)", () => {
		type Op = { kind: "add" | "delete" | "get"; term: string };
		const op = fc.record({ kind: fc.constantFrom<Op["kind"]>("add", "delete", "get"), term: fc.string({ maxLength: 4 }) });
		fc.assert(
			fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
				const table = new TermTable();
				const model = new Map<string, number>();
				for (const { kind, term } of ops) {
					const id = table.get(term);
					expect(id).toBe(model.get(term));
					if (kind === "add" && id === undefined) {
						const added = table.add(term);
						expect([...model.values()]).not.toContain(added);
						model.set(term, added);
					} else if (kind === "delete" && id !== undefined) {
						table.delete(id);
						model.delete(term);
					}
					expect(table.size).toBe(model.size);
				}
				expect(new Map(table.entries())).toEqual(model);
				for (const [term, id] of model) expect(table.nameOf(id)).toBe(term);
			}),
			{ numRuns: 60 },
		);
	});

	it("a paged list keeps what is pushed, in order, across pages", () => {
		const list = new PagedList();
		const n = 200_000;
		for (let i = 0; i < n; i++) list.push((i * 7919) % 1_000_003);
		expect(list.size).toBe(n);
		expect([...list]).toEqual(Array.from({ length: n }, (_, i) => (i * 7919) % 1_000_003));
	});

	it("a paged list copied whole holds what iterating it gives, at every size across the first page's doublings and whole pages", () => {
		for (const n of [0, 1, 63, 64, 65, 1000, 65_535, 65_536, 65_537, 140_000]) {
			const list = new PagedList();
			for (let i = 0; i < n; i++) list.push((i * 7919) % 1_000_003);
			const copy = list.toUint32Array();
			expect(copy.length).toBe(n);
			expect(Array.from(copy)).toEqual([...list]);
		}
	});
});
