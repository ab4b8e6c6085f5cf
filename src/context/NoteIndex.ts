// The vault's lexical index: every note's passages (passages.ts) under BM25, updated one note at a
// time. Hand-written rather than MiniSearch: bench/context.ts compared both (bundle bytes, build and
// query time, heap, saved size) and the README has the figures; this one shares the analyzer
// (CJK bigrams, folding, identifiers) with relevance fitting, so `@vault` and the fitted notes
// agree on what a match is.
//
// Memory (10,000 notes / 40 MB must stay under 150 MB, see the README):
// - postings are pooled (postingPool.ts): one entry, passage id × 1024 + term frequency, 4 bytes;
// - a term whose last posting goes is dropped from the term table, and its id reused;
// - each note's text is kept, because search returns passage text, but in its compact form: UTF-8
//   bytes when those are smaller than the JS string (a note with one "—" or one Cyrillic word is a
//   two-byte string in the engine), decoded per hit;
// - no per-passage term lists: removing a note re-analyzes its passages (kept as ranges) to learn
//   their terms, then finds each posting by binary search (lists are ascending, postingPool.ts).
// Huge notes: `upsertSteps` analyzes a note in steps (indexInSlices drives it) and changes the index
// only in its last step, so a search never sees half a note. Saving and loading: noteIndexFormat.ts.
import { weightedQuery } from "./bm25";
import { expandMisspelled } from "./fuzzyTerms";
import { NoteRanker } from "./noteRanking";
import { passageTerms } from "./passageCache";
import { indexFromJson, indexToJson } from "./noteIndexJson";
import { decodeBinary, encodeBinary, TF_SLOTS, type IndexedNote, type IndexStore, type SavedPassage } from "./noteIndexFormat";
import { compactText, textOf } from "./noteText";
import { cutPassagesSteps, type Passage } from "./passages";
import { PostingPool } from "./postingPool";
import { drain, runInSlices, type SliceTiming, type Steps } from "./steps";

export { NOTE_INDEX_FORMAT, NOTE_INDEX_VERSION } from "./noteIndexFormat";

export interface NoteSearchHit {
	/** The note's id (its vault path). */
	id: string;
	name: string;
	score: number;
	/** The passage's text. */
	text: string;
}

type NoteRecord = IndexedNote & { slot: number };

/** Characters of passages analyzed between two steps of a sliced upsert (a few ms, CJK included). */
const STEP_CHARS = 16_000;
/** Postings added or removed between two steps of a sliced upsert. */
const STAGE_POSTINGS = 4_000;

/** Notes longer than this many characters are indexed in part (their first this-many), by default. */
export const DEFAULT_INDEX_NOTE_CHARS = 4 * 1024 * 1024;

/** Where a note longer than `limit` is cut for the index: at a line end near the limit, never inside a surrogate pair. */
export function indexedLength(text: string, limit: number): number {
	if (text.length <= limit) return text.length;
	const nl = text.lastIndexOf("\n", limit - 1);
	if (nl >= limit - 4096 && nl > 0) return nl + 1;
	const c = text.charCodeAt(limit - 1);
	return c >= 0xd800 && c <= 0xdbff ? limit - 1 : limit;
}

export class NoteIndex implements IndexStore {
	/** Notes longer than this are indexed in part (their first this-many characters). */
	maxNoteChars = DEFAULT_INDEX_NOTE_CHARS;
	/** Notes indexed in part, with their full length in characters. */
	private readonly partial = new Map<string, number>();
	private readonly notes = new Map<string, NoteRecord>();
	private readonly termIds = new Map<string, number>();
	private readonly termNames: (string | undefined)[] = [];
	private readonly freeTerms: number[] = [];
	private readonly pool = new PostingPool();
	private readonly docNote: (NoteRecord | undefined)[] = [];
	private readonly docStart: number[] = [];
	private readonly docEnd: number[] = [];
	private readonly docLength: number[] = [];
	private readonly docPath: string[] = [];
	/** Per passage id: its note's slot (slotNote), −1 when free. */
	private readonly docSlot: number[] = [];
	private readonly slotNote: (NoteRecord | undefined)[] = [];
	private readonly freeSlots: number[] = [];
	private readonly ranker = new NoteRanker();
	private readonly freeDocs: number[] = [];
	private liveDocs = 0;
	/** Passages staged for a note not yet live, or of a replaced note whose postings are being removed. */
	private hiddenDocs = 0;
	/** Per note id, the ticket of the change started last while one is running. */
	private readonly latest = new Map<string, number>();
	private tickets = 0;
	private totalLength = 0;
	/** Counts every change (a sliced save restarts when it moved). */
	private changes = 0;

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

