import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readPostings, TF_SLOTS } from "../../src/context/lazyPostings";
import { ByteWriter, CHUNK_BYTES } from "../../src/context/binaryCodec";
import { PostingPool } from "../../src/context/postingPool";
import { drain } from "../../src/context/steps";

/**
 * The saved layout written the plain way, as the reference for ByteWriter.postings: per posting, a
 * varint of (passage − previous passage) × 2 + (tf ≠ 1), then the tf when it is not 1.
 */
function writePostings(values: ArrayLike<number>, varint: (v: number) => void, prev = 0): void {
	for (let i = 0; i < values.length; i++) {
		const v = values[i] ?? 0;
		const doc = Math.floor(v / TF_SLOTS);
		const tf = v % TF_SLOTS;
		varint((doc - prev) * 2 + (tf !== 1 ? 1 : 0));
		if (tf !== 1) varint(tf);
		prev = doc;
	}
}

// The pool against a model (plain sorted arrays), lists starting in saved bytes (loadLazy), with
// passage ids handed out as noteTables.ts does (mostly past the others, freed ones reused), a removed
// group's ids retired before their postings are removed, and lists read between the removals.
const LISTS = 5;

const opArb = fc.oneof(
	fc.record({ add: fc.array(fc.tuple(fc.nat({ max: LISTS - 1 }), fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 4 }), reuse: fc.boolean() }),
	fc.record({ drop: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), readBetween: fc.option(fc.nat({ max: LISTS - 1 }), { nil: undefined }) }),
	fc.record({ read: fc.nat({ max: LISTS - 1 }), how: fc.constantFrom("view", "peek", "count") }),
	// Encode every list again (compactSteps), a posting a step; `interrupt`: a posting added after the first step (the compaction must give up, changing nothing).
	fc.record({ compact: fc.constant(true), interrupt: fc.option(fc.nat({ max: LISTS - 1 }), { nil: undefined }) }),
);

