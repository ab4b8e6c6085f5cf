import { describe, expect, it } from "vitest";
import { GAP, headingLine, renderExcerpts, type Piece } from "../../src/context/excerpts";

// A note with a nested section: "# Garden" > "## Bed" > "### Watering".
const note = ["# Garden", "Intro.", "## Bed", "Beans grow here.", "### Watering", "Twice a week.", "## Shed", "The key is lost."].join("\n\n");
const at = (s: string): number => note.indexOf(s);
const piece = (index: number, from: string, to: string | undefined, headingPath: string): Piece => ({ index, start: at(from), end: to === undefined ? note.length : at(to), headingPath });
const garden = piece(0, "# Garden", "## Bed", "# Garden");
const bed = piece(1, "## Bed", "### Watering", "# Garden > ## Bed");
const watering = piece(2, "### Watering", "## Shed", "# Garden > ## Bed > ### Watering");
const shed = piece(3, "## Shed", undefined, "# Garden > ## Shed");

describe("excerpts as the model reads them", () => {
	it("leaves out of the path line the heading a passage opens with", () => {
		expect(headingLine(note, watering)).toBe("# Garden > ## Bed");
		expect(headingLine(note, garden)).toBe("");
		// A passage inside a section (not opening with its heading) gets the whole path.
		const inside: Piece = { index: 9, start: at("Twice"), end: at("## Shed"), headingPath: "# Garden > ## Bed > ### Watering" };
		expect(headingLine(note, inside)).toBe("# Garden > ## Bed > ### Watering");
	});

	it("writes no heading twice: after a gap the parent path, then the passage's own heading", () => {
		const text = renderExcerpts(note, [garden, watering], 4);
		expect(text).toBe(["# Garden\n\nIntro.", GAP, "# Garden > ## Bed", "### Watering\n\nTwice a week.", GAP].join("\n\n"));
		expect(text.match(/### Watering/g)).toHaveLength(1);
	});

	it("writes no path right after the parent section's own passage", () => {
		const text = renderExcerpts(note, [bed, watering], 4);
		expect(text).toBe([GAP, "# Garden", "## Bed\n\nBeans grow here.", "### Watering\n\nTwice a week.", GAP].join("\n\n"));
	});

	it("writes no parent path for the next sibling section: the reader is inside it already", () => {
		const text = renderExcerpts(note, [watering, shed], 4);
		expect(text).toBe([GAP, "# Garden > ## Bed", "### Watering\n\nTwice a week.", "## Shed\n\nThe key is lost."].join("\n\n"));
	});
});