	/** Indexes a note's passages; a note already indexed under `id` is replaced. */
	upsert(id: string, text: string, name: string = defaultName(id), mtime?: number): void {
		drain(this.upsertSteps(id, text, name, mtime));
	}

	/**
	 * `upsert` as steps of about STEP_CHARS characters each (indexInSlices runs them between yields).
	 * The index changes only in the last step. If the note is upserted or removed by someone else
	 * while these steps wait, that newer change wins and these steps change nothing.
	 */
	*upsertSteps(id: string, fullText: string, name: string = defaultName(id), mtime?: number): Steps<void> {
		// The change started last wins, whichever finishes first (a vault event during a build).
		const ticket = ++this.tickets;
		this.latest.set(id, ticket);
		const superseded = (): boolean => this.latest.get(id) !== ticket || this.notes.get(id) !== old;
		const old = this.notes.get(id);
		// Past the size limit only the note's start is indexed (searched, and kept for the hits' text).
		const cut = indexedLength(fullText, Math.max(1, Math.floor(this.maxNoteChars)));
		const text = cut < fullText.length ? fullText.slice(0, cut) : fullText;
		const passages = yield* cutPassagesSteps(text);
		if (text.length > STEP_CHARS) yield;
		const lists: string[][] = [];
		yield* this.analyze(text, fieldsOf(id, name), passages, lists);
		const body = compactText(text);
		if (text.length > STEP_CHARS) yield;
		const oldTerms = old ? yield* this.termsOfSteps(old) : undefined;
		if (superseded()) return;
		// The new version's postings go in step by step, under passages no search sees yet (staged);
		// one step then switches the note (the old version's passages hidden, the new ones live), and
		// the old postings are removed step by step after. A search sees the old note or the new one.
		// The staged note has its slot at once (its passages get it when `show` makes them live).
		const note = this.newNote(id, name, body, text.length, mtime);
		let live = false;
		try {
			yield* this.stageSteps(note, passages, lists);
			if (superseded()) return;
			if (old) this.hide(old);
			this.show(note);
			live = true;
			this.latest.delete(id);
			if (cut < fullText.length) this.partial.set(id, fullText.length);
			else this.partial.delete(id);
		} finally {
			// Superseded, or abandoned between two steps (a stopped build): its staged postings go.
			if (!live) drain(this.dropSteps(note, lists));
		}
		if (old && oldTerms) yield* this.dropSteps(old, oldTerms);
	}

	/** The full length of a note indexed in part (over `maxNoteChars`), or undefined when it was indexed whole. */
	partialLength(id: string): number | undefined {
		return this.notes.has(id) ? this.partial.get(id) : undefined;
	}

	/** Notes indexed in part: id and full length. */
	partialNotes(): { id: string; chars: number }[] {
		return [...this.partial].filter(([id]) => this.notes.has(id)).map(([id, chars]) => ({ id, chars }));
	}

	/** Adds the note's passages and postings, not yet live (search skips them), yielding every STAGE_POSTINGS terms. */
	private *stageSteps(note: NoteRecord, passages: readonly Passage[], lists: readonly string[][]): Steps<void> {
		const tf = new Map<number, number>();
		let work = 0;
		for (let i = 0; i < passages.length; i++) {
			const p = passages[i] as Passage;
			const list = lists[i] ?? [];
			const doc = this.addDoc(note, p.start, p.end, p.headingPath, list.length);
			tf.clear();
			for (const term of list) {
				const t = this.termId(term);
				tf.set(t, (tf.get(t) ?? 0) + 1);
			}
			for (const [t, f] of tf) this.pool.insert(t, doc * TF_SLOTS + Math.min(f, TF_SLOTS - 1));
			work += list.length + 8;
			if (work >= STAGE_POSTINGS) {
				work = 0;
				yield;
			}
		}
	}

