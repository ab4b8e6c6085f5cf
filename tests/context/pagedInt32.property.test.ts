// PagedInt32: its first page grows from 64 entries by doubling, whole pages follow. Whatever the
// order of writes (small indices, then past the first page, then back), it reads as a map with 0
// for what was never written.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PagedInt32 } from "../../src/context/paged";

describe("PagedInt32", () => {
	it("reads back what was written, 0 elsewhere, for writes in any order across pages (property)", () => {
		const index = fc.oneof(fc.nat({ max: 200 }), fc.nat({ max: 70_000 }), fc.integer({ min: 65_000, max: 200_000 }));
		fc.assert(
			fc.property(fc.array(fc.tuple(index, fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), { maxLength: 60 }), fc.array(index, { maxLength: 20 }), (writes, probes) => {
				const col = new PagedInt32();
				const model = new Map<number, number>();
				for (const [i, v] of writes) {
					col.set(i, v);
					model.set(i, v);
				}
				for (const i of [...model.keys(), ...probes]) expect(col.get(i)).toBe(model.get(i) ?? 0);
			}),
			{ numRuns: 300 },
		);
	});
});
