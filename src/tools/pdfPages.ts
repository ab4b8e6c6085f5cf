// read_note on a PDF: its text by page range ("pages": "3-5", or "first_page" and "last_page"),
// each page under a "## p. N" heading so every passage names its page, through the reader the
// vault hands over (in the app: the pdf.js Obsidian ships). One result holds at most PAGE_CHARS
// characters of whole pages; the header says which pages it holds and how to ask for the rest.
import { readPdf, type PdfReader } from "../context/pdfSources";
import { optionalInt, optionalString } from "./args";
import { PAGE_CHARS } from "./pages";
import { ToolError } from "./paths";

export function isPdfPath(path: string): boolean {
	return /\.pdf$/i.test(path);
}

/** The pages asked for: `last` undefined means to the end. */
export interface PageRange {
	first: number;
	last: number | undefined;
}

const RANGE_HELP = 'Give "pages" as one page or a range, such as "3" or "3-5" ("7-" reads from page 7 on); pages are counted from 1.';

/** "3", "3-5", "3–5", "7-", "p. 3-5": the range; anything else a ToolError saying how to write one. */
export function parsePageRange(raw: string): PageRange {
	const m = /^\s*(?:pp?\.?\s*)?(\d{1,7})\s*(?:([-–—]|to)\s*(\d{1,7})?)?\s*$/i.exec(raw);
	if (!m) throw new ToolError(`"pages" is "${raw.slice(0, 40)}", which is not a page range. ${RANGE_HELP}`);
	const first = Number(m[1]);
	const last = m[3] !== undefined ? Number(m[3]) : m[2] !== undefined ? undefined : first;
	if (first < 1) throw new ToolError(`"pages" starts at page 0; pages are counted from 1. ${RANGE_HELP}`);
	if (last !== undefined && last < first) throw new ToolError(`"pages" "${raw}" ends before it starts; give the first page first, such as "${last}-${first}".`);
	return { first, last };
}

/** The range the arguments ask for: "pages", or "first_page"/"last_page", or a lone "page" (what a model means by it on a PDF); all pages when none. */
export function pdfRangeOf(args: Record<string, unknown>): PageRange {
	for (const key of ["heading", "from_line", "to_line"]) {
		if (args[key] !== undefined && args[key] !== null) throw new ToolError(`"${key}" is for notes; a PDF is read by pages: give "pages" (such as "3-5"), or "first_page" and "last_page".`);
	}
	const pages = optionalString(args, "pages");
	const first = optionalInt(args, "first_page", 1, Number.MAX_SAFE_INTEGER);
	const last = optionalInt(args, "last_page", 1, Number.MAX_SAFE_INTEGER);
	if (pages !== undefined && pages.trim() !== "") {
		if (first !== undefined || last !== undefined) throw new ToolError('Give either "pages" or "first_page" and "last_page", not both.');
		return parsePageRange(pages);
	}
	if (first !== undefined || last !== undefined) {
		const from = first ?? 1;
		if (last !== undefined && last < from) throw new ToolError(`"last_page" (${last}) is before "first_page" (${from}); give the first page first.`);
		return { first: from, last };
	}
	const page = optionalInt(args, "page", 1, Number.MAX_SAFE_INTEGER);
	return page !== undefined ? { first: page, last: page } : { first: 1, last: undefined };
}

function span(first: number, last: number): string {
	return first === last ? `page ${first}` : `pages ${first}-${last}`;
}

/**
 * The PDF's pages `range` as the model reads them: a header naming the pages read and the page
 * count, then each page's text under "## p. N". At most `maxChars` (PAGE_CHARS) of whole pages; the
 * header says which pages follow and the call that reads them.
 */
export async function renderPdfPages(path: string, reader: PdfReader, range: PageRange, yieldNow: () => Promise<void>, maxChars = PAGE_CHARS): Promise<string> {
	const count = reader.pageCount;
	if (count === 0) return `${path} is a PDF with no pages.`;
	if (range.first > count) throw new ToolError(`${path} has ${count} page${count === 1 ? "" : "s"}; page ${range.first} is past its end. Ask for pages 1-${count} or fewer.`);
	const last = Math.min(range.last ?? count, count);
	const reading = await readPdf(reader, { from: range.first, to: last, maxChars, wholePages: true, yieldNow });
	const read = reading.pagesRead;
	const withText = new Set([...reading.text.matchAll(/^## p\. (\d+)$/gm)].map((m) => Number(m[1])));
	const blank = [];
	for (let n = range.first; n <= read; n++) if (!withText.has(n)) blank.push(n);
	let header = `${path} (PDF, ${span(range.first, read)} of ${count})`;
	if (range.last !== undefined && range.last > count) header += `. It has ${count} pages; the range asked for ended at ${range.last}`;
	if (reading.cutPage !== undefined) header += `. Page ${reading.cutPage} holds more text than one read returns: only its first ${maxChars.toLocaleString("en-US")} characters are shown`;
	if (read < last) header += `. More follows: call read_note with the same path and "pages": "${read + 1 === last ? last : `${read + 1}-${last}`}"`;
	if (withText.size === 0) {
		const scanned = range.first === 1 && read === count;
		return `${header}.\n\n${scanned ? "This PDF has no text layer (it is a scan, or images only): its text cannot be read. Ask the person what it says." : `No text on ${span(range.first, read)} (scanned pages or images only).`}`;
	}
	if (blank.length > 0) header += `. No text on ${blank.length === 1 ? "page" : "pages"} ${blank.join(", ")} (scanned or images only)`;
	return `${header}.\n\n${reading.text}`;
}
