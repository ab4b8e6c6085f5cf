import { recordHash } from "./rewriteMerging";
import type { SessionRecord } from "./records";

/**
 * Records this manager wrote and has not yet seen in a read of the file, by session. When a read
 * finds one missing (another writer's rename replaced the file in the instant after its last
 * check), it is written again.
 */
export class UnconfirmedRecords {
	private readonly byId = new Map<string, Map<number, SessionRecord>>();

	/** Records about to be appended; the returned function takes them back when the write fails. */
	add(id: string, records: readonly SessionRecord[]): () => void {
		let mine = this.byId.get(id);
		if (mine === undefined) this.byId.set(id, (mine = new Map<number, SessionRecord>()));
		for (const record of records) mine.set(recordHash(record), record);
		return () => {
			for (const record of records) mine.delete(recordHash(record));
		};
	}

	/** After a full rewrite: exactly these records are unconfirmed. */
	replace(id: string, records: readonly SessionRecord[]): void {
		this.byId.set(id, new Map(records.map((r) => [recordHash(r), r])));
	}

	/**
	 * The records a read of the file did not show and the session still needs; those it showed
	 * (`seen`) or no longer needs are confirmed and forgotten.
	 */
	lost(id: string, seen: ReadonlySet<number>, isNews: (record: SessionRecord) => boolean): SessionRecord[] {
		const mine = this.byId.get(id);
		if (mine === undefined || mine.size === 0) return [];
		const lost: SessionRecord[] = [];
		for (const [hash, record] of mine) {
			if (seen.has(hash) || !isNews(record)) mine.delete(hash);
			else lost.push(record);
		}
		return lost;
	}

	forget(id: string): void {
		this.byId.delete(id);
	}

	clear(): void {
		this.byId.clear();
	}
}
