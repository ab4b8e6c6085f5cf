// The vault's lexical index for `@vault`: built in the background once the layout is ready, a few
// milliseconds at a time (indexInSlices, yielding to the app between slices), kept up to date on
// create, modify, rename and delete, and saved in the plugin's folder (`index.bin`: the index's
// format version, and each note's mtime) so a restart loads it and re-indexes only notes whose
// mtime changed. A file of another format or version (or the older `index.json`) is rebuilt.
// Saving and loading run in slices too (a big vault's index is megabytes: one task would freeze
// the app for seconds), and an unload stops whichever is running between two slices. The settings
// switch turns all of it off (no index in memory or on disk); excluded folders, the chats and the
// export folder are never indexed. With "Index PDFs" on, the vault's PDFs join it too, their pages
// read through pdf.js in slices (pdfIndexTexts.ts); turned off, they leave it at the next build.
import { isWithinFolder } from "../core/pathFences";
import { Component, debounce, TFile } from "obsidian";
import type { App, TAbstractFile } from "obsidian";
import { NOTE_INDEX_VERSION, NoteIndex, type NoteSearchHit } from "../context/NoteIndex";
import { indexInSlices, type NoteToIndex, type SliceReport } from "../context/indexInSlices";
import { searchWithText } from "../context/noteHits";
import type { DiscoverSettings } from "../settings/settings";
import type { VaultSearchPort } from "../ui/ports";
import { readPluginBinary, TMP_SUFFIX, writeBinaryAtomically } from "./pluginFile";
import { isPdfPath } from "../ui/panel/sources/pdfNotes";
import { pageAt, PdfIndexTexts } from "./pdfIndexTexts";
import type { PdfOpener } from "../ui/panel/sources/pdfNotes";

export const INDEX_FILE = "index.bin";
/** Where versions before the binary format saved the index: removed once a binary one is written. */
export const LEGACY_INDEX_FILE = "index.json";
/** Changes are written at most once per pause this long. */
export const INDEX_SAVE_DELAY_MS = 5000;
/** Work between two yields to the app, in milliseconds (each task stays well under 50 ms). */
export const INDEX_SLICE_MS = 8;
/** While a build runs, the index so far is saved this often, so an app closed mid-build resumes where it was. */
export const INDEX_CHECKPOINT_MS = 60_000;
/** Progress is told every this many notes (and at the start and end of a build). */
const PROGRESS_EVERY = 100;

/** How far a build is: notes indexed of the notes it has to index. */
export interface IndexProgress {
	done: number;
	total: number;
}

export interface NoteIndexServiceOptions {
	app: App;
	settings: () => DiscoverSettings;
	/** The plugin's folder, where index.bin lives. */
	dir: string;
	/** Lets the app run between slices (default: a zero-delay window timer). */
	yieldFn?: () => Promise<void>;
	saveDelayMs?: number;
	sliceMs?: number;
	now?: () => number;
	/** Told how far a build is while it runs, then undefined when it is over (the status bar shows it). */
	onProgress?: (progress: IndexProgress | undefined) => void;
	checkpointMs?: number;
	/** Opens a PDF for "Index PDFs" (default: the pdf.js Obsidian ships). */
	openPdf?: PdfOpener;
}

export type IndexState = "off" | "waiting" | "loading" | "building" | "ready";

const defaultYield = (): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, 0));

/** A save or load stopped between two slices (unload, switch off, rebuild): not a failure. */
class Stopped extends Error {}

export class NoteIndexService extends Component implements VaultSearchPort {
	private index: NoteIndex | undefined;
	state: IndexState = "waiting";
	/** Bumped to stop a running build (the switch turned off, the plugin unloaded, a rebuild). */
	private generation = 0;
	private building: Promise<void> = Promise.resolve();
	private dirty = false;
	/** The save in progress (saves run one after another). */
	private saving: Promise<void> = Promise.resolve();
	private readonly saveLater: ReturnType<typeof debounce>;
	/** Not yet started: the layout is not ready. */
	private started = false;
	private excludedKey = "";
	/** The per-note size limit the index was told (settings' indexNoteLimitMb), in characters. */
	private limitChars = 0;
	private current: IndexProgress | undefined;
	/** Vault changes waiting to be indexed: path → the file to index, or null for a deleted note. */
	private readonly pending = new Map<string, TFile | null>();
	private draining = false;
	private drained: Promise<void> = Promise.resolve();

