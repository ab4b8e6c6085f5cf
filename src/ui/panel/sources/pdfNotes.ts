// A PDF attached with `@` (a note reference to a `.pdf` file) becomes one source here: its pages read
// by the engine (src/context/pdfSources.ts) through the pdf.js Obsidian ships, a page at a time with
// the app given its main thread back between slices. Readings are kept by the file's version (its
// modification time and size), so the preview on every pause in typing does not read it again; a
// reading that failed (a damaged PDF) is kept too, until the file changes. A PDF without a text
// layer (a scan) is said, once per reading, instead of sending nothing silently. pdf.js runs with
// eval turned off: nothing in a file becomes code (the fonts' glyphs are not needed for text).
import { loadPdfJs, Notice, type App, type TFile } from "obsidian";
import { openPdfWith, pdfSource, readPdf, isScanned, type PdfJsLib, type PdfReader, type PdfReading } from "../../../context/pdfSources";
import type { ContextSource } from "../../../core/types";
import { t } from "../../../i18n";

export function isPdfPath(path: string): boolean {
	return /\.pdf$/i.test(path);
}

/** The longest a PDF is read without giving the app its main thread back. */
const SLICE_MS = 8;

/** Opens a PDF of the vault for reading (in the app: pdf.js; tests give their own). */
export type PdfOpener = (app: App, file: TFile) => Promise<PdfReader>;

/** The pdf.js Obsidian ships (`loadPdfJs()`), over the file's bytes, with eval turned off. */
export const obsidianPdfOpener: PdfOpener = async (app, file) => openPdfWith((await loadPdfJs()) as PdfJsLib, new Uint8Array(await app.vault.readBinary(file)));

/** Which version of a file a reading is of. */
function versionOf(file: TFile): string {
	return `${file.stat.mtime}:${file.stat.size}`;
}

export class PdfNotes {
	/** Each file's reading, under way, done or failed (a failure is kept until the file changes). */
	private readings = new Map<string, { version: string; reading: Promise<PdfReading> }>();
	private done = new Map<string, { version: string; reading: PdfReading }>();
	/** The files whose reading failed, by version: the preview does not try them again. */
	private failed = new Map<string, string>();

	constructor(
		private readonly app: App,
		private readonly open: PdfOpener = obsidianPdfOpener,
	) {}

	/** For the preview: the PDF's source when it was read already, else undefined (`read` follows). */
	cached(file: TFile): ContextSource[] | undefined {
		const version = versionOf(file);
		// A PDF that could not be read shows nothing (its failure was said when it happened); a send says it again.
		if (this.failed.get(file.path) === version) return [];
		const hit = this.done.get(file.path);
		if (!hit || hit.version !== version) return undefined;
		return sourcesOf(hit.reading, file);
	}

	/** The PDF's source (none for a scan, which is said), reading it when it is not at hand; a failed reading fails again without reading. */
	async read(file: TFile): Promise<ContextSource[]> {
		const version = versionOf(file);
		let entry = this.readings.get(file.path);
		if (!entry || entry.version !== version) {
			entry = { version, reading: this.readNow(file, version) };
			this.readings.set(file.path, entry);
			this.failed.delete(file.path);
			entry.reading.catch(() => {
				if (this.readings.get(file.path)?.version === version) this.failed.set(file.path, version);
			});
		}
		return sourcesOf(await entry.reading, file);
	}

	keepOnly(paths: ReadonlySet<string>): void {
		for (const map of [this.readings, this.done, this.failed]) for (const path of [...map.keys()]) if (!paths.has(path)) map.delete(path);
	}

	private async readNow(file: TFile, version: string): Promise<PdfReading> {
		const reader = await this.open(this.app, file);
		try {
			const reading = await readPdf(reader, { sliceMs: SLICE_MS, yieldNow: () => new Promise<void>((resolve) => window.setTimeout(resolve, 0)) });
			this.done.set(file.path, { version, reading });
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
