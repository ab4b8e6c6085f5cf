// The vault index's tables and the moves that change them: the term table (ids reused once a term's
// last posting goes), the pooled postings (postingPool.ts), passages (docs) and note slots, each
// CJK character's followers (fuzzyTerms.ts), and the primitives the upserts and removals are made
// of: stage a passage (addDoc), make a note live (show) or hide it, drop its postings step by step.
// NoteIndex.ts describes the whole; noteUpserts.ts changes notes, noteIndexStore.ts saves and loads.
import { encodeTermIds, termIdsOf } from "./noteTerms";
import { isCjkPairUnits } from "./fuzzyTerms";
import { TF_SLOTS, type IndexedNote } from "./noteIndexFormat";
import { PostingPool } from "./postingPool";
import { NoteRanker } from "./noteRanking";
import type { Steps } from "./steps";
import { GrowingInt32, PagedInt32, PagedList } from "./paged";
import { TermTable } from "./termTable";
import { CjkFollowers } from "./cjkFollowers";
import { ownCopy } from "./terms";

/** A note's term ids: while staged, a list (an id more than once only when two stagings interleave); once live, delta varints. */
type NoteTermIds = PagedList | Uint8Array;
export type NoteRecord = IndexedNote & { slot: number; terms: NoteTermIds; stamp: number };

/** Decoded posting bytes (16 MB: 4 million postings) under which the index is never compacted. */
const COMPACT_MIN = 16 << 20;

/** Postings added or removed between two steps of a sliced upsert. */
export const STAGE_POSTINGS = 4_000;
/**
 * A note of at most this many passages has its postings removed passage by passage; else by one scan
 * per term between its first and last passage and one move of the list's tail (a note's passages are
 * mostly consecutive ids: addDoc), not one move of the tail per passage.
 */
const FEW_PASSAGES = 1;

export class NoteTables {
	/** Whether each note's text is kept (hits carry their text); without it, searchWithText reads them. */
	readonly keepText: boolean;
	/** Notes indexed in part, with their full length in characters. */
	protected readonly partial = new Map<string, number>();
	protected readonly notes = new Map<string, NoteRecord>();
	/** Term → id; grows in steps (termTable.ts), never rehashed whole in one task. */
	protected readonly termIds = new TermTable();
	/** Per term id, the stamp of the staged note that listed it last (stageTerm lists an id once per note). */
	private readonly listedBy = new PagedInt32();
	private stamps = 0;
	/** While an index loads: (note slot, term id) pairs from its postings, gathered into each note's term ids by finishLoad. */
	protected loadPairs = { slots: new PagedInt32(), terms: new PagedInt32(), n: 0 };
	/** Per CJK character, the characters after it in the index's CJK pair terms (fuzzyTerms.ts corrects a mistyped one). */
	protected readonly followers = new CjkFollowers((id) => this.termIds.pairOf(id));
	protected readonly pool = new PostingPool();
	// Per passage id, in Int32 columns (GrowingInt32: 4 bytes an entry, not a JS array's 8): where it
	// is in its note's text, its length in terms, the slot of its note (live or not) and the slot of its
	// live note. A passage's note is slotNote[docSlot], so no column of note objects is kept.
	protected readonly docStart = new GrowingInt32();
	protected readonly docEnd = new GrowingInt32();
	protected readonly docLength = new GrowingInt32();
	protected readonly docPath: string[] = [];
	/** Per passage id: the slot of the note it belongs to, live or not (−1 when free). */
	protected readonly docOwner = new GrowingInt32();
	/** Per passage id: its live note's slot (slotNote), −1 when free, staged or hidden. */
	protected readonly docSlot = new GrowingInt32();
	protected readonly slotNote: (NoteRecord | undefined)[] = [];
	protected readonly freeSlots: number[] = [];
	protected readonly ranker = new NoteRanker();
	protected readonly freeDocs: number[] = [];
	protected liveDocs = 0;
	/** Passages staged for a note not yet live, or of a replaced note whose postings are being removed. */
	protected hiddenDocs = 0;
	/** Per note id, the ticket of the change started last while one is running. */
	protected readonly latest = new Map<string, number>();
	protected tickets = 0;
	protected totalLength = 0;
	/** Counts every change (a sliced save restarts when it moved). */
	protected changes = 0;

