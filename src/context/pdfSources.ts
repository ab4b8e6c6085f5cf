// PDFs as sources. The text comes through an injected reader (in the app: the pdf.js Obsidian ships,
// `loadPdfJs()`; in tests and scripts: any reader), page by page, so this runs headless. Each page
// becomes a section headed "p. N": the passages cut from it carry that heading, so every excerpt the
// model sees (and the sources line shows) names its page. Pages are read one at a time with a yield
// whenever a slice of work has run, so a 1,000-page PDF never holds the main thread. A PDF with no
// text layer (a scan) says so instead of sending nothing.
import { literalLines } from "./passages";
import { splitsPair } from "../core/surrogates";
import type { ContextSource } from "../core/types";
import { leasePdfWorker, type PdfJsWorker, type PdfJsWorkerLib } from "./pdfWorker";

/** A PDF opened for reading: its page count and each page's text (1-based). */
export interface PdfReader {
	readonly pageCount: number;
	pageText(page: number): Promise<string>;
	close?(): void | Promise<void>;
}

/** One text item of pdf.js's `getTextContent()` (the fields used here). */
export interface PdfTextItem {
	str: string;
	/** The item ends a line. */
	hasEOL?: boolean;
	/** Its text matrix: [4] and [5] are where it starts on the page (x, and y upwards). */
	transform?: readonly number[];
}

export interface PdfReading {
	pages: number;
	/** Pages with text on them. */
	pagesWithText: number;
	/** The last page read (before `to` when the reading was cut at `maxChars`; `from - 1` when none was). */
	pagesRead: number;
	/** The text as Markdown: a "## p. N" heading over each page's text. */
	text: string;
	/** The page whose text was cut at `maxChars` (the rest of it was not read). */
	cutPage?: number;
}

export interface PdfReadOptions {
	/** First page to read (1-based, default 1). */
	from?: number;
	/** Last page to read (default the last page). */
	to?: number;
	/** Gives the app its main thread back (in the app: the next task). */
	yieldNow: () => Promise<void>;
	/** Work between two yields, in milliseconds (default 8). */
	sliceMs?: number;
	now?: () => number;
	/** Stops reading pages past this many characters of text (default 4,000,000, the notes' limit). */
	maxChars?: number;
	/**
	 * Pages are read whole: the reading stops before a page that would pass `maxChars` (a first page
	 * longer than that is still cut, so a reading always moves on). For reading a PDF in parts.
	 */
	wholePages?: boolean;
	signal?: AbortSignal;
}

/**
 * The parts of pdf.js this reads through: `getDocument` over a file's bytes, then each page's text
 * items. Obsidian's `loadPdfJs()` hands it over in the app; pdfjs-dist (the same library) in tests.
 */
export interface PdfJsLib extends PdfJsWorkerLib {
	getDocument(src: { data: Uint8Array; isEvalSupported: boolean; worker?: PdfJsWorker }): { promise: Promise<PdfJsDocument> };
}

export interface PdfJsDocument {
	numPages: number;
	getPage(n: number): Promise<{ getTextContent(): Promise<{ items: unknown[] }>; cleanup(): unknown }>;
	destroy(): Promise<void>;
}

/**
 * A reader over a PDF's bytes through pdf.js, with eval turned off: nothing in a file becomes code
 * (the fonts' glyphs are not needed for text). Rejects when pdf.js cannot open the file. All readers
 * share one pdf.js worker (pdfWorker.ts) instead of starting one for each PDF.
 */
export async function openPdfWith(pdfjs: PdfJsLib, data: Uint8Array): Promise<PdfReader> {
	const lease = leasePdfWorker(pdfjs);
	let doc: PdfJsDocument;
	try {
		doc = await pdfjs.getDocument({ data, isEvalSupported: false, ...(lease ? { worker: lease.worker } : {}) }).promise;
	} catch (err) {
		lease?.release();
		throw err;
	}
	return {
		pageCount: doc.numPages,
		async pageText(n) {
			const page = await doc.getPage(n);
			const content = await page.getTextContent();
			page.cleanup();
			// Marked-content items have no `str`: they carry no text.
			return pdfPageText(content.items.filter((i): i is PdfTextItem => typeof (i as PdfTextItem).str === "string"));
		},
		close: async () => {
			try {
				await doc.destroy();
			} finally {
				lease?.release();
			}
		},
	};
}

/** Fewer characters than this on every page: no text layer (a scan, or only images). */
const SCANNED_CHARS_PER_PAGE = 16;
const DEFAULT_MAX_CHARS = 4_000_000;