	/** Makes a staged note live: its passages count and are searched. */
	private show(note: NoteRecord): void {
		for (const doc of note.docs) {
			this.docNote[doc] = note;
			this.docSlot[doc] = note.slot;
			this.liveDocs++;
			this.totalLength += this.docLength[doc] ?? 0;
			this.hiddenDocs--;
		}
		this.notes.set(note.id, note);
		this.changes++;
	}

	/** Takes a live note out of search (its postings stay until dropSteps removes them). */
	private hide(note: NoteRecord): void {
		for (const doc of note.docs) {
			this.totalLength -= this.docLength[doc] ?? 0;
			this.docNote[doc] = undefined;
			this.docSlot[doc] = -1;
			this.liveDocs--;
			this.hiddenDocs++;
		}
		this.notes.delete(note.id);
		this.changes++;
	}

	/** Drops a note and all its passages (nothing if it is not indexed). */
	remove(id: string): void {
		drain(this.removeSteps(id));
	}

	/** `remove` as steps: the note leaves search at once, its postings go step by step. Wins over any upsert of it still running. */
	*removeSteps(id: string): Steps<void> {
		const ticket = ++this.tickets;
		this.latest.set(id, ticket);
		const note = this.notes.get(id);
		// Its terms are read before it is hidden (from its kept text); an upsert started meanwhile wins.
		const lists = note ? yield* this.termsOfSteps(note) : [];
		if (this.latest.get(id) !== ticket) return;
		this.latest.delete(id);
		if (!note || this.notes.get(id) !== note) return;
		this.partial.delete(id);
		this.hide(note);
		yield* this.dropSteps(note, lists);
	}

	/**
	 * The passages most relevant to `query`, best first (default limit 10). Notes are ranked on all
	 * of them (noteRanking.ts): each query term counts once per note, by its best passage, so a rare
	 * word in one paragraph and common words in another add up. A note's passages follow it, best
	 * first, at most `perNote` of them (default 3); every hit's score is its note's.
	 */
	search(query: string, opts: { limit?: number; perNote?: number } = {}): NoteSearchHit[] {
		const limit = Math.max(0, Math.floor(opts.limit ?? 10));
		const perNote = Math.max(1, Math.floor(opts.perNote ?? 3));
		if (limit === 0 || this.liveDocs === 0) return [];
		const weighted = expandMisspelled(weightedQuery(query), this.termIds);
		const source = {
			postings: (term: string): Uint32Array | undefined => {
				const id = this.termIds.get(term);
				return id === undefined ? undefined : this.pool.view(id);
			},
			docCount: this.liveDocs,
			avgLength: this.totalLength / this.liveDocs,
			docLength: this.docLength,
			docSlot: this.docSlot,
			noteSlots: this.slotNote.length,
		};
		// Ties in note order, not by internal ids: a loaded index numbers them anew.
		const before = (a: number, b: number): boolean => ((this.slotNote[a] as NoteRecord).id < (this.slotNote[b] as NoteRecord).id);
		const phrase = quotedPhrase(query);
		const ranked = this.ranker.rank(weighted, source, phrase ? Math.max(limit, PHRASE_CANDIDATES) : limit, before);
		if (phrase) {
			// A query that is a run of words of a note (pasted, or recalled exactly): the notes that
			// hold it verbatim (case aside) go first, in the order they had.
			const lift = ranked[0]?.score ?? 0;
			for (const r of ranked) if (textOf((this.slotNote[r.slot] as NoteRecord).body).toLowerCase().includes(phrase)) r.score += lift;
			ranked.sort((a, b) => b.score - a.score || (before(a.slot, b.slot) ? -1 : 1));
		}
		const out: NoteSearchHit[] = [];
		for (const r of ranked) {
			if (out.length >= limit) break;
			const note = this.slotNote[r.slot] as NoteRecord;
			const docs = r.docs.sort((a, b) => r.passageScore(b) - r.passageScore(a) || (this.docStart[a] ?? 0) - (this.docStart[b] ?? 0)).slice(0, Math.min(perNote, limit - out.length));
			const text = textOf(note.body);
			for (const doc of docs) out.push({ id: note.id, name: note.name, score: r.score, text: text.slice(this.docStart[doc], this.docEnd[doc]) });
		}
		return out;
	}

	/** The saved form as JSON-ready data (noteIndexJson.ts; `toBinary` is smaller and loads faster). */
	toJSON(): unknown {
		return indexToJson(this);
	}

