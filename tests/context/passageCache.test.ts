import { beforeEach, describe, expect, it } from "vitest";
import { analyzeNote, clearPassageCache, passageCacheSize, passagesOf, preparePassages } from "../../src/context/passageCache";
import type { WeightedQuery } from "../../src/context/bm25";

beforeEach(() => clearPassageCache());

describe("passagesOf", () => {
	it("reuses the analysis while the text is the same, and redoes it when the note changes", () => {
		const first = passagesOf("a.md", "# A\n\nold text");
		expect(passagesOf("a.md", "# A\n\nold text")).toBe(first);
		const changed = passagesOf("a.md", "# A\n\nnew text");
		expect(changed).not.toBe(first);
		expect(changed.text).toBe("# A\n\nnew text");
		expect(passageCacheSize()).toEqual({ entries: 1, chars: "# A\n\nnew text".length });
	});

	it("stays bounded: at most 64 notes, least recently used out first", () => {
		const keep = passagesOf("keep.md", "kept");
		for (let i = 0; i < 100; i++) {
			passagesOf(`n${i}.md`, `note ${i}`);
			passagesOf("keep.md", "kept");
		}
		expect(passageCacheSize().entries).toBe(64);
		expect(passagesOf("keep.md", "kept")).toBe(keep);
	});

	it("preparePassages fills the cache in several slices with the analysis a send would make", async () => {
		const text = Array.from({ length: 3000 }, (_, i) => `## Part ${i}\n\nThe keeper painted lamp room ${i} cobalt blue.`).join("\n\n");
		let yields = 0;
		const estimate = (t: string): number => Math.ceil(t.length / 4);
		const prepared = await preparePassages("big.md", text, "Big", async () => { yields++; }, { sliceMs: 0, estimate });
		// Counted in pieces (a piece a step): the pieces' rounding adds at most a token each.
		const costs = prepared.costs.get(estimate);
		expect(costs?.approximate).toBe(true);
		expect(costs?.total).toBeGreaterThanOrEqual(estimate(text));
		expect(costs?.total).toBeLessThanOrEqual(estimate(text) + 8);
		expect(yields).toBeGreaterThan(2);
		expect(passagesOf("big.md", text, "Big")).toBe(prepared);
		const direct = analyzeNote(text, "Big");
		expect(prepared.passages).toEqual(direct.passages);
		const query: WeightedQuery = new Map([["cobalt", 2], ["2999", 1]]);
		expect(prepared.corpus.score(query)).toEqual(direct.corpus.score(query));
	});
});
