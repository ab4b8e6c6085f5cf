import { describe, expect, it } from "vitest";
import { plainSnippet } from "../../src/ui/history/plainSnippet";

describe("plainSnippet", () => {
	it("shows emphasis, code, strike-through and highlights as their words", () => {
		expect(plainSnippet("Chlorophyll absorbs **red** and __blue__ light, *not* _green_; ~~old~~ ==key== `code`.")).toBe(
			"Chlorophyll absorbs red and blue light, not green; old key code.",
		);
	});

	it("keeps a link's text, an image's description and a wikilink's alias or name", () => {
		expect(plainSnippet("See [the guide](https://example.com/a_b) and ![a chart](c.png), [[Photosynthesis|the note]] and [[Leaves]].")).toBe(
			"See the guide and a chart, the note and Leaves.",
		);
	});

	it("drops block markers: headings, quotes, callouts, list items, tasks and code fences", () => {
		expect(plainSnippet("## Steps\n> [!note] Light\n- first\n1. second\n- [x] done\n```ts\nconst a = 1;\n```")).toBe(
			"Steps Light first second done const a = 1;",
		);
	});

	it("drops a marker the snippet's cut left without its partner, and leaves words with underscores alone", () => {
		expect(plainSnippet("…absorbs **red and blu")).toBe("…absorbs red and blu");
		expect(plainSnippet("set max_tokens and snake_case_name * 2")).toBe("set max_tokens and snake_case_name * 2");
	});
});