	private readonly pdfTexts: PdfIndexTexts;

	constructor(private readonly options: NoteIndexServiceOptions) {
		super();
		this.pdfTexts = new PdfIndexTexts(options.app, { yieldNow: options.yieldFn ?? defaultYield, sliceMs: options.sliceMs ?? INDEX_SLICE_MS, now: options.now }, options.openPdf);
		this.saveLater = debounce(() => void this.save(), options.saveDelayMs ?? INDEX_SAVE_DELAY_MS, true);
	}

	get enabled(): boolean {
		return this.options.settings().vaultIndex === true;
	}

	/** PDFs join the index ("Index PDFs"). */
	private get pdfsOn(): boolean {
		return this.options.settings().indexPdfs === true;
	}

	/** The files the index holds: the notes, and the PDFs when they join it. */
	private indexableFiles(): TFile[] {
		const notes = this.options.app.vault.getMarkdownFiles();
		return this.pdfsOn ? [...notes, ...this.pdfTexts.files()] : notes;
	}

	/** A file's text for the index: a note's as it is, a PDF's pages (each under "## p. N") through pdf.js. */
	private readText(file: TFile, stopped?: () => boolean): Promise<string> {
		return isPdfPath(file.path) ? this.pdfTexts.text(file, stopped) : this.options.app.vault.cachedRead(file);
	}

	/** Notes in the index (0 while off or loading). */
	get size(): number {
		return this.index?.size ?? 0;
	}

	/** How far the running build is (undefined when none runs). Search answers meanwhile, from the notes indexed so far. */
	get progress(): IndexProgress | undefined {
		return this.current ? { ...this.current } : undefined;
	}

	private tell(progress: IndexProgress | undefined): void {
		this.current = progress;
		this.options.onProgress?.(progress ? { ...progress } : undefined);
	}

	/** Resolves when the current build (if any) has finished. */
	whenBuilt(): Promise<void> {
		return this.building;
	}

	private get path(): string {
		return `${this.options.dir}/${INDEX_FILE}`;
	}

	private get legacyPath(): string {
		return `${this.options.dir}/${LEGACY_INDEX_FILE}`;
	}

	/** Resolves when the saves asked for so far have finished. */
	whenSaved(): Promise<void> {
		return this.saving;
	}

	/** The yield between slices of work begun under `generation`: throws Stopped once that is over. */
	private yieldFor(generation: number): () => Promise<void> {
		const yieldFn = this.options.yieldFn ?? defaultYield;
		return async () => {
			await yieldFn();
			if (generation !== this.generation) throw new Stopped();
		};
	}

	private sliceOptions(): { sliceMs: number; now?: () => number } {
		return { sliceMs: this.options.sliceMs ?? INDEX_SLICE_MS, now: this.options.now };
	}

	override onload(): void {
		const { app } = this.options;
		this.registerEvent(app.vault.on("create", (file) => this.onChanged(file)));
		this.registerEvent(app.vault.on("modify", (file) => this.onChanged(file)));
		this.registerEvent(app.vault.on("delete", (file) => this.onDeleted(file.path)));
		this.registerEvent(
			app.vault.on("rename", (file, oldPath) => {
				this.onDeleted(oldPath);
				this.onChanged(file);
			}),
		);
		this.register(() => {
			this.generation++;
			this.saveLater.cancel();
		});
		app.workspace.onLayoutReady(() => {
			this.started = true;
			// In the next task, not inside the plugin's load when the layout is already there (the
			// plugin turned on, or reloaded): the first slice and the status bar's first count (whose
			// number format loads ICU's data) are not what the ribbon and the commands wait for.
			const generation = this.generation;
			const deferred: Promise<void> = (this.options.yieldFn ?? defaultYield)().then(() => {
				if (generation !== this.generation) return undefined;
				this.start();
				return this.building === deferred ? undefined : this.building;
			});
			this.building = deferred;
		});
	}