describe("PostingPool", () => {
	it("lists still in the saved bytes, or compacted into new ones, read, count and change exactly like decoded ones (ascending, no removed entry, a reused id never gets its old postings back)", () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.array(fc.tuple(fc.nat({ max: 11 }), fc.integer({ min: 1, max: 3 })), { maxLength: 12 }), { minLength: LISTS, maxLength: LISTS }), fc.array(opArb, { maxLength: 30 }), (passages, saved, ops) => {
				// The model: per list, doc → tf; per live doc, the lists it is in.
				const model: Map<number, number>[] = saved.map((entries) => new Map(entries.filter(([d]) => d < passages)));
				const docLists = new Map<number, Set<number>>();
				for (let d = 0; d < passages; d++) docLists.set(d, new Set());
				model.forEach((m, list) => {
					for (const d of m.keys()) docLists.get(d)?.add(list);
				});
				const free: number[] = [];
				let next = passages;
				const pool = new PostingPool();
				const chunks: number[] = [];
				const where: [number, number, number][] = [];
				for (const m of model) {
					const values = [...m].sort((a, b) => a[0] - b[0]).map(([d, tf]) => d * TF_SLOTS + tf);
					const at = chunks.length;
					writePostings(values, (v) => {
						for (;;) {
							if (v < 128) {
								chunks.push(v);
								return;
							}
							chunks.push((v % 128) | 128);
							v = Math.floor(v / 128);
						}
					});
					where.push([values.length, at, chunks.length - at]);
				}
				pool.setSource({ bytes: Uint8Array.from(chunks), passages });
				where.forEach(([count, at, bytes], list) => pool.loadLazy(list, count, at, bytes));
				const expected = (list: number): number[] => [...(model[list] as Map<number, number>)].sort((a, b) => a[0] - b[0]).map(([d, tf]) => d * TF_SLOTS + tf);
				for (const op of ops) {
					if ("add" in op) {
						const doc = op.reuse && free.length > 0 ? (free.pop() as number) : next++;
						const lists = new Set<number>();
						for (const [list, tf] of op.add) {
							if (lists.has(list)) continue;
							lists.add(list);
							pool.insert(list, doc * TF_SLOTS + tf);
							model[list]?.set(doc, tf);
						}
						docLists.set(doc, lists);
					} else if ("drop" in op) {
						const live = [...docLists.keys()].sort((a, b) => a - b);
						if (live.length === 0) continue;
						const group = [...new Set(op.drop.map((i) => live[i % live.length] as number))].sort((a, b) => a - b);
						const lists = new Set(group.flatMap((d) => [...(docLists.get(d) ?? [])]));
						pool.retire(group);
						const lo = group[0] as number;
						const hi = group[group.length - 1] as number;
						for (const list of [...lists].sort((a, b) => a - b)) {
							if (op.readBetween !== undefined) expect([...pool.view(op.readBetween)].length).toBeLessThanOrEqual(expected(op.readBetween).length + group.length);
							const held = group.length === 1 ? pool.removeRange(list, lo * TF_SLOTS, (lo + 1) * TF_SLOTS) : pool.removeWhere(list, lo * TF_SLOTS, (hi + 1) * TF_SLOTS, (v) => group.includes(Math.floor(v / TF_SLOTS))).held;
							for (const d of group) model[list]?.delete(d);
							expect(held).toBe((model[list]?.size ?? 0) > 0);
						}
						for (const d of group) {
							docLists.delete(d);
							free.push(d);
						}
					} else if ("compact" in op) {
						const steps = pool.compactSteps(next, 1);
						const first = op.interrupt !== undefined ? steps.next() : undefined;
						if (first !== undefined && first.done !== true && op.interrupt !== undefined) {
							// A new passage's posting between two steps: the compaction gives up.
							const doc = next++;
							pool.insert(op.interrupt, doc * TF_SLOTS + 1);
							model[op.interrupt]?.set(doc, 1);
							docLists.set(doc, new Set([op.interrupt]));
							expect(drain(steps)).toBe(false);
						} else {
							expect(first === undefined ? drain(steps) : first.value).toBe(true);
							expect(pool.decodedBytes).toBe(0);
						}
					} else if (op.how === "count") expect(pool.count(op.read)).toBe(expected(op.read).length);
					else expect([...(op.how === "view" ? pool.view(op.read) : pool.peek(op.read))]).toEqual(expected(op.read));
				}
				for (let list = 0; list < LISTS; list++) {
					expect([...pool.peek(list)]).toEqual(expected(list));
					expect(pool.count(list)).toBe(expected(list).length);
					expect([...pool.view(list)]).toEqual(expected(list));
				}
				expect(pool.undecoded).toBe(0);
			}),
			{ numRuns: 500 },
		);
	});
});

describe("readPostings", () => {
	const listArb = fc.array(fc.tuple(fc.integer({ min: 1, max: 300 }), fc.oneof(fc.constant(1), fc.integer({ min: 0, max: TF_SLOTS - 1 }))), { maxLength: 60 }).map((steps) => {
		let doc = -1;
		return steps.map(([gap, tf]) => (doc += gap) * TF_SLOTS + tf);
	});
	const bytesOf = (values: number[]): Uint8Array => {
		const out: number[] = [];
		writePostings(values, (v) => {
			while (v >= 128) {
				out.push((v % 128) | 128);
				v = Math.floor(v / 128);
			}
			out.push(v);
		});
		return Uint8Array.from(out);
	};

	it("ByteWriter.postings writes what writePostings writes, from any previous passage, across its chunks", () => {
		fc.assert(
			fc.property(listArb, fc.nat({ max: 5 }), fc.nat({ max: 7 }), (values, prevBack, shift) => {
				const first = values.length > 0 ? Math.floor((values[0] as number) / TF_SLOTS) : 0;
				const prev = Math.max(0, first - 1 - prevBack);
				const want: number[] = [];
				const w = new ByteWriter();
				// Most of a chunk filled first: the list's varints cross into the next one.
				const fill = CHUNK_BYTES - 8 + shift;
				for (let k = 0; k < fill; k += 1024) w.copy(new Uint8Array(Math.min(1024, fill - k)));
				writePostings(
					values,
					(v) => {
						while (v >= 128) {
							want.push((v % 128) | 128);
							v = Math.floor(v / 128);
						}
						want.push(v);
					},
					prev,
				);
				w.postings(values, prev);
				const all = Buffer.concat(w.all());
				expect(w.all().length).toBeGreaterThan(want.length > 8 ? 1 : 0);
				expect([...all.subarray(fill)]).toEqual(want);
			}),
			{ numRuns: 300 },
		);
	});

	it("reads back what writePostings wrote, leaving out the skipped passages", () => {
		fc.assert(
			fc.property(listArb, fc.array(fc.nat({ max: 20_000 }), { maxLength: 10 }), (values, skipped) => {
				const bytes = bytesOf(values);
				const passages = 20_000;
				const skip = new Uint8Array(passages);
				for (const d of skipped) skip[d] = 1;
				expect([...readPostings({ bytes, passages }, 0, bytes.length, values.length)]).toEqual(values);
				expect([...readPostings({ bytes, passages }, 0, bytes.length, values.length, skip)]).toEqual(values.filter((v) => skip[Math.floor(v / TF_SLOTS)] !== 1));
			}),
			{ numRuns: 300 },
		);
	});

	it("damaged bytes give a prefix of ascending, in-range postings, never a throw", () => {
		fc.assert(
			fc.property(listArb, fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 20_000 }), fc.nat({ max: 80 }), (values, flips, passages, extra) => {
				const bytes = bytesOf(values);
				if (bytes.length === 0) return;
				for (const [at, v] of flips) bytes[at % bytes.length] = v;
				const out = [...readPostings({ bytes, passages }, 0, bytes.length, values.length + extra)];
				expect(out.length).toBeLessThanOrEqual(values.length + extra);
				for (let i = 0; i < out.length; i++) {
					const v = out[i] as number;
					expect(Math.floor(v / TF_SLOTS)).toBeLessThan(passages);
					if (i > 0) expect(Math.floor(v / TF_SLOTS)).toBeGreaterThan(Math.floor((out[i - 1] as number) / TF_SLOTS));
				}
			}),
			{ numRuns: 300 },
		);
	});
});

