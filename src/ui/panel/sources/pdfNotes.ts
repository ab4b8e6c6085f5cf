// A PDF attached with `@` (a note reference to a `.pdf` file) becomes one source here: its pages read
// by the engine (src/context/pdfSources.ts) through the pdf.js Obsidian ships, a page at a time with
// the app given its main thread back between slices. Readings are kept by the file's modification
// time, so the preview on every pause in typing does not read it again. A PDF without a text layer
// (a scan) is said, once per reading, instead of sending nothing silently.
import { loadPdfJs, Notice, type App, type TFile } from "obsidian";
import { pdfPageText, pdfSource, readPdf, isScanned, type PdfReader, type PdfReading, type PdfTextItem } from "../../../context/pdfSources";
import type { ContextSource } from "../../../core/types";
import { t } from "../../../i18n";

export function isPdfPath(path: string): boolean {
	return /\.pdf$/i.test(path);
}

/** The longest a PDF is read without giving the app its main thread back. */
const SLICE_MS = 8;

/** Opens a PDF of the vault for reading (in the app: pdf.js; tests give their own). */
export type PdfOpener = (app: App, file: TFile) => Promise<PdfReader>;

interface PdfJsDocument {
	numPages: number;
	getPage(n: number): Promise<{ getTextContent(): Promise<{ items: unknown[] }>; cleanup(): void }>;
	destroy(): Promise<void>;
}

/** The pdf.js Obsidian ships (`loadPdfJs()`), over the file's bytes. */
export const obsidianPdfOpener: PdfOpener = async (app, file) => {
	const pdfjs = (await loadPdfJs()) as { getDocument(src: { data: Uint8Array }): { promise: Promise<PdfJsDocument> } };
	const doc = await pdfjs.getDocument({ data: new Uint8Array(await app.vault.readBinary(file)) }).promise;
	return {
		pageCount: doc.numPages,
		async pageText(n) {
			const page = await doc.getPage(n);
			const content = await page.getTextContent();
			page.cleanup();
			// Marked-content items have no `str`: they carry no text.
			return pdfPageText(content.items.filter((i): i is PdfTextItem => typeof (i as PdfTextItem).str === "string"));
		},
		close: () => doc.destroy(),
	};
};

export class PdfNotes {
	private readings = new Map<string, { mtime: number; reading: Promise<PdfReading> }>();
	private done = new Map<string, { mtime: number; reading: PdfReading }>();

	constructor(
		private readonly app: App,
		private readonly open: PdfOpener = obsidianPdfOpener,
	) {}

	/** For the preview: the PDF's source when it was read already, else undefined (`read` follows). */
	cached(file: TFile): ContextSource[] | undefined {
		const hit = this.done.get(file.path);
		if (!hit || hit.mtime !== file.stat.mtime) return undefined;
		return sourcesOf(hit.reading, file);
	}

	/** The PDF's source (none for a scan, which is said), reading it when it is not at hand. */
	async read(file: TFile): Promise<ContextSource[]> {
		let entry = this.readings.get(file.path);
		if (!entry || entry.mtime !== file.stat.mtime) {
			entry = { mtime: file.stat.mtime, reading: this.readNow(file) };
			this.readings.set(file.path, entry);
			entry.reading.catch(() => this.readings.delete(file.path));
		}
		return sourcesOf(await entry.reading, file);
	}

	keepOnly(paths: ReadonlySet<string>): void {
		for (const path of [...this.readings.keys()]) if (!paths.has(path)) this.readings.delete(path);
		for (const path of [...this.done.keys()]) if (!paths.has(path)) this.done.delete(path);
	}

	private async readNow(file: TFile): Promise<PdfReading> {
		const reader = await this.open(this.app, file);
		try {
			const reading = await readPdf(reader, { sliceMs: SLICE_MS, yieldNow: () => new Promise<void>((resolve) => window.setTimeout(resolve, 0)) });
			this.done.set(file.path, { mtime: file.stat.mtime, reading });
			if (isScanned(reading)) new Notice(t("sources.pdfScanned", { name: file.name }), 10000);
			return reading;
		} finally {
			await reader.close?.();
		}
	}
}

function sourcesOf(reading: PdfReading, file: TFile): ContextSource[] {
	const source = pdfSource(reading, file.path);
	return source ? [{ ...source, name: file.basename }] : [];
}
