// The text the vault index keeps for a PDF ("Index PDFs" on): its pages read through the pdf.js
// Obsidian ships, one at a time with the app given its main thread back between slices (readPdf),
// each page under its "## p. N" heading so a passage the index finds names its page. The texts
// last read are kept by the file's version, so a search that reads a hit's PDF back (the index
// keeps no texts) does not parse it again; a scan gives "" (indexed as empty, so it is not read
// again at every start until it changes).
import type { App, TFile } from "obsidian";
import { readPdf } from "../context/pdfSources";
import { obsidianPdfOpener, type PdfOpener } from "../ui/panel/sources/pdfNotes";

/** The page a passage at `offset` of a PDF's index text is on: the last "## p. N" heading before it. */
export function pageAt(text: string, offset: number): number | undefined {
	let page: number | undefined;
	for (const m of text.matchAll(/^## p\. (\d+)$/gm)) {
		if (m.index > offset) break;
		page = Number(m[1]);
	}
	return page;
}

/** PDF texts kept for reading hits back: a few, the last read (a PDF's text is megabytes at most). */
const KEPT = 4;

export class PdfIndexTexts {
	private readonly kept = new Map<string, { version: string; text: string }>();

	constructor(
		private readonly app: App,
		/** How the reading shares the thread: the index's own slices (yield, slice length, clock). */
		private readonly slices: { yieldNow: () => Promise<void>; sliceMs: number; now?: () => number },
		private readonly open: PdfOpener = obsidianPdfOpener,
	) {}

	/** The vault's PDFs. */
	files(): TFile[] {
		return this.app.vault.getFiles().filter((f) => f.extension.toLowerCase() === "pdf");
	}

	/**
	 * The PDF's text for the index, read in slices (or kept from the last read of this version);
	 * rejects when it cannot be read, or when `stopped()` turns true between two slices (the index
	 * turned off or rebuilt: a 1,000-page PDF is not read to its end for nothing).
	 */
	async text(file: TFile, stopped: () => boolean = () => false): Promise<string> {
		const version = `${file.stat.mtime}:${file.stat.size}`;
		const hit = this.kept.get(file.path);
		if (hit?.version === version) return hit.text;
		const reader = await this.open(this.app, file);
		let text: string;
		try {
			const yieldNow = async (): Promise<void> => {
				await this.slices.yieldNow();
				if (stopped()) throw new Error("The index stopped reading this PDF.");
			};
			text = (await readPdf(reader, { ...this.slices, yieldNow })).text;
		} finally {
			await reader.close?.();
		}
		this.kept.delete(file.path);
		this.kept.set(file.path, { version, text });
		for (const path of this.kept.keys()) if (this.kept.size > KEPT) this.kept.delete(path);
		return text;
	}
}
