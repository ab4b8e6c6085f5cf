import { lineHash, readFileText, textWithLines, utf8Length } from "./fileText";
import { encodeRecord, parseSessionFile, type HeaderRecord, type SessionRecord } from "./records";
import type { IndexEntry } from "./sessionIndex";
import { SessionIndexFile } from "./indexFile";
import { UnconfirmedRecords } from "./unconfirmedRecords";
import { quoteId, SESSIONS_DIR, SessionNotFoundError, sessionPath, tempPathOf, TMP_SUFFIX, writerTag } from "./sessionIds";
import { fileStamp, recoverTemp, sessionIdsInFolder } from "./sessionFolder";
import { recordHash, rewriteMerging } from "./rewriteMerging";
import { SessionState } from "./sessionState";
import { stateRecords } from "./stateRecords";
import type { FileStore } from "./store";
import type { WarningListener } from "../core/notices";

export { SESSIONS_DIR, SessionNotFoundError };
export { INDEX_PATH } from "./indexFile";
/** Files checked or read in parallel during a refresh. */
const PARALLEL = 32;
/** Compact a file once this many records are superseded and they outnumber the messages. */
const COMPACT_AFTER = 64;
/**
 * Or once superseded records carry this much text: a long answer's checkpoints each repeat the
 * answer so far, so a few dozen of them can hold megabytes.
 */
export const COMPACT_AFTER_CHARS = 1_000_000;

interface Cached {
	state: SessionState;
	/** The file's stamp when `state` was read or last written. */
	stamp: string;
	/** The file's size in bytes as far as this manager has read or written it; undefined without stat. */
	size: number | undefined;
	/** lineHash of every line this manager has read or written in the file: any other line is news. */
	seen: Set<number>;
}

async function inParallel<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
	for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(task));
}

/**
 * The session files, a cache of parsed sessions and the index, kept in step. Not safe for
 * concurrent calls: SessionManager runs one operation at a time.
 *
 * Other writers (a second device through sync, another SessionManager on the same folder): a
 * file's stamp is "size:mtime" from FileStore.stat, compared with the stamp recorded when we last
 * read or wrote it. After our own append the size must be exactly the old size plus our line;
 * anything else means another writer's bytes landed around ours, and the file is read again.
 * A full rewrite reads the file right before the rename and merges, by record id, every line it
 * has not seen (see FORMAT.md, "Two writers"). list() and search() read the folder listing every
 * time and stat every file at most once per `recheckMs`. Stores without stat get the stamp "":
 * rewrites still merge, but a file edited elsewhere is otherwise seen only by a new manager.
 */
export class SessionFiles {
	private readonly cache = new Map<string, Cached>();
	private readonly unconfirmed = new UnconfirmedRecords();
	private readonly index: SessionIndexFile;
	private lastFullCheck = Number.NEGATIVE_INFINITY;
	/** Names this writer's temporary files: two writers rewriting one session never share one. */
	private readonly tag = writerTag();

	constructor(
		private readonly store: FileStore,
		private readonly warn: WarningListener,
		private readonly now: () => number,
		private readonly recheckMs: number,
	) {
		this.index = new SessionIndexFile(store, warn);
	}

	private isoNow(): string {
		return new Date(this.now()).toISOString();
	}

	static pathOf(id: string): string {
		return sessionPath(id);
	}

	/** Caches `entry` and updates the session's index entry. */
	private async remember(entry: Cached): Promise<void> {
		await this.index.put(entry.state.id, { summary: entry.state.toSummary(), stamp: entry.stamp });
		this.cache.set(entry.state.id, entry);
	}

	private forget(id: string): void {
		this.cache.delete(id);
		this.unconfirmed.forget(id);
		this.index.delete(id);
	}