describe("PostingPool pages", () => {
	it("only a list with a block (or saved entries gone) holds a record; freed records are reused", () => {
		const pool = new PostingPool();
		const records = (): { made: number; free: number } => {
			const p = pool as unknown as { nextRec: number; freeRecs: number[] };
			return { made: p.nextRec, free: p.freeRecs.length };
		};
		for (let list = 0; list < 1000; list++) pool.fill(list, [TF_SLOTS + 1, 2 * TF_SLOTS + 1]);
		expect(records()).toEqual({ made: 1000, free: 0 });
		for (let list = 0; list < 1000; list++) pool.clear(list);
		expect(records()).toEqual({ made: 1000, free: 1000 });
		for (let list = 1000; list < 2000; list++) pool.insert(list, TF_SLOTS + 1);
		expect(records()).toEqual({ made: 1000, free: 0 });
		for (let list = 1000; list < 2000; list++) expect(pool.removeRange(list, TF_SLOTS, 2 * TF_SLOTS)).toBe(false);
		expect(records()).toEqual({ made: 1000, free: 1000 });
		for (let list = 0; list < 2000; list++) expect(pool.count(list)).toBe(0);
	});

	it("a pool of a few postings (a loaded index's first re-index) takes a small page, not a 4 MB one", () => {
		const pools: PostingPool[] = [];
		const before = process.memoryUsage().arrayBuffers;
		for (let i = 0; i < 8; i++) {
			const pool = new PostingPool();
			for (let list = 0; list < 200; list++) pool.insert(list, list * TF_SLOTS + 1);
			pools.push(pool);
		}
		// Its eight columns (paged.ts) take 2 MB; a first page of 1M entries took 4 MB more.
		expect((process.memoryUsage().arrayBuffers - before) / pools.length).toBeLessThan(4 << 20);
	});

	it("lists that outgrow the growing pages keep their entries", () => {
		const pool = new PostingPool();
		const model: number[][] = [[], [], []];
		for (let i = 0; i < 400_000; i++) {
			const list = i % 7 === 0 ? 1 + (i % 2) : 0;
			pool.insert(list, i);
			model[list]?.push(i);
			if (i % 50_000 === 0) for (let l = 3; l < 3000; l++) pool.insert(l, i);
		}
		for (let l = 3; l < 3000; l += 997) expect([...pool.view(l)]).toEqual(Array.from({ length: 8 }, (_, k) => k * 50_000));
		for (let list = 0; list < 3; list++) expect([...pool.view(list)]).toEqual(model[list]);
	});
});
