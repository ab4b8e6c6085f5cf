// A canvas attached with `@` (a note reference to a `.canvas` file) becomes its sources here: the
// canvas read by the engine (src/context/canvasSources.ts) in slices, then the notes its file cards
// point to read from the vault, each its own source under the canvas. Readings are kept by the
// canvas's modification time, so the preview on every pause in typing does not read it again.
import { TFile } from "obsidian";
import type { App } from "obsidian";
import { canvasSources, readCanvasSteps, type CanvasReading } from "../../../context/canvasSources";
import { runInSlices } from "../../../context/steps";
import type { ContextSource } from "../../../core/types";
import type { NoteTexts } from "./noteTexts";

export function isCanvasPath(path: string): boolean {
	return /\.canvas$/i.test(path);
}

/** The longest a canvas is read without giving the app its main thread back. */
const SLICE_MS = 8;

export class CanvasNotes {
	private readings = new Map<string, { mtime: number; found: string; reading: CanvasReading }>();

	constructor(
		private readonly app: App,
		private readonly texts: NoteTexts,
		/** Paths never brought in (Discover's own and the excluded folders): a card to one counts as missing. */
		private readonly fenced: (path: string) => boolean = () => false,
	) {}

	/** For the preview: the canvas's sources when it and its notes are at hand, else undefined (they are being read; `loaded` follows). */
	cached(canvas: TFile): ContextSource[] | undefined {
		const json = this.texts.cached(canvas);
		const hit = this.readings.get(canvas.path);
		if (json === undefined || !hit || hit.mtime !== canvas.stat.mtime) return undefined;
		const notes = this.noteFiles(hit.reading);
		if (this.foundKey(notes) !== hit.found) return undefined;
		const texts = new Map<string, string>();
		for (const note of notes) {
			const text = this.texts.cached(note);
			if (text === undefined) return undefined;
			texts.set(note.path, text);
		}
		return canvasSources(hit.reading, canvas.path, texts);
	}

	/** The canvas's sources, reading what is not cached yet (the canvas in slices). */
	async read(canvas: TFile): Promise<ContextSource[]> {
		const reading = await this.reading(canvas);
		const texts = new Map<string, string>();
		for (const note of this.noteFiles(reading)) texts.set(note.path, await this.texts.read(note));
		return canvasSources(reading, canvas.path, texts);
	}

	/** The notes of the canvases no longer attached are forgotten. */
	keepOnly(paths: ReadonlySet<string>): void {
		for (const path of [...this.readings.keys()]) if (!paths.has(path)) this.readings.delete(path);
	}

	/** The paths of the canvas's notes, for the text cache to keep. */
	notePaths(canvas: TFile): string[] {
		const hit = this.readings.get(canvas.path);
		return hit ? this.noteFiles(hit.reading).map((f) => f.path) : [];
	}

	private async reading(canvas: TFile): Promise<CanvasReading> {
		const json = await this.texts.read(canvas);
		const hit = this.readings.get(canvas.path);
		const state = (path: string): "found" | "missing" => (this.noteFile(path) ? "found" : "missing");
		if (hit && hit.mtime === canvas.stat.mtime && this.foundKey(this.noteFiles(hit.reading)) === hit.found) return hit.reading;
		const reading = await runInSlices(readCanvasSteps(json, state), () => new Promise<void>((resolve) => window.setTimeout(resolve, 0)), { sliceMs: SLICE_MS });
		this.readings.set(canvas.path, { mtime: canvas.stat.mtime, found: this.foundKey(this.noteFiles(reading)), reading });
		return reading;
	}

	private noteFile(path: string): TFile | undefined {
		if (this.fenced(path)) return undefined;
		const file = this.app.vault.getAbstractFileByPath(path);
		return file instanceof TFile && file.extension === "md" ? file : undefined;
	}

	private noteFiles(reading: CanvasReading): TFile[] {
		const out: TFile[] = [];
		for (const ref of reading.notes) {
			const file = this.noteFile(ref.path);
			if (file && !out.includes(file)) out.push(file);
		}
		return out;
	}

	/** Which of its notes exist: a note created or deleted since the canvas was read changes its text ("missing"). */
	private foundKey(notes: readonly TFile[]): string {
		return notes.map((f) => f.path).join("\n");
	}
}
