import { beforeEach, describe, expect, it } from "vitest";
import { clearPassageCache, passageCacheSize, passagesOf } from "../../src/context/passageCache";

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
});
