import { finishInterruptedReplace, replaceFile, TMP_SUFFIX } from "./atomicWrite";
import { encodeRecord, parseSessionFile, type HeaderRecord, type SessionRecord } from "./records";
import { parseIndex, serializeIndex, type IndexEntry } from "./sessionIndex";
import { compactRecords, SessionState } from "./sessionState";
import type { FileStore } from "./store";

export const SESSIONS_DIR = "sessions";
export const INDEX_PATH = "index.json";
const EXT = ".jsonl";
/**
 * Ids are file names. Refuse what could leave the folder (separators, a leading dot) but accept
 * other names, so a sync tool's conflict copy ("<id> (conflicted copy).jsonl") is listed, not hidden.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const ID_PATTERN = /^(?!\.)[^/\\\u0000-\u001f]{1,200}$/;
/** A stamp no file has: the file is missing. */
const MISSING = "missing";
/** Files checked or read in parallel during a refresh. */
const PARALLEL = 32;
/** Compact a file once this many records are superseded and they outnumber the messages. */
const COMPACT_AFTER = 64;

export class SessionNotFoundError extends Error {
	readonly sessionId: string;
	constructor(sessionId: string) {
		super(`Session not found: ${sessionId}`);
		this.name = "SessionNotFoundError";
		this.sessionId = sessionId;
	}
}

interface Cached {
	state: SessionState;
	/** The file's stamp when `state` was read or last written. */
	stamp: string;
}

async function inParallel<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
	for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(task));
}

function sameEntry(a: IndexEntry | undefined, b: IndexEntry): boolean {
	if (a === undefined || a.stamp !== b.stamp) return false;
	const x = a.summary;
	const y = b.summary;
	return x.title === y.title && x.createdAt === y.createdAt && x.updatedAt === y.updatedAt && x.messageCount === y.messageCount && x.preview === y.preview;
}

/**
 * The session files, a cache of parsed sessions and the index, kept in step. Not safe for
 * concurrent calls: SessionManager runs one operation at a time.
 *
 * Staleness (files changed by sync on another device): FileStore has no change events, so a
 * file's stamp is "size:mtime" from FileStore.stat, compared with the stamp recorded when we last
 * read or wrote it (our own writes re-stamp at once). load() and every write check their one
 * file. list() and search() read the folder listing every time (added and removed sessions show
 * at once) and stat every file at most once per `recheckMs`. Stores without stat get the stamp
 * "": the listing still shows added and removed files, but a file edited elsewhere is seen only
 * by a new SessionManager.
 */
export class SessionFiles {
	private readonly cache = new Map<string, Cached>();
	private index: Map<string, IndexEntry> | undefined;
	private indexDirty = false;
	private lastFullCheck = Number.NEGATIVE_INFINITY;

	constructor(
		private readonly store: FileStore,
		private readonly warn: (message: string) => void,
		private readonly now: () => number,
		private readonly recheckMs: number,
	) {}

	private isoNow(): string {
		return new Date(this.now()).toISOString();
	}

	static pathOf(id: string): string {
		return `${SESSIONS_DIR}/${id}${EXT}`;
	}

	private checkId(id: string): string {
		if (!ID_PATTERN.test(id)) throw new SessionNotFoundError(id);
		return SessionFiles.pathOf(id);
	}

	private async stampOf(path: string): Promise<string> {
		if (this.store.stat === undefined) return "";
		const stat = await this.store.stat(path);
		return stat === null ? MISSING : `${stat.size}:${stat.mtime}`;
	}

	private async ensureIndex(): Promise<Map<string, IndexEntry>> {
		if (this.index !== undefined) return this.index;
		let loaded: Map<string, IndexEntry> | undefined;
		if (await this.store.exists(INDEX_PATH)) {
			try {
				loaded = parseIndex(await this.store.read(INDEX_PATH));
			} catch {
				loaded = undefined;
			}
			if (loaded === undefined) this.warn("The session index was unreadable; rebuilding it from the session files.");
		}
		this.index = loaded ?? new Map();
		this.indexDirty = loaded === undefined;
		return this.index;
	}

	/** Caches `state` with the file's current stamp and updates its index entry. */
	private async remember(state: SessionState, stamp?: string): Promise<void> {
		const index = await this.ensureIndex();
		const fileStamp = stamp ?? (await this.stampOf(SessionFiles.pathOf(state.id)));
		this.cache.set(state.id, { state, stamp: fileStamp });
		const entry = { summary: state.toSummary(), stamp: fileStamp };
		if (!sameEntry(index.get(state.id), entry)) {
			index.set(state.id, entry);
			this.indexDirty = true;
		}
	}

	private forget(id: string): void {
		this.cache.delete(id);
		if (this.index?.delete(id) === true) this.indexDirty = true;
	}

	private async recoverTemp(id: string): Promise<boolean> {
		const done = await finishInterruptedReplace(this.store, SessionFiles.pathOf(id));
		if (done) this.warn(`Session ${id}: finished a rewrite that was interrupted.`);
		return done;
	}

	/** Reads and parses the file; unreadable lines are reported and kept as corrupt records. */
	private async read(id: string): Promise<SessionState> {
		const path = this.checkId(id);
		if (!(await this.store.exists(path)) && !(await this.recoverTemp(id))) {
			this.forget(id);
			throw new SessionNotFoundError(id);
		}
		// Stamp before reading: a write racing the read leaves a stale stamp, never stale content.
		const stamp = await this.stampOf(path);
		const parsed = parseSessionFile(await this.store.read(path));
		for (const problem of parsed.problems) {
			this.warn(`Session ${id}, line ${problem.line}: ${problem.reason}. The line was skipped and is kept in the file.`);
		}
		const header = parsed.records.find((r) => r.type === "session");
		if (header === undefined) this.warn(`Session ${id}: the header line is missing; using the file name as the id.`);
		const state = SessionState.fromRecords(id, parsed.records, this.isoNow());
		state.endsWithNewline = parsed.endsWithNewline;
		await this.remember(state, stamp);
		return state;
	}