	constructor(options: { keepText?: boolean } = {}) {
		this.keepText = options.keepText ?? true;
	}

	/** Notes indexed. */
	get size(): number {
		return this.notes.size;
	}

	/** Passages indexed. */
	get passageCount(): number {
		return this.liveDocs;
	}

	/** Distinct terms indexed (a term no note has any more is not counted: it is gone). */
	get termCount(): number {
		return this.termIds.size;
	}

	/**
	 * Whether the postings held decoded (4 bytes each, in the pool's pages) should be encoded again
	 * (compactSteps): past COMPACT_MIN bytes and past `share` of the encoded ones (a compaction copies
	 * those, so a geometric share keeps a build's compactions few: linear work in all).
	 */
	compactionDue(share = 0.5): boolean {
		const decoded = this.pool.decodedBytes;
		return decoded > COMPACT_MIN && decoded > this.pool.encodedBytes * share;
	}

	/** @internal Bytes of postings held decoded and held encoded (the bench's breakdown). */
	get postingBytes(): { decoded: number; encoded: number } {
		return { decoded: this.pool.decodedBytes, encoded: this.pool.encodedBytes };
	}

	/**
	 * Encodes every posting list again in the saved layout (postingPool.ts compactSteps), in steps:
	 * about 1.5 bytes a posting in place of 4. Answers, saves and changes are the same before and
	 * after. Returns false when the index changed between two steps (nothing was done).
	 */
	compactSteps(step?: number): Steps<boolean> {
		return this.pool.compactSteps(this.docSlot.length, step);
	}

	/** A number that changes whenever the index does. */
	get version(): number {
		return this.changes;
	}

	has(id: string): boolean {
		return this.notes.has(id);
	}

	/** The modification time given with the note's last upsert, if any. */
	mtimeOf(id: string): number | undefined {
		return this.notes.get(id)?.mtime;
	}

	/** Every note's id and the mtime it was indexed at (to find what changed since a saved index). */
	entries(): { id: string; mtime: number | undefined }[] {
		return [...this.notes.values()].map((n) => ({ id: n.id, mtime: n.mtime }));
	}

	/** Makes a staged note live: its passages count and are searched. */
	protected show(note: NoteRecord): void {
		if (note.terms instanceof PagedList) note.terms = encodeTermIds(note.terms);
		// An array grown by push has room for more (17 entries for up to 17): a copy holds only what is
		// there (about 60 bytes a note less; 6 MB at 100,000 notes).
		note.docs = note.docs.slice();
		for (const doc of note.docs) {
			this.docSlot.set(doc, note.slot);
			this.liveDocs++;
			this.totalLength += this.docLength.get(doc);
			this.hiddenDocs--;
		}
		this.notes.set(note.id, note);
		this.changes++;
	}

	/** Takes a live note out of search (its postings stay until dropSteps removes them). */
	protected hide(note: NoteRecord): void {
		for (const doc of note.docs) {
			this.totalLength -= this.docLength.get(doc);
			this.docSlot.set(doc, -1);
			this.liveDocs--;
			this.hiddenDocs++;
		}
		this.notes.delete(note.id);
		this.changes++;
	}

