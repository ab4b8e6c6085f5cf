import { describe, expect, it } from "vitest";
import { shownHeadingPath } from "../../src/context/headingPath";

describe("the heading path shown above a source passage", () => {
	it("leaves out the heading the passage opens with", () => {
		expect(shownHeadingPath("# Harbour log > ## Day 45", "## Day 45\n\nFog.")).toBe("# Harbour log");
		expect(shownHeadingPath("# Harbour log", "# Harbour log\n\nWe left.")).toBe("");
		expect(shownHeadingPath("# A > ## B", "\n## B  \ntext")).toBe("# A");
	});

	it("keeps the whole path when the passage opens with other text or another heading", () => {
		expect(shownHeadingPath("Alpha", "Alpha is the first note.")).toBe("Alpha");
		expect(shownHeadingPath("# A > ## B", "Body under B.")).toBe("# A > ## B");
		expect(shownHeadingPath("# A > ## B", "## C\n\ntext")).toBe("# A > ## B");
		expect(shownHeadingPath("", "## B")).toBe("");
	});
});