	/** Reads and parses the file; unreadable lines are reported and kept as corrupt records. */
	private async read(id: string): Promise<Cached> {
		const path = sessionPath(id);
		if (!(await this.store.exists(path)) && !(await recoverTemp(this.store, this.warn, id))) {
			this.forget(id);
			throw new SessionNotFoundError(id);
		}
		// Stamp before reading: a write racing the read leaves a stale stamp, never stale content.
		const { stamp, size } = await fileStamp(this.store, path);
		const file = await readFileText(this.store, path);
		const parsed = parseSessionFile(file.text, file.undecodable);
		for (const problem of parsed.problems) {
			this.warn(`Session ${quoteId(id)}, line ${problem.line}: ${problem.reason}. The line was skipped and is kept in the file.`, {
				code: "session_line_skipped",
				params: { id, line: problem.line },
				detail: problem.reason,
			});
		}
		const header = parsed.records.find((r) => r.type === "session");
		if (header === undefined) this.warn(`Session ${quoteId(id)}: the header line is missing; using the file name as the id.`, { code: "session_header_missing", params: { id } });
		const state = SessionState.fromRecords(id, parsed.records, this.isoNow());
		state.endsWithNewline = parsed.endsWithNewline;
		state.undecodable.push(...parsed.undecodable.map((u) => u.bytes));
		const entry: Cached = { state, stamp, size, seen: new Set([...parsed.hashes, ...parsed.undecodable.map((u) => u.hash)]) };
		await this.remember(entry);
		return this.restoreLost(entry);
	}

	/** Writes again what this manager wrote that another writer's rewrite erased; forgets what is safe. */
	private async restoreLost(entry: Cached): Promise<Cached> {
		const lost = this.unconfirmed.lost(entry.state.id, entry.seen, (record) => entry.state.isNews(record));
		if (lost.length === 0) return entry;
		this.warn(`Session ${quoteId(entry.state.id)}: ${lost.length} record(s) written here were replaced by another device's copy of the file at the same moment; written again.`, {
			code: "session_records_rewritten",
			params: { id: entry.state.id, count: lost.length },
		});
		return this.appendRecords(entry.state.id, lost);
	}

	/** The cached entry, read again when its file changed since. */
	private async entry(id: string): Promise<Cached> {
		const path = sessionPath(id);
		const cached = this.cache.get(id);
		if (cached !== undefined && (await fileStamp(this.store, path)).stamp === cached.stamp) return cached;
		return this.read(id);
	}

	/** The session, from the cache when its file has not changed since. */
	async state(id: string): Promise<SessionState> {
		return (await this.entry(id)).state;
	}

	/** For search after refresh(): the cached session if it matches the index, else a fresh read. */
	async stateForSearch(id: string): Promise<SessionState | undefined> {
		const cached = this.cache.get(id);
		if (cached !== undefined && cached.stamp === this.index.get(id)?.stamp) return cached.state;
		return this.tryRead(id);
	}

	/** A read that reports failure instead of throwing: one bad file must not hide the others. */
	private async tryRead(id: string): Promise<SessionState | undefined> {
		try {
			return (await this.read(id)).state;
		} catch (err) {
			if (!(err instanceof SessionNotFoundError)) this.warn(`Session ${quoteId(id)} could not be read: ${String(err)}`, { code: "session_unreadable", params: { id }, detail: String(err) });
			return undefined;
		}
	}

	async writeNew(id: string, header: HeaderRecord): Promise<SessionState> {
		const path = sessionPath(id);
		await this.store.mkdir(SESSIONS_DIR);
		const text = encodeRecord(header);
		await this.store.write(path, text);
		const state = SessionState.fromRecords(id, [header], header.createdAt);
		await this.settle(path, state, text, [header]);
		return state;
	}

	/**
	 * Caches `state` after this manager wrote the whole file (`text`, holding `records`), or reads
	 * the file again when another writer changed it meanwhile. A rewrite costs a full write
	 * already, so the file is read back and compared: a size alone misses a same-size change.
	 */
	private async settle(path: string, state: SessionState, text: string, records: readonly SessionRecord[]): Promise<Cached> {
		// Stamp first: a change after it leaves a stale stamp, which only costs a read later.
		const after = await fileStamp(this.store, path);
		const back = await readFileText(this.store, path);
		const written = state.undecodable.length === 0 ? text : new TextDecoder().decode(textWithLines(text, state.undecodable));
		if (back.text !== written) {
			this.cache.delete(state.id);
			return this.read(state.id);
		}
		const seen = new Set(records.map(recordHash));
		for (const line of state.undecodable) seen.add(lineHash(new TextDecoder().decode(line)));
		const entry: Cached = { state, stamp: after.stamp, size: after.size, seen };
		await this.remember(entry);
		return entry;
	}

