// read_note on PDFs: by page range ("pages": "3-5", or first_page/last_page), each page named, at most
// one part's worth of whole pages with the call for the rest, bad ranges answered with what to write
// instead. The PDFs are the real fixtures, read by pdfjs-dist through the app's own reader code.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createVaultTools } from "../../src/tools";
import { MemoryVault } from "../../src/tools/memoryVault";
import { parsePageRange, renderPdfPages } from "../../src/tools/pdfPages";
import type { PdfReader } from "../../src/context/pdfSources";
import { openPdfWith } from "../../src/context/pdfSources";
import { fixtureBytes, nodePdfJs } from "../support/pdfjs";
import { CONFIG_DIR, SCOPE } from "./support";

const FILES: Record<string, string> = { "Papers/Harbour ledger.pdf": "plain.pdf", "Papers/Orchard.pdf": "two-columns.pdf", "Papers/港口日志.pdf": "cjk.pdf", "Scans/Ledger scan.pdf": "scanned.pdf", "Private/Secret.pdf": "plain.pdf" };

/** The six tools over a vault holding the fixture PDFs, with a PDF reader that records what it opened and closed. */
function pdfToolbox(withReader = true) {
	const vault = new MemoryVault({ "Notes/Plan.md": "# Plan\n\nA note.\n" }, { configDir: CONFIG_DIR });
	for (const [path, name] of Object.entries(FILES)) vault.writeBytes(path, fixtureBytes(name));
	vault.writeBytes("Papers/Broken.pdf", new TextEncoder().encode("%PDF-1.7\nnot really"));
	const opened: string[] = [];
	let closed = 0;
	const openPdf = async (path: string): Promise<PdfReader> => {
		opened.push(path);
		const bytes = vault.files.get(path)?.bytes;
		if (!bytes) throw new Error(`no bytes at ${path}`);
		const reader = await openPdfWith(nodePdfJs, new Uint8Array(bytes));
		return { ...reader, pageText: (n) => reader.pageText(n), close: async () => {
			closed++;
			await reader.close?.();
		} };
	};
	const access = withReader ? Object.assign(vault, { openPdf }) : vault;
	const { tools } = createVaultTools(access, SCOPE, () => 1_000);
	const readNote = tools.find((t) => t.name === "read_note");
	if (!readNote) throw new Error("no read_note");
	const run = (args: Record<string, unknown>): Promise<string> => readNote.run(args, { signal: new AbortController().signal });
	return { run, opened, closed: () => closed, readNote };
}