	/** Removes a hidden (or staged) note's postings, drops emptied terms and frees its passages, yielding every STAGE_POSTINGS postings. */
	protected *dropSteps(note: NoteRecord): Steps<void> {
		const docs = note.docs;
		const ids: Iterable<number> = note.terms instanceof Uint8Array ? termIdsOf(note.terms) : note.terms;
		let lo = Infinity;
		let hi = -1;
		for (const doc of docs) {
			lo = Math.min(lo, doc);
			hi = Math.max(hi, doc);
		}
		const slot = note.slot;
		const owner = this.docOwner.data;
		const owned = (v: number): boolean => owner[Math.floor(v / TF_SLOTS)] === slot;
		let work = 0;
		// Its passages' postings in lists still in a loaded index's bytes are skipped from now on (not decoded to be removed).
		this.pool.retire(docs);
		for (const t of ids) {
			if (docs.length === 0) break;
			let held = true;
			if (docs.length <= FEW_PASSAGES) {
				for (const doc of docs) held = this.pool.removeRange(t, doc * TF_SLOTS, (doc + 1) * TF_SLOTS);
				work += docs.length;
			} else {
				// A long note: one scan of the term's postings between its first and last passage.
				const r = this.pool.removeWhere(t, lo * TF_SLOTS, (hi + 1) * TF_SLOTS, owned);
				held = r.held;
				work += r.scanned;
			}
			if (!held) {
				// A staged list may name an id twice: the second time it is already free.
				if (this.termIds.isLive(t)) {
					const pair = this.termIds.pairOf(t);
					if (pair >= 0 && isCjkPairUnits(pair >>> 16, pair & 0xffff)) this.followers.remove(t, pair >>> 16);
					this.termIds.delete(t);
				}
			}
			if (++work >= STAGE_POSTINGS) {
				work = 0;
				yield;
			}
		}
		for (const doc of docs) {
			this.docPath[doc] = "";
			this.docSlot.set(doc, -1);
			this.docOwner.set(doc, -1);
			this.freeDocs.push(doc);
			this.hiddenDocs--;
		}
		note.docs = [];
		note.terms = new Uint8Array(0);
		// Its slot is free once its passages are (a staged note had one too: newNote).
		if (this.slotNote[note.slot] === note) {
			this.slotNote[note.slot] = undefined;
			this.freeSlots.push(note.slot);
		}
	}

	protected newNote(id: string, name: string, body: string | Uint8Array | undefined, chars: number, mtime: number | undefined, hash: number, terms: NoteTermIds = new PagedList()): NoteRecord {
		const slot = this.freeSlots.pop() ?? this.slotNote.length;
		const note: NoteRecord = { id, name, body, chars, mtime, hash, docs: [], slot, terms, stamp: ++this.stamps };
		this.slotNote[slot] = note;
		return note;
	}

	/** Adds a staged note's term id to its list, once. */
	protected listTerm(note: NoteRecord, id: number): void {
		if (this.listedBy.get(id) === note.stamp) return;
		this.listedBy.set(id, note.stamp);
		(note.terms as PagedList).push(id);
	}

	protected termId(term: string): number {
		if (term.length === 2) return this.pairId(term.charCodeAt(0), term.charCodeAt(1));
		return this.termIds.get(term) ?? this.termIds.add(ownCopy(term));
	}

	/** The id of the two-unit term a b (a CJK character pair, mostly), added when new; its string is never made. */
	protected pairId(a: number, b: number): number {
		let id = this.termIds.getPair(a, b);
		if (id === undefined) {
			id = this.termIds.addPair(a, b);
			if (isCjkPairUnits(a, b)) this.followers.add(id, a);
		}
		return id;
	}

	/** Adds a saved term known to be new (a loaded index's); undefined when it is already there (a damaged file). */
	protected addSavedTerm(term: string): number | undefined {
		// Not copied (ownCopy): a loaded term is a slice of a 1 MB piece of the saved strings, not of a note's text.
		const id = this.termIds.addNew(term);
		if (id !== undefined && term.length === 2 && isCjkPairUnits(term.charCodeAt(0), term.charCodeAt(1))) this.followers.add(id, term.charCodeAt(0));
		return id;
	}

	/** A passage slot for the note, not yet live (`show` makes it so). */
	protected addDoc(note: NoteRecord, start: number, end: number, headingPath: string, length: number): number {
		// A new passage id past the others, while the free ones are fewer than the live: its postings
		// then go at the end of each ascending list (a freed id in the middle moved the list's whole
		// tail, for every common term of a re-indexed note). Freed ids are reused past that, so the
		// id space stays under twice the passages.
		const doc = this.freeDocs.length * 2 > this.docSlot.length ? (this.freeDocs.pop() as number) : this.docSlot.length;
		this.docStart.set(doc, start);
		this.docEnd.set(doc, end);
		this.docLength.set(doc, length);
		this.docPath[doc] = headingPath;
		this.docOwner.set(doc, note.slot);
		// Staged: the ranker skips it until `show` gives it its note's slot.
		this.docSlot.set(doc, -1);
		note.docs.push(doc);
		this.hiddenDocs++;
		return doc;
	}
}