/** Han, kana, hangul and CJK punctuation: no space is put between two of them where items meet. */
const CJK = /[\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

/** One line of a page: its text, and the baseline of its first item (undefined: items without positions). */
interface PageLine {
	text: string;
	y: number | undefined;
}

function linesOf(items: readonly PdfTextItem[]): PageLine[] {
	const lines: PageLine[] = [];
	let line: PageLine = { text: "", y: undefined };
	for (const item of items) {
		if (item.str !== "") {
			const y = item.transform?.[5];
			if (line.y === undefined && typeof y === "number") line.y = y;
			// Items meet with a space (pdf.js gives most gaps as items of their own), but two CJK
			// characters never: a space between them would split the words the index cuts into pairs.
			if (line.text !== "" && !/\s$/.test(line.text) && !/^\s/.test(item.str) && !(CJK.test(line.text.slice(-1)) && CJK.test(item.str.charAt(0)))) line.text += " ";
			line.text += item.str;
		}
		if (item.hasEOL === true) {
			lines.push(line);
			line = { text: "", y: undefined };
		}
	}
	lines.push(line);
	return lines;
}

/** The usual distance between two lines of the page (the median of the steps down), or undefined. */
function linePitch(lines: readonly PageLine[]): number | undefined {
	const steps: number[] = [];
	for (let k = 1; k < lines.length; k++) {
		const a = lines[k - 1]?.y;
		const b = lines[k]?.y;
		if (a !== undefined && b !== undefined && a - b > 0) steps.push(a - b);
	}
	if (steps.length < 2) return undefined;
	steps.sort((x, y) => x - y);
	return steps[Math.floor(steps.length / 2)];
}

/**
 * A page's text from pdf.js's items: items joined, a line break where an item ends a line, runs of
 * space squeezed. Where the items carry positions, a paragraph's end becomes a blank line: a step
 * down clearly larger than the page's usual line pitch, or a step back up (the next column, a
 * footnote read out of order). Passages are cut at blank lines, so an excerpt is a paragraph, not a page.
 */
export function pdfPageText(items: readonly PdfTextItem[]): string {
	const lines = linesOf(items);
	const pitch = linePitch(lines);
	let out = lines[0]?.text ?? "";
	for (let k = 1; k < lines.length; k++) {
		const above = lines[k - 1]?.y;
		const line = lines[k] as PageLine;
		const step = above !== undefined && line.y !== undefined ? above - line.y : undefined;
		const paragraph = pitch !== undefined && step !== undefined && (step > pitch * PARAGRAPH_STEP || step < -pitch / 2);
		out += (paragraph ? "\n\n" : "\n") + line.text;
	}
	return out
		.replace(/[ \t\u00a0]+/g, " ")
		.replace(/ *\n */g, "\n")
		.replace(/\n{3,}/g, "\n\n")
		.trim();
}

/** A step down this many times the usual line pitch ends a paragraph (ms sets 1.3, most word processors more). */
const PARAGRAPH_STEP = 1.2;

/** The heading over page `n`: what the model reads above each of its excerpts. */
export function pageHeading(n: number): string {
	return `p. ${n}`;
}

/**
 * Reads every page (or up to `maxChars`), yielding between pages whenever `sliceMs` of work has run.
 * A page's own text never holds a line that would read as a heading or a code fence (literalLines).
 */
export async function readPdf(reader: PdfReader, options: PdfReadOptions): Promise<PdfReading> {
	const now = options.now ?? ((): number => performance.now());
	const sliceMs = options.sliceMs ?? 8;
	const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
	const parts: string[] = [];
	let chars = 0;
	let pagesWithText = 0;
	let pagesRead = Math.max(0, Math.floor(options.from ?? 1) - 1);
	let started = now();
	const first = Math.max(1, Math.floor(options.from ?? 1));
	const last = Math.min(reader.pageCount, Math.floor(options.to ?? reader.pageCount));
	let cutPage: number | undefined;
	for (let n = first; n <= last; n++) {
		if (options.signal?.aborted === true) throw new DOMException("The PDF was not read to the end.", "AbortError");
		const text = literalLines(await reader.pageText(n));
		// With `wholePages`, a page past the room left waits for the next reading (unless it is the first).
		if (options.wholePages === true && n > first && text.length > maxChars - chars) break;
		pagesRead = n;
		if (text.replace(/\s/g, "").length >= SCANNED_CHARS_PER_PAGE) pagesWithText++;
		if (text !== "") {
			// One page never takes more than the room left (a page of a megabyte of extracted text).
			let end = Math.min(text.length, maxChars - chars);
			if (splitsPair(text, end)) end++;
			parts.push(`## ${pageHeading(n)}\n\n${text.slice(0, end)}\n`);
			chars += end;
			if (end < text.length) cutPage = n;
		}
		if (chars >= maxChars) break;
		if (now() - started >= sliceMs) {
			await options.yieldNow();
			started = now();
		}
	}
	return { pages: reader.pageCount, pagesWithText, pagesRead, text: parts.join("\n"), ...(cutPage !== undefined ? { cutPage } : {}) };
}

/** No page has text: a scanned PDF (or images only). */
export function isScanned(reading: PdfReading): boolean {
	return reading.pages > 0 && reading.pagesWithText === 0;
}

/** The PDF as one source (its pages as sections), or undefined when it has no text to send. */
export function pdfSource(reading: PdfReading, path: string): ContextSource | undefined {
	if (isScanned(reading) || reading.text.trim() === "") return undefined;
	return { id: path, name: path, text: reading.text, kind: "note" };
}