	/** The session, from the cache when its file has not changed since. */
	async state(id: string): Promise<SessionState> {
		const path = this.checkId(id);
		const cached = this.cache.get(id);
		if (cached !== undefined && (await this.stampOf(path)) === cached.stamp) return cached.state;
		return this.read(id);
	}

	/** For search after refresh(): the cached session if it matches the index, else a fresh read. */
	async stateForSearch(id: string): Promise<SessionState | undefined> {
		const cached = this.cache.get(id);
		if (cached !== undefined && cached.stamp === this.index?.get(id)?.stamp) return cached.state;
		return this.tryRead(id);
	}

	/** A read that reports failure instead of throwing: one bad file must not hide the others. */
	private async tryRead(id: string): Promise<SessionState | undefined> {
		try {
			return await this.read(id);
		} catch (err) {
			if (!(err instanceof SessionNotFoundError)) this.warn(`Session ${id} could not be read: ${String(err)}`);
			return undefined;
		}
	}

	async writeNew(id: string, header: HeaderRecord): Promise<SessionState> {
		const path = this.checkId(id);
		await this.store.mkdir(SESSIONS_DIR);
		await this.store.write(path, encodeRecord(header));
		const state = SessionState.fromRecords(id, [header], header.createdAt);
		await this.remember(state);
		return state;
	}

	/** Appends one record as one line, first ending a torn last line so the two never merge. */
	async append(id: string, record: SessionRecord): Promise<void> {
		const state = await this.state(id);
		const line = (state.endsWithNewline ? "" : "\n") + encodeRecord(record);
		try {
			await this.store.append(SessionFiles.pathOf(id), line);
		} catch (err) {
			// Part of the line may have been written: read the file again next time.
			this.cache.delete(id);
			throw err;
		}
		state.endsWithNewline = true;
		state.apply(record);
		await this.remember(state);
		if (state.superseded >= COMPACT_AFTER && state.superseded > state.transcript.length) await this.compact(state);
	}

	/** Rewrites a file that is mostly replaced records. The append already succeeded: only warn. */
	private async compact(state: SessionState): Promise<void> {
		try {
			await this.rewrite(state.id, compactRecords(state.toSession(), state.corrupt, this.isoNow()));
		} catch (err) {
			this.cache.delete(state.id);
			this.warn(`Session ${state.id} could not be compacted: ${String(err)}`);
		}
	}

	/** Replaces the whole file with `records`, through a temporary file. */
	async rewrite(id: string, records: readonly SessionRecord[]): Promise<void> {
		const path = this.checkId(id);
		await replaceFile(this.store, path, records.map(encodeRecord).join(""));
		await this.remember(SessionState.fromRecords(id, records, this.isoNow()));
	}

	/** Removes the session's file; false when there was none. */
	async remove(id: string): Promise<boolean> {
		const path = this.checkId(id);
		const existed = await this.store.exists(path);
		if (existed) await this.store.remove(path);
		if (await this.store.exists(path + TMP_SUFFIX)) await this.store.remove(path + TMP_SUFFIX);
		this.forget(id);
		await this.saveIndex();
		return existed;
	}

	/**
	 * Brings the index in line with the folder: drops entries whose file is gone and reads files
	 * that are new, or (at most once per `recheckMs`) whose stamp changed. Returns the index.
	 */
	async refresh(): Promise<ReadonlyMap<string, IndexEntry>> {
		const nowMs = this.now();
		// A clock that went backwards forces a check rather than trusting a future time.
		const fullCheck = nowMs - this.lastFullCheck >= this.recheckMs || nowMs < this.lastFullCheck;
		const index = await this.ensureIndex();
		const names = new Set(await this.store.list(SESSIONS_DIR));
		for (const name of names) {
			if (!name.endsWith(EXT + TMP_SUFFIX)) continue;
			const id = name.slice(0, -(EXT + TMP_SUFFIX).length);
			if (!ID_PATTERN.test(id)) continue;
			if (names.has(id + EXT)) await this.store.remove(`${SESSIONS_DIR}/${name}`);
			else if (await this.recoverTemp(id)) names.add(id + EXT);
		}
		const ids = [...names].filter((n) => n.endsWith(EXT)).map((n) => n.slice(0, -EXT.length)).filter((id) => ID_PATTERN.test(id));
		const present = new Set(ids);
		for (const id of [...index.keys()]) if (!present.has(id)) this.forget(id);
		const stale: string[] = [];
		await inParallel(ids, PARALLEL, async (id) => {
			const entry = index.get(id);
			if (entry === undefined || (fullCheck && (await this.stampOf(SessionFiles.pathOf(id))) !== entry.stamp)) stale.push(id);
		});
		if (fullCheck) this.lastFullCheck = nowMs;
		await inParallel(stale, PARALLEL, async (id) => {
			await this.tryRead(id);
		});
		return index;
	}

	/** Forgets every cached session and the index, e.g. after the store moved to another folder. */
	reset(): void {
		this.cache.clear();
		this.index = undefined;
		this.indexDirty = false;
		this.lastFullCheck = Number.NEGATIVE_INFINITY;
	}

	/** Writes the index if it changed. A failure only warns: the session files are the truth. */
	async saveIndex(): Promise<void> {
		if (!this.indexDirty || this.index === undefined) return;
		try {
			await replaceFile(this.store, INDEX_PATH, serializeIndex(this.index));
			this.indexDirty = false;
		} catch (err) {
			this.warn(`The session index could not be saved: ${String(err)}`);
		}
	}
}
