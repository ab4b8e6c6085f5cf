import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonSteps } from "../../src/context/jsonSteps";
import { drain } from "../../src/context/steps";

type Outcome = { value: unknown } | { threw: true };
const outcome = (run: () => unknown): Outcome => {
	try {
		return { value: run() };
	} catch {
		return { threw: true };
	}
};

/** Objects shaped like a canvas (arrays of objects under top-level keys), plus any JSON. */
const canvasLike = fc.record({
	nodes: fc.array(fc.record({ id: fc.string(), type: fc.constantFrom("text", "file", "group"), x: fc.integer(), text: fc.string({ unit: "grapheme" }), nested: fc.jsonValue() }), { maxLength: 12 }),
	edges: fc.array(fc.jsonValue(), { maxLength: 6 }),
	other: fc.jsonValue(),
});
const textArb = fc.oneof(
	canvasLike.map((v) => JSON.stringify(v)),
	canvasLike.map((v) => JSON.stringify(v, null, 2)),
	fc.json(),
	fc.dictionary(fc.string(), fc.jsonValue()).map((v) => ` ${JSON.stringify(v)}\n`),
);

describe("parseJsonSteps", () => {
	it("gives JSON.parse's value, or throws where JSON.parse throws, for any text, whatever the step size", () => {
		fc.assert(
			fc.property(textArb, fc.integer({ min: 1, max: 40 }), fc.option(fc.tuple(fc.nat(), fc.constantFrom("", ",", ":", "]", "}", "[", "{", '"', "\\", " ", "1", "\u00a0")), { nil: undefined }), (valid, step, damage) => {
				let text = valid;
				if (damage) {
					const at = damage[0] % (text.length + 1);
					text = text.slice(0, at) + damage[1] + text.slice(at + (damage[1] === "" ? 1 : 0));
				}
				const expected = outcome(() => JSON.parse(text) as unknown);
				const got = outcome(() => drain(parseJsonSteps(text, step)));
				expect(got).toEqual(expected);
				if ("value" in expected && "value" in got && typeof expected.value === "object" && expected.value !== null) {
					expect(Object.keys(got.value as object)).toEqual(Object.keys(expected.value));
				}
			}),
			{ numRuns: 2000 },
		);
	});

	it("reads a canvas of 2,000 cards in many steps, none longer than a step's characters", () => {
		const canvas = JSON.stringify({ nodes: Array.from({ length: 2000 }, (_, i) => ({ id: `n${i}`, type: "text", x: i, y: 0, width: 200, height: 100, text: `Card ${i} with some text, brackets ] } and "quotes"` })), edges: [] });
		const steps = parseJsonSteps(canvas, 16_384);
		let count = 0;
		let r = steps.next();
		while (r.done !== true) {
			count++;
			r = steps.next();
		}
		expect(count).toBeGreaterThanOrEqual(Math.floor(canvas.length / 16_384) - 1);
		expect(r.value).toEqual(JSON.parse(canvas));
	});
});