const headings = (out: string): string[] => [...out.matchAll(/^## p\. (\d+)$/gm)].map((m) => m[1] ?? "");

describe("read_note on a PDF", () => {
	it('reads the pages of "pages": "2-3", each under its page, and names them in its header', async () => {
		const { run, opened, closed } = pdfToolbox();
		const out = await run({ path: "Papers/Harbour ledger.pdf", pages: "2-3" });
		expect(out.split("\n")[0]).toBe("Papers/Harbour ledger.pdf (PDF, pages 2-3 of 5).");
		expect(headings(out)).toEqual(["2", "3"]);
		expect(out).toContain("marrowstone");
		expect(out).toContain("thistledown");
		expect(out).not.toContain("quillfeather");
		expect(out).not.toContain("copperwick");
		expect(opened).toEqual(["Papers/Harbour ledger.pdf"]);
		expect(closed()).toBe(1);
	});

	it("reads by first_page and last_page, by one page, and whole when no page is named", async () => {
		const { run } = pdfToolbox();
		expect(headings(await run({ path: "Papers/Harbour ledger.pdf", first_page: 4, last_page: 5 }))).toEqual(["4", "5"]);
		expect(headings(await run({ path: "Papers/Harbour ledger.pdf", first_page: 4 }))).toEqual(["4", "5"]);
		const one = await run({ path: "Papers/Harbour ledger.pdf", pages: "5" });
		expect(one.split("\n")[0]).toBe("Papers/Harbour ledger.pdf (PDF, page 5 of 5).");
		expect(one).toContain("ravensgate");
		// "page" on a PDF is the page a model means.
		expect(headings(await run({ path: "Papers/Harbour ledger.pdf", page: 3 }))).toEqual(["3"]);
		expect(headings(await run({ path: "Papers/Harbour ledger.pdf" }))).toEqual(["1", "2", "3", "4", "5"]);
	});

	it("reads CJK pages and two columns as the file has them", async () => {
		const { run } = pdfToolbox();
		const cjk = await run({ path: "Papers/港口日志.pdf", pages: "3" });
		expect(cjk).toContain("このページの目印の言葉は銅の灯芯で");
		const columns = await run({ path: "Papers/Orchard.pdf", pages: "1" });
		expect(columns.replace(/\s+/g, " ")).toContain("The right column describes the southern quarry, where the stonecutters split grey granite into blocks for the new bridge across the river.");
	});

	it("a range past the end is read to the end and says so; one starting past it says how many pages there are", async () => {
		const { run } = pdfToolbox();
		const out = await run({ path: "Papers/Harbour ledger.pdf", pages: "4-9" });
		expect(headings(out)).toEqual(["4", "5"]);
		expect(out.split("\n")[0]).toBe("Papers/Harbour ledger.pdf (PDF, pages 4-5 of 5). It has 5 pages; the range asked for ended at 9.");
		await expect(run({ path: "Papers/Harbour ledger.pdf", pages: "7-8" })).rejects.toThrow("Papers/Harbour ledger.pdf has 5 pages; page 7 is past its end. Ask for pages 1-5 or fewer.");
	});

	it("bad ranges get a message that says what to write instead", async () => {
		const { run } = pdfToolbox();
		const path = "Papers/Harbour ledger.pdf";
		await expect(run({ path, pages: "five" })).rejects.toThrow(/not a page range\. Give "pages" as one page or a range, such as "3" or "3-5"/);
		await expect(run({ path, pages: "5-3" })).rejects.toThrow('ends before it starts; give the first page first, such as "3-5".');
		await expect(run({ path, pages: "0-2" })).rejects.toThrow("pages are counted from 1");
		await expect(run({ path, first_page: 4, last_page: 2 })).rejects.toThrow('"last_page" (2) is before "first_page" (4)');
		await expect(run({ path, pages: "2", first_page: 2 })).rejects.toThrow('Give either "pages" or "first_page" and "last_page", not both.');
		await expect(run({ path, heading: "Intro" })).rejects.toThrow('"heading" is for notes; a PDF is read by pages');
		await expect(run({ path: "Notes/Plan.md", pages: "2" })).rejects.toThrow('"pages" is for PDFs');
	});

	it("a scanned PDF says it has no text layer instead of returning nothing", async () => {
		const { run } = pdfToolbox();
		const out = await run({ path: "Scans/Ledger scan.pdf" });
		expect(out).toContain("Scans/Ledger scan.pdf (PDF, pages 1-2 of 2).");
		expect(out).toContain("This PDF has no text layer (it is a scan, or images only): its text cannot be read. Ask the person what it says.");
	});

	it("a missing, damaged or fenced PDF, or a vault that cannot read PDFs, is a clear error", async () => {
		const { run } = pdfToolbox();
		await expect(run({ path: "Papers/Nowhere.pdf" })).rejects.toThrow('There is no PDF "Papers/Nowhere.pdf". Use search_notes to find the right path.');
		await expect(run({ path: "Papers/Broken.pdf" })).rejects.toThrow(/Papers\/Broken\.pdf could not be opened as a PDF \(.+\)\. It may be damaged or password-protected/);
		await expect(run({ path: "Private/Secret.pdf" })).rejects.toThrow("excluded from the tools");
		const without = pdfToolbox(false);
		await expect(without.run({ path: "Papers/Harbour ledger.pdf" })).rejects.toThrow("PDFs cannot be read here");
	});

	it("one result holds at most one part of whole pages, and names the call that reads the rest", async () => {
		// A 40-page PDF of about 1,500 characters a page: 16,000 characters hold 10 pages whole.
		const page = (n: number): string => `Page ${n} text. ${"The harbour ledger records the tides and the boats. ".repeat(28)}`;
		const reader: PdfReader = { pageCount: 40, pageText: (n) => Promise.resolve(page(n)) };
		const out = await renderPdfPages("Big.pdf", reader, { first: 3, last: 30 }, () => Promise.resolve());
		const read = headings(out);
		expect(read[0]).toBe("3");
		const lastRead = Number(read[read.length - 1]);
		expect(read).toEqual(Array.from({ length: lastRead - 2 }, (_, k) => String(k + 3)));
		expect(out.length).toBeLessThanOrEqual(16_000 + 2_000);
		expect(out.split("\n")[0]).toBe(`Big.pdf (PDF, pages 3-${lastRead} of 40). More follows: call read_note with the same path and "pages": "${lastRead + 1}-30".`);
		// Every page of the part is whole.
		for (const n of read) expect(out).toContain(page(Number(n)).trim());
		// A single page longer than a part is cut, and says so.
		const huge: PdfReader = { pageCount: 2, pageText: (n) => Promise.resolve(n === 1 ? "word ".repeat(10_000) : "second") };
		const cut = await renderPdfPages("Huge.pdf", huge, { first: 1, last: undefined }, () => Promise.resolve());
		expect(cut.split("\n")[0]).toBe('Huge.pdf (PDF, page 1 of 2). Page 1 holds more text than one read returns: only its first 16,000 characters are shown. More follows: call read_note with the same path and "pages": "2".');
	});

	it("page ranges: every range written as the help says parses to itself (property)", () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 0, max: 9999 }), fc.constantFrom("-", "–", " - ", " to "), (first, extra, dash) => {
				expect(parsePageRange(`${first}${dash}${first + extra}`)).toEqual({ first, last: first + extra });
				expect(parsePageRange(String(first))).toEqual({ first, last: first });
				expect(parsePageRange(`${first}-`)).toEqual({ first, last: undefined });
				if (extra > 0) expect(() => parsePageRange(`${first + extra}-${first}`)).toThrow("ends before it starts");
			}),
		);
	});
});