	/**
	 * Loads a saved index. Data that is not a saved index, or one of another format version, throws
	 * an Error saying so (the caller rebuilds); nothing is half-loaded.
	 */
	static fromJSON(data: unknown): NoteIndex {
		const index = new NoteIndex();
		indexFromJson(data, index, compactText);
		return index;
	}

	/** The saved form as bytes, for `adapter.writeBinary` (layout: noteIndexFormat.ts). */
	toBinary(): Uint8Array {
		return drain(encodeBinary(this)) as Uint8Array;
	}

	/**
	 * `toBinary` spread over slices of about `sliceMs` (default 10), awaiting `yieldFn` between them.
	 * A change to the index between two slices starts it again; after three such restarts it
	 * finishes in one task, so the bytes always match one state of the index.
	 */
	async toBinaryInSlices(yieldFn: () => Promise<void>, options: { sliceMs?: number; now?: () => number; timing?: SliceTiming } = {}): Promise<Uint8Array> {
		for (let attempt = 0; attempt < 3; attempt++) {
			const bytes = await runInSlices(encodeBinary(this), yieldFn, options);
			if (bytes) return bytes;
		}
		return this.toBinary();
	}

	/** Loads bytes written by `toBinary` (an ArrayBuffer from `adapter.readBinary` is fine). Throws like fromJSON. */
	static fromBinary(data: ArrayBuffer | Uint8Array): NoteIndex {
		const index = new NoteIndex();
		drain(decodeBinary(data, index));
		return index;
	}

	/** `fromBinary` spread over slices of about `sliceMs`, awaiting `yieldFn` between them. */
	static async loadInSlices(data: ArrayBuffer | Uint8Array, yieldFn: () => Promise<void>, options: { sliceMs?: number; now?: () => number; timing?: SliceTiming } = {}): Promise<NoteIndex> {
		const index = new NoteIndex();
		await runInSlices(decodeBinary(data, index), yieldFn, options);
		return index;
	}

	/** @internal Notes in insertion order. */
	savedNotes(): Iterable<NoteRecord> {
		return this.notes.values();
	}

	/** @internal A note's passages as saved. */
	savedPassages(note: NoteRecord): SavedPassage[] {
		return note.docs.map((doc) => ({ start: this.docStart[doc] ?? 0, end: this.docEnd[doc] ?? 0, length: this.docLength[doc] ?? 0, headingPath: this.docPath[doc] ?? "" }));
	}

	/** @internal Every live term with its postings (internal passage ids × TF_SLOTS + tf). */
	*savedTerms(): Generator<[string, Uint32Array]> {
		for (const [term, id] of this.termIds) {
			let list = this.pool.view(id);
			// While a note is staged or being removed, its postings are not part of the saved state.
			if (this.hiddenDocs > 0) {
				list = list.filter((v) => this.docNote[Math.floor(v / TF_SLOTS)] !== undefined);
				if (list.length === 0) continue;
			}
			yield [term, list];
		}
	}

	/** @internal The highest internal passage id + 1. */
	get passageSlots(): number {
		return this.docNote.length;
	}

	/** @internal Adds a saved note with its passages; returns the note. */
	loadNote(id: string, name: string, body: string | Uint8Array, chars: number, mtime: number | undefined, passages: readonly SavedPassage[]): void {
		const note = this.newNote(id, name, body, chars, mtime);
		for (const p of passages) this.addDoc(note, p.start, p.end, p.headingPath, p.length);
		this.show(note);
		this.changes--;
	}

	/** @internal Sets a saved term's postings (passage ids as loaded). */
	loadTerm(term: string, postings: ArrayLike<number>): void {
		this.pool.fill(this.termId(term), postings);
	}

	/** Each passage's terms, appended to `lists`, yielding every STEP_CHARS characters. */
	private *analyze(text: string, name: string, passages: readonly Passage[], lists: string[][]): Steps<void> {
		let from = 0;
		while (from < passages.length) {
			let to = from;
			const stop = (passages[from]?.start ?? 0) + STEP_CHARS;
			while (to < passages.length && (to === from || (passages[to]?.end ?? 0) <= stop)) to++;
			for (const list of passageTerms(text, name, passages.slice(from, to))) lists.push(list);
			from = to;
			if (from < passages.length) yield;
		}
	}