	/** Appends one record as one line. */
	async append(id: string, record: SessionRecord): Promise<void> {
		const entry = await this.appendRecords(id, [record]);
		const state = entry.state;
		const many = state.superseded >= COMPACT_AFTER && state.superseded > state.transcript.length;
		if (many || state.supersededChars >= COMPACT_AFTER_CHARS) await this.compact(state);
	}

	/** Appends records, one line each, first ending a torn last line so the two never merge. */
	private async appendRecords(id: string, records: readonly SessionRecord[]): Promise<Cached> {
		const path = sessionPath(id);
		const entry = await this.entry(id);
		const lines = records.map(encodeRecord);
		const data = (entry.state.endsWithNewline ? "" : "\n") + lines.join("");
		const takeBack = this.unconfirmed.add(id, records);
		try {
			await this.store.append(path, data);
		} catch (err) {
			// Part of the line may have been written: read the file again next time. The caller
			// learns the write failed, so it is not written again behind its back either.
			takeBack();
			this.cache.delete(id);
			throw err;
		}
		const expected = entry.size === undefined ? undefined : entry.size + utf8Length(data);
		const after = await fileStamp(this.store, path);
		if (after.size !== expected) {
			// Another writer's bytes landed between our last check and now: read them.
			this.cache.delete(id);
			return this.read(id);
		}
		entry.state.endsWithNewline = true;
		for (const record of records) {
			entry.state.apply(record);
			entry.seen.add(recordHash(record));
		}
		entry.stamp = after.stamp;
		entry.size = after.size;
		await this.remember(entry);
		return entry;
	}

	/** Rewrites a file that is mostly replaced records. The append already succeeded: only warn. */
	private async compact(state: SessionState): Promise<void> {
		try {
			await this.rewrite(state.id, (current) => stateRecords(current, this.isoNow()));
		} catch (err) {
			this.cache.delete(state.id);
			this.warn(`Session ${quoteId(state.id)} could not be compacted: ${String(err)}`, { code: "session_not_compacted", params: { id: state.id }, detail: String(err) });
		}
	}

	/**
	 * Replaces the whole file with the records `build` makes from the current session, merging
	 * whatever another writer added meanwhile (see rewriteMerging).
	 */
	async rewrite(id: string, build: (current: SessionState) => SessionRecord[]): Promise<void> {
		const path = sessionPath(id);
		const base = await this.entry(id);
		const done = await rewriteMerging(this.store, {
			id,
			path,
			temp: tempPathOf(path, this.tag),
			seen: base.seen,
			records: build(base.state),
			undecodable: base.state.undecodable,
			now: () => this.isoNow(),
		});
		if (done === undefined) {
			this.forget(id);
			throw new SessionNotFoundError(id);
		}
		const state = SessionState.fromRecords(id, done.records, this.isoNow());
		state.undecodable.push(...done.undecodable);
		// Until a later read shows them, these records are ours to write again if a rename erases them.
		this.unconfirmed.replace(id, done.records.filter((r) => r.type !== "session"));
		await this.settle(path, state, done.text, done.records);
	}

	/** Removes the session's file; false when there was none. */
	async remove(id: string): Promise<boolean> {
		const path = sessionPath(id);
		const existed = await this.store.exists(path);
		if (existed) await this.store.remove(path);
		for (const temp of [path + TMP_SUFFIX, tempPathOf(path, this.tag)]) if (await this.store.exists(temp)) await this.store.remove(temp);
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
		const index = await this.index.load();
		const ids = await sessionIdsInFolder(this.store, this.warn);
		const present = new Set(ids);
		for (const id of [...index.keys()]) if (!present.has(id)) this.forget(id);
		const stale: string[] = [];
		await inParallel(ids, PARALLEL, async (id) => {
			const entry = index.get(id);
			if (entry === undefined || (fullCheck && (await fileStamp(this.store, sessionPath(id))).stamp !== entry.stamp)) stale.push(id);
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
		this.unconfirmed.clear();
		this.index.reset();
		this.lastFullCheck = Number.NEGATIVE_INFINITY;
	}

	/** Writes the index if it changed. A failure only warns: the session files are the truth. */
	saveIndex(): Promise<void> {
		return this.index.save();
	}
}
