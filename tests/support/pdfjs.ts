// pdfjs-dist, the pdf.js Obsidian ships (its `loadPdfJs()` hands the app the same library), for
// tests in Node: the legacy build (Node has no DOMMatrix and the like), with no worker set up, so
// pdf.js runs its "fake worker" in this thread as pdfjs-dist documents for Node. Fonts a PDF does not
// embed (groff's Times) and predefined CJK CMaps come from the package's own folders, as Obsidian's
// viewer has them. The fixtures are tests/fixtures/pdf/*.pdf (see its README).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { openPdfWith, type PdfJsLib, type PdfReader } from "../../src/context/pdfSources";

const PDFJS_DIR = join(import.meta.dirname, "..", "..", "node_modules", "pdfjs-dist");
export const PDF_FIXTURES = join(import.meta.dirname, "..", "fixtures", "pdf");

/** pdf.js as the app's code calls it (`getDocument({ data, isEvalSupported })`), with Node's font and CMap folders. */
export const nodePdfJs: PdfJsLib = {
	// No PDFWorker here: in Node pdf.js runs its fake worker for each document, and no worker is ever handed in.
	getDocument: ({ data, isEvalSupported }) =>
		pdfjs.getDocument({
			data,
			isEvalSupported,
			standardFontDataUrl: `${PDFJS_DIR}/standard_fonts/`,
			cMapUrl: `${PDFJS_DIR}/cmaps/`,
			cMapPacked: true,
			// Warnings (a font's glyphs it does not need for text) are not the tests' business; errors are.
			verbosity: pdfjs.VerbosityLevel.ERRORS,
		}),
};

/** A fixture's bytes (a fresh copy: pdf.js takes ownership of what it is given). */
export function fixtureBytes(name: string): Uint8Array {
	return new Uint8Array(readFileSync(join(PDF_FIXTURES, name)));
}

/** A reader over a fixture, through the same code the app reads PDFs with (openPdfWith). */
export function openFixture(name: string): Promise<PdfReader> {
	return openPdfWith(nodePdfJs, fixtureBytes(name));
}

/** Each page's raw text items with their positions, straight from pdf.js (to check a fixture is what it says). */
export async function rawItems(name: string): Promise<{ page: number; str: string; x: number; y: number }[][]> {
	const doc = await pdfjs.getDocument({ data: fixtureBytes(name), isEvalSupported: false, verbosity: pdfjs.VerbosityLevel.ERRORS, standardFontDataUrl: `${PDFJS_DIR}/standard_fonts/` }).promise;
	try {
		const pages: { page: number; str: string; x: number; y: number }[][] = [];
		for (let n = 1; n <= doc.numPages; n++) {
			const content = await (await doc.getPage(n)).getTextContent();
			pages.push(content.items.flatMap((i) => ("str" in i ? [{ page: n, str: i.str, x: i.transform[4] as number, y: i.transform[5] as number }] : [])));
		}
		return pages;
	} finally {
		await doc.destroy();
	}
}