	override onunload(): void {
		// A running build, load or save stops at its next slice (the registered cleanup above bumped
		// the generation). What changed since the last save is not written now: a save in slices
		// cannot finish while the app closes and one in a single task would freeze it; the next
		// start compares every note's mtime and re-indexes what changed.
		this.generation++;
		this.saveLater.cancel();
	}

	/** The settings were saved: follow the switch and the excluded folders. */
	settingsChanged(): void {
		if (!this.started) return;
		if (!this.enabled) {
			if (this.state !== "off") void this.turnOff();
			return;
		}
		if (this.state === "off" || this.excludedKey !== this.excludedSignature()) this.start();
		else this.followLimit();
	}

	/** The per-note size limit (settings, MB) in characters. */
	private settingsLimitChars(): number {
		const mb = this.options.settings().indexNoteLimitMb;
		return Math.max(1, Math.round((Number.isFinite(mb) && mb > 0 ? mb : 4) * 1024 * 1024));
	}

	/**
	 * A new per-note limit: the index uses it from now on, and the notes it may change (those over
	 * the smaller of the old and new limits; a file's bytes are never fewer than its characters) are
	 * queued to be indexed again.
	 */
	private followLimit(): void {
		const index = this.index;
		const limit = this.settingsLimitChars();
		if (!index || limit === this.limitChars) return;
		const smaller = Math.min(limit, this.limitChars || limit);
		this.limitChars = limit;
		index.maxNoteChars = limit;
		for (const file of this.indexableFiles()) {
			if (file.stat.size > smaller && index.has(file.path)) this.onChanged(file);
		}
	}

	/**
	 * When the note `id`, now `chars` characters long, is searched by its start only (it is over the
	 * per-note limit): that limit in MB. Undefined when it is indexed whole, or not at all.
	 */
	indexedInPartOverMb(id: string, chars: number): number | undefined {
		const index = this.index;
		if (!this.enabled || !index?.has(id)) return undefined;
		if (chars <= index.maxNoteChars && index.partialLength(id) === undefined) return undefined;
		return this.options.settings().indexNoteLimitMb;
	}

	/** The best notes' passages, without their text (the index keeps none): for ranking notes. `searchText` gives the text. */
	search(query: string, opts: { limit?: number } = {}): { id: string; name: string; score: number; text: string }[] {
		if (!this.enabled || !this.index) return [];
		return this.index.search(query, opts);
	}

	/**
	 * `search` with each passage's text, read back from the vault; a note edited since it was
	 * indexed is re-indexed first (in slices), so offsets are never cut from a newer text.
	 */
	async searchText(query: string, opts: { limit?: number } = {}): Promise<NoteSearchHit[]> {
		const index = this.index;
		if (!this.enabled || !index) return [];
		const { vault } = this.options.app;
		const hits = await searchWithText(
			index,
			query,
			async (id) => {
				const file = vault.getAbstractFileByPath(id);
				return file instanceof TFile ? { text: await this.readText(file), mtime: file.stat.mtime } : undefined;
			},
			{
				...opts,
				// Through the queue that indexes vault changes: one indexer at a time, and the note's
				// own modify event, if it is still waiting there, is the same entry.
				reindex: async (id) => {
					const file = vault.getAbstractFileByPath(id);
					this.queue(id, file instanceof TFile ? file : null);
					await this.whenChangesIndexed();
				},
			},
		);
		return Promise.all(hits.map((hit) => this.namingPage(hit)));
	}

	/** A PDF's passage opens with its page's heading ("## p. 12"), where the passage starts further down the page. */
	private async namingPage(hit: NoteSearchHit): Promise<NoteSearchHit> {
		const file = this.options.app.vault.getAbstractFileByPath(hit.id);
		if (!isPdfPath(hit.id) || hit.start === undefined || !(file instanceof TFile) || hit.text.startsWith("## p. ")) return hit;
		const page = pageAt(await this.readText(file), hit.start);
		return page === undefined ? hit : { ...hit, text: `## p. ${page}\n\n${hit.text}` };
	}

	/** Folders never indexed: the person's, the chats and the exports. */
	private excludedFolders(): string[] {
		const s = this.options.settings();
		return [s.sessionsFolder, s.exportFolder, ...(s.indexExcludedFolders ?? [])].map((f) => f.replace(/^\/+|\/+$/g, "")).filter((f) => f !== "");
	}

