// PDFs as sources. The text comes through an injected reader (in the app: the pdf.js Obsidian ships,
// `loadPdfJs()`; in tests and scripts: any reader), page by page, so this runs headless. Each page
// becomes a section headed "p. N": the passages cut from it carry that heading, so every excerpt the
// model sees (and the sources line shows) names its page. Pages are read one at a time with a yield
// whenever a slice of work has run, so a 1,000-page PDF never holds the main thread. A PDF with no
// text layer (a scan) says so instead of sending nothing.
import { literalLines } from "./passages";
import { splitsPair } from "../core/surrogates";
import type { ContextSource } from "../core/types";

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
}

export interface PdfReading {
	pages: number;
	/** Pages with text on them. */
	pagesWithText: number;
	/** Pages read (fewer than `pages` when the reading was cut at `maxChars`). */
	pagesRead: number;
	/** The text as Markdown: a "## p. N" heading over each page's text. */
	text: string;
}

export interface PdfReadOptions {
	/** Gives the app its main thread back (in the app: the next task). */
	yieldNow: () => Promise<void>;
	/** Work between two yields, in milliseconds (default 8). */
	sliceMs?: number;
	now?: () => number;
	/** Stops reading pages past this many characters of text (default 4,000,000, the notes' limit). */
	maxChars?: number;
	signal?: AbortSignal;
}

/** Fewer characters than this on every page: no text layer (a scan, or only images). */
const SCANNED_CHARS_PER_PAGE = 16;
const DEFAULT_MAX_CHARS = 4_000_000;

/** A page's text from pdf.js's items: items joined, a line break where an item ends a line, runs of space squeezed. */
export function pdfPageText(items: readonly PdfTextItem[]): string {
	let out = "";
	for (const item of items) {
		out += item.str;
		if (item.hasEOL === true) out += "\n";
		else if (item.str !== "" && !/\s$/.test(item.str)) out += " ";
	}
	return out
		.replace(/[ \t\u00a0]+/g, " ")
		.replace(/ *\n */g, "\n")
		.replace(/\n{3,}/g, "\n\n")
		.trim();
}

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
	let pagesRead = 0;
	let started = now();
	for (let n = 1; n <= reader.pageCount; n++) {
		if (options.signal?.aborted === true) throw new DOMException("The PDF was not read to the end.", "AbortError");
		const text = literalLines(await reader.pageText(n));
		pagesRead = n;
		if (text.replace(/\s/g, "").length >= SCANNED_CHARS_PER_PAGE) pagesWithText++;
		if (text !== "") {
			// One page never takes more than the room left (a page of a megabyte of extracted text).
			let end = Math.min(text.length, maxChars - chars);
			if (splitsPair(text, end)) end++;
			parts.push(`## ${pageHeading(n)}\n\n${text.slice(0, end)}\n`);
			chars += end;
		}
		if (chars >= maxChars) break;
		if (now() - started >= sliceMs) {
			await options.yieldNow();
			started = now();
		}
	}
	return { pages: reader.pageCount, pagesWithText, pagesRead, text: parts.join("\n") };
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
