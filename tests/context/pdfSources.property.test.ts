// Properties of a PDF's text as the engine reads it: whatever pdf.js's items and their positions,
// the page's text holds every character of them in order (spaces and line breaks aside), and a
// range of pages reads exactly those pages, each under its own heading.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pdfPageText, readPdf, type PdfTextItem } from "../../src/context/pdfSources";

const ink = (text: string): string => text.replace(/\s/g, "");

const item: fc.Arbitrary<PdfTextItem> = fc.record(
	{
		str: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("港口", "日志", " ", "", "word", "灯芯。", "# x")),
		hasEOL: fc.boolean(),
		transform: fc.tuple(fc.integer({ min: 0, max: 600 }), fc.integer({ min: -50, max: 850 })).map(([x, y]) => [1, 0, 0, 1, x, y]),
	},
	{ requiredKeys: ["str"] },
);

describe("a PDF page's text (property)", () => {
	it("keeps every character of the items, in order, whatever their positions", () => {
		fc.assert(
			fc.property(fc.array(item, { maxLength: 40 }), (items) => {
				expect(ink(pdfPageText(items))).toBe(ink(items.map((i) => i.str).join("")));
			}),
		);
	});

	it("reads exactly the pages of a range, each under its heading, in order", async () => {
		await fc.assert(
			fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 14 }), fc.integer({ min: 0, max: 14 }), async (count, from, span) => {
				const reader = { pageCount: count, pageText: (n: number) => Promise.resolve(`text of page ${n}`) };
				const to = from + span;
				const reading = await readPdf(reader, { from, to, yieldNow: () => Promise.resolve() });
				const expected = Array.from({ length: Math.max(0, Math.min(count, to) - from + 1) }, (_, k) => String(from + k));
				expect([...reading.text.matchAll(/^## p\. (\d+)$/gm)].map((m) => m[1])).toEqual(expected);
				expect(reading.pages).toBe(count);
			}),
		);
	});
});