	/** What decides which files are indexed: a change starts a build, which adds and removes files to match. */
	private excludedSignature(): string {
		return JSON.stringify([this.excludedFolders(), this.pdfsOn]);
	}

	isIndexed(path: string): boolean {
		if (!path.endsWith(".md") && !(this.pdfsOn && isPdfPath(path))) return false;
		// Compared as every fence compares (NFC, case folded, trailing dots): a setting "private" keeps "Private/" out.
		return !this.excludedFolders().some((f) => isWithinFolder(path, f));
	}

	private start(): void {
		if (!this.enabled) {
			this.state = "off";
			return;
		}
		const generation = ++this.generation;
		this.excludedKey = this.excludedSignature();
		this.building = this.build(generation).catch((err: unknown) => console.error("Discover: the vault index could not be built", err));
	}

	private async turnOff(): Promise<void> {
		this.generation++;
		this.saveLater.cancel();
		this.index = undefined;
		this.state = "off";
		this.dirty = false;
		await this.building;
		await this.saving;
		const adapter = this.options.app.vault.adapter;
		try {
			for (const path of [this.path, this.path + TMP_SUFFIX, this.legacyPath]) if (await adapter.exists(path)) await adapter.remove(path);
		} catch (err) {
			console.error("Discover: the saved vault index could not be removed", err);
		}
	}

	/**
	 * The saved index when it is of this format and version; else undefined (and the index is
	 * rebuilt). Throws Stopped when the load was stopped.
	 */
	private async loadSaved(generation: number): Promise<NoteIndex | undefined> {
		let bytes: ArrayBuffer | undefined;
		try {
			bytes = await readPluginBinary(this.options.app.vault.adapter, this.path);
		} catch {
			return undefined;
		}
		if (bytes === undefined || generation !== this.generation) return undefined;
		try {
			return await NoteIndex.loadInSlices(bytes, this.yieldFor(generation), { ...this.sliceOptions(), keepText: false });
		} catch (err) {
			if (err instanceof Stopped) throw err;
			return undefined;
		}
	}

	private async build(generation: number): Promise<void> {
		const stale = (): boolean => generation !== this.generation;
		if (!this.index) {
			this.state = "loading";
			let saved: NoteIndex | undefined;
			try {
				saved = await this.loadSaved(generation);
			} catch (err) {
				if (err instanceof Stopped) return;
				throw err;
			}
			if (stale()) return;
			// The index keeps no note texts (100,000 notes' text is the vault's size again): hits read theirs back.
			this.index = saved ?? new NoteIndex({ keepText: false });
			// An index of an older format (it still loads) is saved again in the current one.
			if (!saved || (saved.loadedVersion ?? NOTE_INDEX_VERSION) < NOTE_INDEX_VERSION) this.dirty = true;
			this.limitChars = this.settingsLimitChars();
			this.index.maxNoteChars = this.limitChars;
		}
		const index = this.index;
		this.state = "building";
		const files = new Map(this.indexableFiles().filter((f) => this.isIndexed(f.path)).map((f) => [f.path, f]));
		for (const { id } of index.entries()) {
			if (!files.has(id)) {
				index.remove(id);
				this.dirty = true;
			}
		}
		const todo = [...files.values()].filter((f) => index.mtimeOf(f.path) !== f.stat.mtime);
		const progress: IndexProgress = { done: 0, total: todo.length };
		const now = this.options.now ?? ((): number => performance.now());
		const checkpointMs = this.options.checkpointMs ?? INDEX_CHECKPOINT_MS;
		let checkpoint = now();
		if (todo.length > 0) this.tell(progress);
		const tell = (p: IndexProgress): void => this.tell(p);
		const save = (): Promise<void> => this.save();
		const readText = (file: TFile): Promise<string> => this.readText(file, stale);
		async function* read(): AsyncGenerator<NoteToIndex> {
			for (const [k, file] of todo.entries()) {
				if (stale()) return;
				progress.done = k;
				if (k % PROGRESS_EVERY === 0) tell(progress);
				if (k > 0 && now() - checkpoint >= checkpointMs) {
					// The index so far, saved in slices (indexing waits): an app closed now resumes from here.
					await save();
					checkpoint = now();
					if (stale()) return;
				}
				try {
					yield { id: file.path, name: file.basename, text: await readText(file), mtime: file.stat.mtime };
				} catch {
					// Gone or unreadable since the listing: the events bring it back if it returns.
				}
			}
		}
		let report: SliceReport;
		try {
			report = await indexInSlices(index, read(), this.options.yieldFn ?? defaultYield, { ...this.sliceOptions(), cancelled: stale });
		} finally {
			if (this.current === progress) this.tell(undefined);
		}
		if (stale()) return;
		if (report.notes > 0) this.dirty = true;
		this.state = "ready";
		if (this.dirty) this.saveLater();
	}

