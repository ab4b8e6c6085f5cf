// PDFs as sources on real files through the real library: the fixtures of tests/fixtures/pdf (made
// by groff, pdf-lib and ImageMagick from texts written for these tests; its README says how) read by
// pdfjs-dist, the pdf.js Obsidian ships, through the same code the app uses (openPdfWith, readPdf).
// Each marker word sits on a known page; the excerpt that holds it must name that page, and pdf.js's
// own page-by-page items must agree that it is there.
import { describe, expect, it } from "vitest";
import { isScanned, pdfSource, readPdf, type PdfReading } from "../../src/context/pdfSources";
import { fitSource } from "../../src/context/relevanceFit";
import { estimateTokens } from "../../src/chat/tokens";
import { openFixture, rawItems } from "../support/pdfjs";

const NEXT = { yieldNow: (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve)) };

async function readFixture(name: string): Promise<PdfReading> {
	const reader = await openFixture(name);
	try {
		return await readPdf(reader, NEXT);
	} finally {
		await reader.close?.();
	}
}

/** The page whose heading stands last before `needle` in a fitted text ("## p. N" or "p. N" in a heading path). */
function pageAbove(text: string, needle: string): number | undefined {
	const at = text.indexOf(needle);
	if (at < 0) return undefined;
	const pages = [...text.slice(0, at).matchAll(/p\. (\d+)/g)].map((m) => Number(m[1]));
	return pages[pages.length - 1];
}

/** Whitespace as one space: a sentence wrapped over lines reads as one line. */
const flat = (text: string): string => text.replace(/\s+/g, " ");

/** The page pdf.js itself finds `word` on (its raw items, page by page), for checking the fixture. */
async function pagesHolding(name: string, word: string): Promise<number[]> {
	const pages = await rawItems(name);
	return pages.flatMap((items, k) => (items.map((i) => i.str).join("").includes(word) ? [k + 1] : []));
}

/** Fits the PDF's source to a budget of about one passage for `query` and says under which page `needle` came out. */
function excerptPage(reading: PdfReading, name: string, query: string, budget = 300): { page: number | undefined; fit: string } {
	const source = pdfSource(reading, name);
	if (source === undefined) throw new Error(`${name} gave no source`);
	const fit = fitSource(source, budget, query, estimateTokens);
	expect(fit.fit).toBe("excerpts");
	return { page: pageAbove(fit.text, query), fit: fit.text };
}

describe("real PDFs through pdfjs-dist", () => {
	it("a plain five-page PDF: every excerpt names the page its text is on in the file", async () => {
		const reading = await readFixture("plain.pdf");
		expect(reading).toMatchObject({ pages: 5, pagesWithText: 5, pagesRead: 5 });
		const markers = ["quillfeather", "marrowstone", "thistledown", "copperwick", "ravensgate"];
		for (const [k, word] of markers.entries()) {
			expect(await pagesHolding("plain.pdf", word)).toEqual([k + 1]);
			const { page, fit } = excerptPage(reading, "Papers/Harbour ledger.pdf", word);
			expect(page, `${word} in:\n${fit}`).toBe(k + 1);
		}
		// The text is the file's, a sentence whole across its line break.
		expect(flat(reading.text)).toContain("The lighthouse keeper logs the storm at midnight and trims the wick twice before dawn.");
	});

	it("two columns read column by column: a sentence is never interleaved with the other column", async () => {
		const left = "The left column tells of the northern orchard, where the pear trees flower late and the bees arrive only after the first warm rain of May.";
		const right = "The right column describes the southern quarry, where the stonecutters split grey granite into blocks for the new bridge across the river.";
		// The fixture really sets them side by side: the same lines of page 1, either side of its middle.
		const [page1 = []] = await rawItems("two-columns.pdf");
		const lineOf = (start: string): { x: number; y: number } => {
			const item = page1.find((i) => i.str.startsWith(start));
			if (!item) throw new Error(`no item starting "${start}"`);
			return item;
		};
		// The second line of each column's first sentence.
		const l = lineOf("orchard, where the pear trees");
		const r = lineOf("quarry, where the stonecutters");
		expect(l.x).toBeLessThan(595 / 2);
		expect(r.x).toBeGreaterThan(595 / 2);
		expect(Math.abs(l.y - r.y)).toBeLessThan(40);

		const reading = await readFixture("two-columns.pdf");
		expect(reading.pages).toBe(2);
		const text = flat(reading.text);
		expect(text).toContain(left);
		expect(text).toContain(right);
		expect(text).toContain("She burns the pruned wood in a brazier and spreads its ash on the beds of the kitchen garden.");
		expect(text).toContain("The stonecutters sharpen their chisels in the smithy and mend the harness of the oxen.");
		// The left column comes first, whole, then the right.
		expect(text.indexOf("juniperhall")).toBeLessThan(text.indexOf("The right column describes"));
		for (const [word, n] of [["juniperhall", 1], ["saltpetrel", 1], ["lanternmoss", 2], ["brindlecove", 2]] as const) {
			expect(await pagesHolding("two-columns.pdf", word)).toEqual([n]);
			expect(excerptPage(reading, "Orchard.pdf", word).page).toBe(n);
		}
	});

	it("Chinese and Japanese text comes out, each marker under its page", async () => {
		const reading = await readFixture("cjk.pdf");
		expect(reading).toMatchObject({ pages: 3, pagesWithText: 3 });
		expect(reading.text).toContain("本页的标记词是青石灯笼，它只出现在第一页。");
		expect(reading.text).toContain("このページの目印の言葉は銅の灯芯で、三ページ目にだけ現れる。");
		for (const [word, n] of [["青石灯笼", 1], ["白鹭渡口", 2], ["銅の灯芯", 3]] as const) {
			expect(await pagesHolding("cjk.pdf", word)).toEqual([n]);
			const { page, fit } = excerptPage(reading, "港口日志.pdf", word);
			expect(page, `${word} in:\n${fit}`).toBe(n);
		}
	});

	it("a scanned PDF (images only) says it has no text layer, and gives no source", async () => {
		const reading = await readFixture("scanned.pdf");
		expect(reading).toMatchObject({ pages: 2, pagesWithText: 0, pagesRead: 2 });
		expect(isScanned(reading)).toBe(true);
		expect(pdfSource(reading, "Scan.pdf")).toBeUndefined();
		// The text PDFs are not taken for scans.
		expect(isScanned(await readFixture("cjk.pdf"))).toBe(false);
	});

	it("reads a range of pages, naming only those", async () => {
		const reader = await openFixture("plain.pdf");
		try {
			const reading = await readPdf(reader, { ...NEXT, from: 2, to: 3 });
			expect(reading.pagesRead).toBe(3);
			expect([...reading.text.matchAll(/^## p\. (\d+)$/gm)].map((m) => m[1])).toEqual(["2", "3"]);
			expect(reading.text).toContain("marrowstone");
			expect(reading.text).not.toContain("quillfeather");
			expect(reading.text).not.toContain("copperwick");
		} finally {
			await reader.close?.();
		}
	});

	it("a file that is not a PDF is refused by pdf.js, not read as empty", async () => {
		const { nodePdfJs } = await import("../support/pdfjs");
		const { openPdfWith } = await import("../../src/context/pdfSources");
		await expect(openPdfWith(nodePdfJs, new TextEncoder().encode("# A note, not a PDF"))).rejects.toThrow();
	});
});