	/** Each passage's terms of an indexed note (its kept text re-analyzed), in the order of note.docs. */
	private *termsOfSteps(note: NoteRecord): Steps<string[][]> {
		const text = textOf(note.body);
		const passages = note.docs.map((doc) => ({ start: this.docStart[doc] ?? 0, end: this.docEnd[doc] ?? 0, headingPath: this.docPath[doc] ?? "" }));
		const lists: string[][] = [];
		yield* this.analyze(text, fieldsOf(note.id, note.name), passages, lists);
		return lists;
	}

	/** Removes a hidden (or staged) note's postings, drops emptied terms and frees its passages, yielding every STAGE_POSTINGS terms. */
	private *dropSteps(note: NoteRecord, lists: readonly string[][]): Steps<void> {
		let work = 0;
		for (let i = 0; i < note.docs.length; i++) {
			const doc = note.docs[i] as number;
			const list = lists[i] ?? [];
			for (const term of new Set(list)) {
				const t = this.termIds.get(term);
				if (t === undefined) continue;
				if (this.pool.removeRange(t, doc * TF_SLOTS, (doc + 1) * TF_SLOTS) === 0) {
					this.termIds.delete(term);
					this.termNames[t] = undefined;
					this.freeTerms.push(t);
				}
			}
			this.docPath[doc] = "";
			this.docSlot[doc] = -1;
			this.freeDocs.push(doc);
			this.hiddenDocs--;
			work += list.length + 8;
			if (work >= STAGE_POSTINGS && i + 1 < note.docs.length) {
				work = 0;
				yield;
			}
		}
		note.docs.length = 0;
		// Its slot is free once its passages are (a staged note had one too: newNote).
		if (this.slotNote[note.slot] === note) {
			this.slotNote[note.slot] = undefined;
			this.freeSlots.push(note.slot);
		}
	}

	private newNote(id: string, name: string, body: string | Uint8Array, chars: number, mtime: number | undefined): NoteRecord {
		const slot = this.freeSlots.pop() ?? this.slotNote.length;
		const note: NoteRecord = { id, name, body, chars, mtime, docs: [], slot };
		this.slotNote[slot] = note;
		return note;
	}

	private termId(term: string): number {
		let id = this.termIds.get(term);
		if (id === undefined) {
			id = this.freeTerms.pop() ?? this.termNames.length;
			const own = ownCopy(term);
			this.termIds.set(own, id);
			this.termNames[id] = own;
		}
		return id;
	}

	/** A passage slot for the note, not yet live (`show` makes it so). */
	private addDoc(note: NoteRecord, start: number, end: number, headingPath: string, length: number): number {
		const doc = this.freeDocs.pop() ?? this.docNote.length;
		this.docNote[doc] = undefined;
		this.docStart[doc] = start;
		this.docEnd[doc] = end;
		this.docLength[doc] = length;
		this.docPath[doc] = headingPath;
		// Staged: the ranker skips it until `show` gives it its note's slot.
		this.docSlot[doc] = -1;
		note.docs.push(doc);
		this.hiddenDocs++;
		return doc;
	}
}

/**
 * A term that does not hold on to the text it was cut from. Engines keep a slice of 13 characters
 * or more as a view of its parent string, so a long word kept as a key of the term table would keep
 * its whole note's text (the full string, not the compact form) alive for as long as the term lives.
 */
function ownCopy(term: string): string {
	return term.length < 13 ? term : (JSON.parse(JSON.stringify(term)) as string);
}

/** Notes checked for a query's exact words (the best this many by score). */
const PHRASE_CANDIDATES = 50;

/** The query as a phrase to look for verbatim: four words or more (CJK: eight characters or more), lower-cased; else undefined. */
function quotedPhrase(query: string): string | undefined {
	const q = query.trim().replace(/\s+/g, " ").toLowerCase();
	const words = q.split(" ").length;
	const cjk = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/.test(q);
	return words >= 4 || (cjk && q.length >= 8) ? q : undefined;
}

/** What every passage of a note is also about: its name and the folders on its path. */
function fieldsOf(id: string, name: string): string {
	const slash = id.lastIndexOf("/");
	return slash < 0 ? name : `${name} ${id.slice(0, slash)}`;
}

/** A note's name from its path: "Folder/My note.md" → "My note". */
export function defaultName(id: string): string {
	const base = id.slice(id.lastIndexOf("/") + 1);
	return base.replace(/\.md$/i, "");
}