	private onChanged(file: TAbstractFile): void {
		if (!(file instanceof TFile) || !this.index || !this.enabled || !this.isIndexed(file.path)) return;
		this.queue(file.path, file);
	}

	private onDeleted(path: string): void {
		if (!this.index) return;
		this.queue(path, null);
	}

	/**
	 * Vault events are indexed in the background, in slices like the build: a sync that brings
	 * thousands of changed notes (or one 16 MB note) never holds the app longer than a slice. The
	 * latest event for a path wins; the queue is read as it drains.
	 */
	private queue(path: string, file: TFile | null): void {
		this.pending.delete(path);
		this.pending.set(path, file);
		if (this.draining) return;
		const index = this.index;
		const generation = this.generation;
		if (!index) return;
		this.draining = true;
		this.drained = this.drainQueue(index, generation)
			.catch((err: unknown) => {
				if (!(err instanceof Stopped)) console.error("Discover: a vault change could not be indexed", err);
			})
			.finally(() => {
				this.draining = false;
				// Events that came after the index or generation changed start a new drain.
				if (this.pending.size > 0 && this.index) {
					const [next] = this.pending;
					if (next) this.queue(next[0], next[1]);
				}
			});
	}

	private async drainQueue(index: NoteIndex, generation: number): Promise<void> {
		const stale = (): boolean => generation !== this.generation || this.index !== index;
		const pending = this.pending;
		const readText = (file: TFile): Promise<string> => this.readText(file, stale);
		let changes = 0;
		async function* changed(): AsyncGenerator<NoteToIndex> {
			while (pending.size > 0 && !stale()) {
				const [entry] = pending;
				if (!entry) return;
				const [path, file] = entry;
				pending.delete(path);
				if (file === null) {
					if (!index.has(path)) continue;
					changes++;
					yield { id: path, text: "", remove: true };
					continue;
				}
				try {
					const text = await readText(file);
					changes++;
					yield { id: file.path, name: file.basename, text, mtime: file.stat.mtime };
				} catch {
					// Gone since the event: its delete event follows.
				}
			}
		}
		await indexInSlices(index, changed(), this.yieldFor(generation), { ...this.sliceOptions(), cancelled: stale });
		if (changes > 0 && !stale()) this.changed();
	}

	/** Resolves when the vault changes queued so far are indexed. */
	async whenChangesIndexed(): Promise<void> {
		while (this.draining) await this.drained;
	}

	private changed(): void {
		this.dirty = true;
		if (this.state === "ready") this.saveLater();
	}

	/** Writes the index now (debounced callers go through saveLater), after any save in progress. */
	save(): Promise<void> {
		this.saving = this.saving.then(() => this.saveNow());
		return this.saving;
	}

	private async saveNow(): Promise<void> {
		const index = this.index;
		if (!index || !this.enabled) return;
		const generation = this.generation;
		const adapter = this.options.app.vault.adapter;
		this.dirty = false;
		try {
			const bytes = await index.toBinaryInSlices(this.yieldFor(generation), this.sliceOptions());
			if (generation !== this.generation) throw new Stopped();
			await writeBinaryAtomically(adapter, this.path, bytes);
			if (await adapter.exists(this.legacyPath)) await adapter.remove(this.legacyPath);
		} catch (err) {
			if (this.index === index) this.dirty = true;
			if (!(err instanceof Stopped)) console.error("Discover: the vault index could not be saved", err);
		}
	}
}
