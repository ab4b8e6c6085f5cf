// The vault's lexical index for `@vault`: built in the background once the layout is ready, a few
// milliseconds at a time (indexInSlices, yielding to the app between slices), kept up to date on
// create, modify, rename and delete, and saved in the plugin's folder (`index.json`: the index's
// format version, and each note's mtime) so a restart loads it and re-indexes only notes whose
// mtime changed. A file of another format or version is rebuilt. The settings switch turns all of
// it off (no index in memory or on disk); excluded folders, the chats and the export folder are
// never indexed.
import { Component, debounce, TFile } from "obsidian";
import type { App, TAbstractFile } from "obsidian";
import { NoteIndex } from "../context/NoteIndex";
import { indexInSlices, type NoteToIndex } from "../context/indexInSlices";
import type { DiscoverSettings } from "../settings/settings";
import type { VaultSearchPort } from "../ui/ports";
import { readPluginFile, writeAtomically } from "./pluginFile";

export const INDEX_FILE = "index.json";
/** Changes are written at most once per pause this long. */
export const INDEX_SAVE_DELAY_MS = 5000;
/** Work between two yields to the app, in milliseconds (each task stays well under 50 ms). */
export const INDEX_SLICE_MS = 8;

export interface NoteIndexServiceOptions {
	app: App;
	settings: () => DiscoverSettings;
	/** The plugin's folder, where index.json lives. */
	dir: string;
	/** Lets the app run between slices (default: a zero-delay window timer). */
	yieldFn?: () => Promise<void>;
	saveDelayMs?: number;
	sliceMs?: number;
	now?: () => number;
}

export type IndexState = "off" | "waiting" | "loading" | "building" | "ready";

const defaultYield = (): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, 0));

export class NoteIndexService extends Component implements VaultSearchPort {
	private index: NoteIndex | undefined;
	state: IndexState = "waiting";
	/** Bumped to stop a running build (the switch turned off, the plugin unloaded, a rebuild). */
	private generation = 0;
	private building: Promise<void> = Promise.resolve();
	private dirty = false;
	private readonly saveLater: ReturnType<typeof debounce>;
	/** Not yet started: the layout is not ready. */
	private started = false;
	private excludedKey = "";

	constructor(private readonly options: NoteIndexServiceOptions) {
		super();
		this.saveLater = debounce(() => void this.save(), options.saveDelayMs ?? INDEX_SAVE_DELAY_MS, true);
	}

	get enabled(): boolean {
		return this.options.settings().vaultIndex === true;
	}

	/** Notes in the index (0 while off or loading). */
	get size(): number {
		return this.index?.size ?? 0;
	}

	/** Resolves when the current build (if any) has finished. */
	whenBuilt(): Promise<void> {
		return this.building;
	}

	private get path(): string {
		return `${this.options.dir}/${INDEX_FILE}`;
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
			this.start();
		});
	}

	override onunload(): void {
		// What changed since the last save is written now, once (the next start re-checks mtimes anyway).
		if (this.dirty && this.index) void this.save();
	}

	/** The settings were saved: follow the switch and the excluded folders. */
	settingsChanged(): void {
		if (!this.started) return;
		if (!this.enabled) {
			if (this.state !== "off") void this.turnOff();
			return;
		}
		if (this.state === "off" || this.excludedKey !== this.excludedSignature()) this.start();
	}

	search(query: string, opts: { limit?: number } = {}): { id: string; name: string; score: number; text: string }[] {
		if (!this.enabled || !this.index) return [];
		return this.index.search(query, opts);
	}

	/** Folders never indexed: the person's, the chats and the exports. */
	private excludedFolders(): string[] {
		const s = this.options.settings();
		return [s.sessionsFolder, s.exportFolder, ...(s.indexExcludedFolders ?? [])].map((f) => f.replace(/^\/+|\/+$/g, "")).filter((f) => f !== "");
	}

	private excludedSignature(): string {
		return JSON.stringify(this.excludedFolders());
	}

	isIndexed(path: string): boolean {
		if (!path.endsWith(".md")) return false;
		return !this.excludedFolders().some((f) => path === f || path.startsWith(`${f}/`));
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
		const adapter = this.options.app.vault.adapter;
		try {
			if (await adapter.exists(this.path)) await adapter.remove(this.path);
		} catch (err) {
			console.error("Discover: the saved vault index could not be removed", err);
		}
	}

	/** The saved index when it is of this format and version; else undefined (and the index is rebuilt). */
	private async loadSaved(): Promise<NoteIndex | undefined> {
		try {
			const text = await readPluginFile(this.options.app.vault.adapter, this.path);
			return text === undefined ? undefined : NoteIndex.fromJSON(JSON.parse(text));
		} catch {
			return undefined;
		}
	}

	private async build(generation: number): Promise<void> {
		const { app } = this.options;
		const stale = (): boolean => generation !== this.generation;
		if (!this.index) {
			this.state = "loading";
			const saved = await this.loadSaved();
			if (stale()) return;
			this.index = saved ?? new NoteIndex();
			if (!saved) this.dirty = true;
		}
		const index = this.index;
		this.state = "building";
		const files = new Map(app.vault.getMarkdownFiles().filter((f) => this.isIndexed(f.path)).map((f) => [f.path, f]));
		for (const { id } of index.entries()) {
			if (!files.has(id)) {
				index.remove(id);
				this.dirty = true;
			}
		}
		const todo = [...files.values()].filter((f) => index.mtimeOf(f.path) !== f.stat.mtime);
		async function* read(): AsyncGenerator<NoteToIndex> {
			for (const file of todo) {
				if (stale()) return;
				try {
					yield { id: file.path, name: file.basename, text: await app.vault.cachedRead(file), mtime: file.stat.mtime };
				} catch {
					// Gone or unreadable since the listing: the events bring it back if it returns.
				}
			}
		}
		const report = await indexInSlices(index, read(), this.options.yieldFn ?? defaultYield, {
			sliceMs: this.options.sliceMs ?? INDEX_SLICE_MS,
			now: this.options.now,
			cancelled: stale,
		});
		if (stale()) return;
		if (report.notes > 0) this.dirty = true;
		this.state = "ready";
		if (this.dirty) this.saveLater();
	}

	private onChanged(file: TAbstractFile): void {
		if (!(file instanceof TFile) || !this.index || !this.enabled || !this.isIndexed(file.path)) return;
		const index = this.index;
		const generation = this.generation;
		this.options.app.vault.cachedRead(file).then(
			(text) => {
				if (generation !== this.generation || this.index !== index) return;
				index.upsert(file.path, text, file.basename, file.stat.mtime);
				this.changed();
			},
			() => undefined,
		);
	}

	private onDeleted(path: string): void {
		if (!this.index?.has(path)) return;
		this.index.remove(path);
		this.changed();
	}

	private changed(): void {
		this.dirty = true;
		if (this.state === "ready") this.saveLater();
	}

	/** Writes the index now (debounced callers go through saveLater). */
	async save(): Promise<void> {
		const index = this.index;
		if (!index || !this.enabled) return;
		this.dirty = false;
		try {
			await writeAtomically(this.options.app.vault.adapter, this.path, JSON.stringify(index.toJSON()));
		} catch (err) {
			this.dirty = true;
			console.error("Discover: the vault index could not be saved", err);
		}
	}
}
