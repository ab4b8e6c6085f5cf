import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { message } from "./helpers";
import { oneLine, titleFromMessages } from "../../src/sessions/sessionTitle";

/** The plain definition oneLine must agree with. */
function reference(text: string, max: number): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length <= max ? flat : flat.slice(0, max);
}

describe("oneLine", () => {
	it("equals the plain definition when short, and is a shortened prefix with an ellipsis when long", () => {
		const text = fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(" ", "\n", "\t", "   \n\n   ", "😀")), { maxLength: 200 }).map((parts) => parts.join(""));
		fc.assert(
			fc.property(text, fc.integer({ min: 10, max: 130 }), (input, max) => {
				const out = oneLine(input, max);
				const flat = input.replace(/\s+/g, " ").trim();
				if (flat.length <= max) expect(out).toBe(reference(input, max));
				else {
					expect(out.endsWith("…")).toBe(true);
					expect(out.length).toBeLessThanOrEqual(max);
					expect(flat.startsWith(out.slice(0, -1))).toBe(true);
				}
			}),
		);
	});

	it("handles a huge message and still sees text after a long run of whitespace", () => {
		expect(oneLine(" ".repeat(10_000) + "late words", 120)).toBe("late words");
		expect(oneLine("word ".repeat(1_000_000), 120).length).toBeLessThanOrEqual(120);
	});
});

describe("titleFromMessages", () => {
	it("uses the first non-blank line of the first user message", () => {
		expect(titleFromMessages([message("assistant", "hi", 1), message("user", "\n  \n  Real title  \nmore", 2)])).toBe("Real title");
		expect(titleFromMessages([message("user", " \n ", 1)])).toBe("New chat");
		expect(titleFromMessages([])).toBe("New chat");
	});
});
