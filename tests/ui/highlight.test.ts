// @vitest-environment happy-dom
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import "../obsidian/index";
import { appendHighlighted } from "../../src/ui/history/highlight";

describe("appendHighlighted", () => {
	it("marks every case-insensitive match", () => {
		const el = createDiv();
		appendHighlighted(el, "Tulips, tulips and TULIPS.", "tulip");
		expect(Array.from(el.querySelectorAll("mark")).map((m) => m.textContent)).toEqual(["Tulip", "tulip", "TULIP"]);
		expect(el.textContent).toBe("Tulips, tulips and TULIPS.");
	});

	it("never changes the text and only marks the query, for any input", () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 60 }), fc.string({ minLength: 1, maxLength: 4 }), (text, query) => {
				const el = createDiv();
				appendHighlighted(el, text, query);
				expect(el.textContent).toBe(text);
				for (const mark of Array.from(el.querySelectorAll("mark"))) expect(mark.textContent?.toLowerCase()).toBe(query.toLowerCase());
			}),
		);
	});
});
