// PDFs as sources, through an injected reader (the app hands pdf.js's pages; here a reader of known
// pages): each page a section headed "p. N", so every excerpt names its page; pages read with a yield
// between slices of work; a PDF without a text layer said so.
import { cutPassages } from "../../src/context/passages";
import { describe, expect, it } from "vitest";
import { isScanned, pageHeading, pdfPageText, pdfSource, readPdf, type PdfReader } from "../../src/context/pdfSources";
import { fitSource } from "../../src/context/relevanceFit";
import { estimateTokens } from "../../src/chat/tokens";

const FILLER = ["The committee reviewed the budget and the schedule of the works.", "Each section of the report lists its sources and the people consulted.", "Nothing in this part concerns the harbour or its lighthouse."];

const NEXT = { yieldNow: (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve)) };

/** A reader over given page texts, recording which pages were asked for. */
function readerOf(pages: readonly string[], cost?: { now: { t: number }; msPerPage: number }): PdfReader & { asked: number[] } {
	const asked: number[] = [];
	return {
		pageCount: pages.length,
		asked,
		pageText: (n) => {
			asked.push(n);
			if (cost) cost.now.t += cost.msPerPage;
			return Promise.resolve(pages[n - 1] ?? "");
		},
	};
}

function page(n: number, special?: string): string {
	const lines = Array.from({ length: 12 }, (_, k) => `${FILLER[(n + k) % FILLER.length]} (page ${n}, line ${k + 1})`);
	if (special) lines.splice(6, 0, special);
	return lines.join("\n");
}

describe("a PDF as a source", () => {
	it("joins pdf.js's text items into lines", () => {
		expect(pdfPageText([{ str: "Tides", hasEOL: true }, { str: "rise and" }, { str: "fall", hasEOL: true }, { str: "" }, { str: "twice a day." }])).toBe("Tides\nrise and fall\ntwice a day.");
	});

	it("a paragraph's end (a step down larger than the page's line pitch) and a new column (a step up) become blank lines", () => {
		const at = (str: string, x: number, y: number, hasEOL = true) => ({ str, hasEOL, transform: [1, 0, 0, 1, x, y] });
		const items = [
			at("The first paragraph", 72, 700),
			at("goes on here.", 72, 688),
			at("The second paragraph", 72, 670),
			at("ends the column.", 72, 658),
			at("The next column", 320, 700),
			at("starts at the top.", 320, 688, false),
		];
		expect(pdfPageText(items)).toBe("The first paragraph\ngoes on here.\n\nThe second paragraph\nends the column.\n\nThe next column\nstarts at the top.");
	});

	it("puts no space between two CJK items (the index pairs their characters), and one between words", () => {
		expect(pdfPageText([{ str: "港口" }, { str: "日志" }, { str: "and" }, { str: "more", hasEOL: true }, { str: "灯塔" }])).toBe("港口日志 and more\n灯塔");
	});

	it("heads each page 'p. N', so the excerpt the model reads names the page where the text is", async () => {
		const pages = Array.from({ length: 30 }, (_, k) => page(k + 1, k + 1 === 12 ? "The lighthouse keeper logs the storm at midnight." : undefined));
		const reading = await readPdf(readerOf(pages), NEXT);
		expect(reading).toMatchObject({ pages: 30, pagesWithText: 30, pagesRead: 30 });
		const source = pdfSource(reading, "Papers/Harbour report.pdf");
		expect(source).toMatchObject({ id: "Papers/Harbour report.pdf", name: "Papers/Harbour report.pdf", kind: "note" });
		const fit = fitSource(source!, 400, "lighthouse storm midnight", estimateTokens);
		expect(fit.fit).toBe("excerpts");
		// The excerpt with the sentence sits under page 12's heading, and under no other page's.
		const at = fit.text.indexOf("The lighthouse keeper logs the storm at midnight.");
		expect(at).toBeGreaterThan(0);
		const headings = [...fit.text.slice(0, at).matchAll(/p\. (\d+)/g)].map((m) => m[1]);
		expect(headings[headings.length - 1]).toBe("12");
		// And every passage's heading path is its page.
		for (const p of fit.passages) expect(p.headingPath).toMatch(/^## p\. \d+$/);
		expect(fit.passages.some((p) => p.headingPath === "## p. 12")).toBe(true);
	});

	it("a line of the PDF starting with # is text, not a heading that would hide its page", async () => {
		const reading = await readPdf(readerOf(["# not a heading\nbody text of page one"]), NEXT);
		expect(reading.text).toBe("## p. 1\n\n\\# not a heading\nbody text of page one\n");
	});

	it("a fence line in a PDF's page is text too: the pages after it keep their own headings", async () => {
		const reading = await readPdf(readerOf(["```\nopened but never closed", "the second page's words"]), NEXT);
		const second = cutPassages(reading.text).find((p) => reading.text.slice(p.start, p.end).includes("the second page's words"));
		expect(second?.headingPath).toContain(pageHeading(2));
	});

	it("one page of more text than the limit is cut at the limit", async () => {
		const reading = await readPdf(readerOf(["word ".repeat(2000), "never read"]), { ...NEXT, maxChars: 1000 });
		expect(reading.text).toBe(`## p. 1\n\n${"word ".repeat(200)}\n`);
		expect(reading.pagesRead).toBe(1);
	});

	it("says a scanned PDF has no text layer, and gives no source for it", async () => {
		const reading = await readPdf(readerOf(["", " ", "\n"]), NEXT);
		expect(isScanned(reading)).toBe(true);
		expect(pdfSource(reading, "Scan.pdf")).toBeUndefined();
		// A PDF with text on one page only is not a scan.
		expect(isScanned(await readPdf(readerOf(["", page(2)]), NEXT))).toBe(false);
	});

	it("reads a large PDF page by page, yielding whenever a slice of work has run (no task over the slice and one page)", async () => {
		const clock = { t: 0 };
		const reader = readerOf(
			Array.from({ length: 1000 }, (_, k) => page(k + 1)),
			{ now: clock, msPerPage: 3 },
		);
		let yields = 0;
		let longest = 0;
		let since = 0;
		const reading = await readPdf(reader, {
			now: () => clock.t,
			sliceMs: 8,
			yieldNow: () => {
				longest = Math.max(longest, clock.t - since);
				yields++;
				since = clock.t;
				return Promise.resolve();
			},
		});
		expect(reading.pagesRead).toBe(1000);
		expect(yields).toBeGreaterThanOrEqual(300);
		// A slice runs until it passes 8 ms: at most one page (3 ms) past it.
		expect(longest).toBeLessThanOrEqual(8 + 3);
	});

	it("stops at the notes' size limit, and a Stop ends the reading", async () => {
		const reader = readerOf(Array.from({ length: 100 }, (_, k) => page(k + 1)));
		const cut = await readPdf(reader, { ...NEXT, maxChars: 5_000 });
		expect(cut.pagesRead).toBeLessThan(100);
		expect(cut.pages).toBe(100);
		const stop = new AbortController();
		stop.abort();
		await expect(readPdf(reader, { ...NEXT, signal: stop.signal })).rejects.toThrow(/not read to the end/);
	});
});
