import { lineHash, readFileText, textWithLines } from "./fileText";
import { encodeRecord, parseSessionFile, type SessionRecord } from "./records";
import { quoteId } from "./sessionIds";
import { SessionState } from "./sessionState";
import { stateRecords } from "./stateRecords";
import type { FileStore } from "./store";

/** Merges a rewrite tries before giving up on a file that changes under it every time. */
const REWRITE_ATTEMPTS = 8;

/** The line `record` takes in a file, without its "\n", hashed. */
export function recordHash(record: SessionRecord): number {
	return lineHash(encodeRecord(record).slice(0, -1));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
	return a.length === b.length && a.every((x, i) => x === b[i]);
}

export interface RewritePlan {
	id: string;
	path: string;
	/** This writer's temporary file. */
	temp: string;
	/** lineHash of every line of the file the writer has read or written. */
	seen: ReadonlySet<number>;
	records: SessionRecord[];
	/** Lines that are not UTF-8, copied byte for byte after the records. */
	undecodable: readonly Uint8Array[];
	now: () => string;
}

export interface Rewritten {
	records: SessionRecord[];
	undecodable: Uint8Array[];
	/** The records as written (without the undecodable lines). */
	text: string;
}

/**
 * Replaces the file with `plan.records` through a temporary file. Right before the rename the
 * file is read again: lines the writer has not seen (another writer's) are merged by record id
 * (new messages in time order, the newer version of a message, summary or title) and the
 * rewrite starts over, so no rewrite erases what it has not read. Undefined when the file is gone
 * (deleted elsewhere: not recreated).
 */
export async function rewriteMerging(store: FileStore, plan: RewritePlan): Promise<Rewritten | undefined> {
	const { id, path, temp } = plan;
	const seen = new Set(plan.seen);
	let records = plan.records;
	let undecodable = [...plan.undecodable];
	if (undecodable.length > 0 && store.writeBytes === undefined) {
		throw new Error(`Session ${quoteId(id)} has a line that is not UTF-8 and this storage cannot write bytes; it was not rewritten, so the line is kept.`);
	}
	for (let attempt = 0; attempt < REWRITE_ATTEMPTS; attempt++) {
		const text = records.map(encodeRecord).join("");
		const bytes = undecodable.length > 0 ? textWithLines(text, undecodable) : undefined;
		const put = (target: string): Promise<void> => (bytes !== undefined && store.writeBytes !== undefined ? store.writeBytes(target, bytes) : store.write(target, text));
		if (store.rename !== undefined) await put(temp);
		// The check: the file as it is now, right before it is replaced.
		if (!(await store.exists(path))) {
			if (store.rename !== undefined) await store.remove(temp);
			return undefined;
		}
		const current = await readFileText(store, path);
		const parsed = parseSessionFile(current.text, current.undecodable);
		const news = parsed.records.filter((_, i) => !seen.has(parsed.hashes[i] ?? 0));
		const newLines = parsed.undecodable.filter((u) => !seen.has(u.hash));
		if (news.length === 0 && newLines.length === 0) {
			if (store.rename === undefined) await put(path);
			else if (!(await renamed(store, temp, path))) continue;
			return { records, undecodable, text };
		}
		// Another writer added lines since we read the file: merge them and write again.
		const merged = SessionState.fromRecords(id, records, plan.now());
		for (const record of news) merged.merge(record);
		for (const line of newLines) if (!undecodable.some((u) => sameBytes(u, line.bytes))) undecodable = [...undecodable, line.bytes];
		for (const hash of [...parsed.hashes, ...parsed.undecodable.map((u) => u.hash)]) seen.add(hash);
		records = stateRecords(merged, plan.now());
	}
	if (store.rename !== undefined) await store.remove(temp);
	throw new Error(`Session ${quoteId(id)} kept changing while it was being rewritten; it was left as it is. Try again.`);
}

/**
 * Moves the temporary file into place; false when it is gone (a listing by another writer took
 * it for an unfinished write and removed it), so the rewrite starts over.
 */
async function renamed(store: FileStore, temp: string, path: string): Promise<boolean> {
	try {
		await store.rename?.(temp, path);
		return true;
	} catch (err) {
		if (await store.exists(temp)) throw err;
		return false;
	}
}
