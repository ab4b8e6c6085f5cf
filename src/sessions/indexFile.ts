import { replaceFile } from "./atomicWrite";
import { parseIndex, serializeIndex, type IndexEntry } from "./sessionIndex";
import type { FileStore } from "./store";
import type { WarningListener } from "../core/notices";

export const INDEX_PATH = "index.json";

function sameEntry(a: IndexEntry | undefined, b: IndexEntry): boolean {
	if (a === undefined || a.stamp !== b.stamp) return false;
	const x = a.summary;
	const y = b.summary;
	return x.title === y.title && x.createdAt === y.createdAt && x.updatedAt === y.updatedAt && x.messageCount === y.messageCount && x.preview === y.preview;
}

/**
 * index.json held in memory: loaded on first use, written only when an entry changed. The session
 * files are the truth; an index that cannot be read is rebuilt from them, one that cannot be
 * saved only warns.
 */
export class SessionIndexFile {
	private index: Map<string, IndexEntry> | undefined;
	private dirty = false;

	constructor(
		private readonly store: FileStore,
		private readonly warn: WarningListener,
	) {}

	/** The index, loaded from the store the first time. */
	async load(): Promise<Map<string, IndexEntry>> {
		if (this.index !== undefined) return this.index;
		let loaded: Map<string, IndexEntry> | undefined;
		if (await this.store.exists(INDEX_PATH)) {
			try {
				loaded = parseIndex(await this.store.read(INDEX_PATH));
			} catch {
				loaded = undefined;
			}
			if (loaded === undefined) this.warn("The session index was unreadable; rebuilding it from the session files.", { code: "session_index_unreadable" });
		}
		this.index = loaded ?? new Map();
		this.dirty = loaded === undefined;
		return this.index;
	}

	/** The entry as loaded, if the index has been loaded at all. */
	get(id: string): IndexEntry | undefined {
		return this.index?.get(id);
	}

	/** Sets the session's entry; the index needs saving only when it differs from the one there. */
	async put(id: string, row: IndexEntry): Promise<void> {
		const index = await this.load();
		if (!sameEntry(index.get(id), row)) {
			index.set(id, row);
			this.dirty = true;
		}
	}

	delete(id: string): void {
		if (this.index?.delete(id) === true) this.dirty = true;
	}

	/** Forgets the index, e.g. after the store moved to another folder. */
	reset(): void {
		this.index = undefined;
		this.dirty = false;
	}

	/** Writes the index if it changed. A failure only warns: the session files are the truth. */
	async save(): Promise<void> {
		if (!this.dirty || this.index === undefined) return;
		try {
			await replaceFile(this.store, INDEX_PATH, serializeIndex(this.index));
			this.dirty = false;
		} catch (err) {
			this.warn(`The session index could not be saved: ${String(err)}`, { code: "session_index_not_saved", detail: String(err) });
		}
	}
}
