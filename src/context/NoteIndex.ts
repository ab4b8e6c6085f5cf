// The vault's lexical index: every note's passages (passages.ts) under BM25, updated one note at a
// time. Hand-written rather than MiniSearch: bench/context.ts compared both (bundle bytes, build and
// query time, heap, saved size) and the README has the figures; this one shares the analyzer
// (CJK bigrams, folding, identifiers) with relevance fitting, so `@vault` and the fitted notes
// agree on what a match is.
//
// Memory (10,000 notes / 40 MB must stay under 150 MB, see the README):
// - postings are pooled (postingPool.ts): one entry, passage id × 1024 + term frequency, 4 bytes;
// - a term whose last posting goes is dropped from the term table, and its id reused;
// - a note's text is kept only with `keepText` (the default, for scripts; the app's index service
//   turns it off and reads a hit's note from the vault instead: noteHits.ts), in its compact form:
//   UTF-8 bytes when those are smaller than the JS string, decoded per hit;
// - per note, the ids of its terms as delta varints (noteTerms.ts) and a hash of its text: removing
//   a note finds each of its postings by binary search (lists are ascending, postingPool.ts), and a
//   hit whose note changed since is re-indexed before its offsets are used.
// Huge notes: `upsertSteps` analyzes a note in steps (indexInSlices drives it) and changes the index
// only in its last step, so a search never sees half a note. Saving and loading: noteIndexFormat.ts.
import { weightedQuery } from "./bm25";
import { hitsOf, liftPhrase, quotedPhrase, type Candidate } from "./noteHits";
import { encodeTermIds, encodeTermIdsSteps, termIdsOf, textHash, textHashSteps } from "./noteTerms";
import { expandMisspelled, isCjkPair } from "./fuzzyTerms";
import { NoteRanker } from "./noteRanking";
import { passageTerms } from "./passageCache";
import { indexFromJson, indexToJson } from "./noteIndexJson";
import { decodeBinary, encodeBinary, TF_SLOTS, type IndexedNote, type IndexStore, type SavedPassage } from "./noteIndexFormat";
import { compactText, compactTextSteps, textOf } from "./noteText";
import { cutPassagesSteps, type Passage } from "./passages";
import { PostingPool } from "./postingPool";
import { drain, runInSlices, type SliceTiming, type Steps } from "./steps";

export { NOTE_INDEX_FORMAT, NOTE_INDEX_VERSION } from "./noteIndexFormat";

export interface NoteSearchHit {
	/** The note's id (its vault path). */
	id: string;
	name: string;
	score: number;
	/** The passage's text ("" from `search` of an index that keeps no texts: use searchWithText). */
	text: string;
	/** Where the passage is in the note's text (UTF-16 units). */
	start?: number;
	end?: number;
}

/** A note's term ids: while staged, a set; once live, delta varints; while an index loads, a list. */
type NoteTermIds = Set<number> | Uint8Array | number[];
type NoteRecord = IndexedNote & { slot: number; terms: NoteTermIds };

/** Characters of passages analyzed between two steps of a sliced upsert (a few ms, CJK included). */
const STEP_CHARS = 16_000;
/** Postings added or removed between two steps of a sliced upsert. */
const STAGE_POSTINGS = 4_000;

/** Notes longer than this many characters are indexed in part (their first this-many), by default. */
export const DEFAULT_INDEX_NOTE_CHARS = 4 * 1024 * 1024;

/** Where a note longer than `limit` is cut for the index: at a line end near the limit, never inside a surrogate pair. */
export function indexedLength(text: string, limit: number): number {
	if (text.length <= limit) return text.length;
	// A line end within 4,096 characters of the limit (looked for there only: lastIndexOf would search a line-less note back to its start).
	let nl = -1;
	for (let i = limit - 1; i >= Math.max(1, limit - 4096); i--) {
		if (text.charCodeAt(i) === 10) {
			nl = i;
			break;
		}
	}
	if (nl > 0) return nl + 1;
	const c = text.charCodeAt(limit - 1);
	return c >= 0xd800 && c <= 0xdbff ? limit - 1 : limit;
}

export class NoteIndex implements IndexStore {
	/** Whether each note's text is kept (hits carry their text); without it, searchWithText reads them. */
	readonly keepText: boolean;
	/** Notes longer than this are indexed in part (their first this-many characters). */
	maxNoteChars = DEFAULT_INDEX_NOTE_CHARS;
	/** Notes indexed in part, with their full length in characters. */
	private readonly partial = new Map<string, number>();
	private readonly notes = new Map<string, NoteRecord>();
	private readonly termIds = new Map<string, number>();
	private readonly termNames: (string | undefined)[] = [];
	private readonly freeTerms: number[] = [];
	/** While an index loads: (note slot, term id) pairs from its postings, gathered into each note's term ids by finishLoad. */
	private loadPairs = { slots: new Uint32Array(0), terms: new Uint32Array(0), n: 0 };
	/** Per CJK character, the characters after it in the index's CJK pair terms (fuzzyTerms.ts corrects a mistyped one). */
	private readonly followers = new Map<string, Set<string>>();
	private readonly pool = new PostingPool();
	private readonly docNote: (NoteRecord | undefined)[] = [];
	private readonly docStart: number[] = [];
	private readonly docEnd: number[] = [];
	private readonly docLength: number[] = [];
	private readonly docPath: string[] = [];
	/** Per passage id: the slot of the note it belongs to, live or not (−1 when free). */
	private readonly docOwner: number[] = [];
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
		const body = this.keepText ? yield* compactTextSteps(text) : undefined;
		const hash = yield* textHashSteps(text);
		if (text.length > STEP_CHARS) yield;
		if (superseded()) return;
		// The new version's postings go in step by step, under passages no search sees yet (staged);
		// one step then switches the note (the old version's passages hidden, the new ones live), and
		// the old postings are removed step by step after. A search sees the old note or the new one.
		// The staged note has its slot at once (its passages get it when `show` makes them live).
		const note = this.newNote(id, name, body, text.length, mtime, hash);
		let live = false;
		try {
			yield* this.stageSteps(note, passages, lists);
			// Its term ids in their compact form before it goes live (millions of them, for a huge note: in steps).
			note.terms = yield* encodeTermIdsSteps(note.terms as Set<number>, this.termNames.length);
			if (superseded()) return;
			if (old) this.hide(old);
			this.show(note);
			live = true;
			this.latest.delete(id);
			if (cut < fullText.length) this.partial.set(id, fullText.length);
			else this.partial.delete(id);
		} finally {
			// Superseded, or abandoned between two steps (a stopped build): its staged postings go.
			if (!live) drain(this.dropSteps(note));
		}
		if (old) yield* this.dropSteps(old);
	}

	/** The part of a note's text this index indexes (all of it, unless it is over maxNoteChars). */
	indexedPart(text: string): string {
		const cut = indexedLength(text, Math.max(1, Math.floor(this.maxNoteChars)));
		return cut < text.length ? text.slice(0, cut) : text;
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
		const ids = note.terms as Set<number>;
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
			for (const [t, f] of tf) {
				this.pool.insert(t, doc * TF_SLOTS + Math.min(f, TF_SLOTS - 1));
				ids.add(t);
			}
			work += list.length + 8;
			if (work >= STAGE_POSTINGS) {
				work = 0;
				yield;
			}
		}
	}

	/** Makes a staged note live: its passages count and are searched. */
	private show(note: NoteRecord): void {
		if (note.terms instanceof Set) note.terms = encodeTermIds(note.terms);
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
		// An upsert started meanwhile wins.
		if (note && note.chars > STEP_CHARS) yield;
		if (this.latest.get(id) !== ticket) return;
		this.latest.delete(id);
		if (!note || this.notes.get(id) !== note) return;
		this.partial.delete(id);
		this.hide(note);
		yield* this.dropSteps(note);
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
		const phrase = quotedPhrase(query);
		const candidates = this.candidates(query, limit, phrase !== undefined);
		const text = (c: Candidate): string | undefined => {
			const body = this.notes.get(c.id)?.body;
			return body === undefined ? undefined : textOf(body);
		};
		if (phrase) liftPhrase(candidates, phrase, text);
		return hitsOf(candidates, limit, perNote, text);
	}

	/**
	 * @internal The best notes for `query`, best first, each with its passages that hold a query
	 * term (best first): `limit` notes, or more (PHRASE_CANDIDATES) when `forPhrase`, for
	 * liftPhrase to reorder. Ties in note order, not by internal ids: a loaded index numbers them anew.
	 */
	candidates(query: string, limit: number, forPhrase: boolean): Candidate[] {
		if (limit <= 0 || this.liveDocs === 0) return [];
		const weighted = expandMisspelled(weightedQuery(query), this.termIds, (c) => this.followers.get(c));
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
		const before = (a: number, b: number): boolean => (this.slotNote[a] as NoteRecord).id < (this.slotNote[b] as NoteRecord).id;
		const ranked = this.ranker.rank(weighted, source, forPhrase ? Math.max(limit, PHRASE_CANDIDATES) : limit, before);
		return ranked.map((r) => {
			const note = this.slotNote[r.slot] as NoteRecord;
			const docs = r.docs.sort((a, b) => r.passageScore(b) - r.passageScore(a) || (this.docStart[a] ?? 0) - (this.docStart[b] ?? 0));
			return { id: note.id, name: note.name, score: r.score, hash: note.hash, chars: note.chars, passages: docs.map((d) => ({ start: this.docStart[d] ?? 0, end: this.docEnd[d] ?? 0 })) };
		});
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
		indexFromJson(data, index, compactText, textHash);
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
	static fromBinary(data: ArrayBuffer | Uint8Array, options: { keepText?: boolean } = {}): NoteIndex {
		const index = new NoteIndex(options);
		drain(decodeBinary(data, index));
		return index;
	}

	/** `fromBinary` spread over slices of about `sliceMs`, awaiting `yieldFn` between them. */
	static async loadInSlices(data: ArrayBuffer | Uint8Array, yieldFn: () => Promise<void>, options: { sliceMs?: number; now?: () => number; timing?: SliceTiming; keepText?: boolean } = {}): Promise<NoteIndex> {
		const index = new NoteIndex({ keepText: options.keepText });
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
	loadNote(id: string, name: string, body: string | Uint8Array | undefined, chars: number, mtime: number | undefined, passages: readonly SavedPassage[], hash: number): void {
		const note = this.newNote(id, name, this.keepText ? body : undefined, chars, mtime, hash);
		note.terms = new Uint8Array(0);
		for (const p of passages) this.addDoc(note, p.start, p.end, p.headingPath, p.length);
		this.show(note);
		this.changes--;
	}

	/** @internal Sets a saved term's postings (passage ids as loaded). */
	loadTerm(term: string, postings: ArrayLike<number>): void {
		const id = this.termId(term);
		this.pool.fill(id, postings);
		// Each note's term ids are not saved: they are the terms whose postings name its passages.
		const pairs = this.loadPairs;
		if (pairs.n + postings.length > pairs.slots.length) {
			const size = Math.max(pairs.n + postings.length, pairs.slots.length * 2, 1024);
			const slots = new Uint32Array(size);
			const terms = new Uint32Array(size);
			slots.set(pairs.slots.subarray(0, pairs.n));
			terms.set(pairs.terms.subarray(0, pairs.n));
			pairs.slots = slots;
			pairs.terms = terms;
		}
		let last = -1;
		for (let i = 0; i < postings.length; i++) {
			const slot = this.docSlot[Math.floor((postings[i] ?? 0) / TF_SLOTS)] ?? -1;
			if (slot >= 0 && slot !== last) {
				pairs.slots[pairs.n] = slot;
				pairs.terms[pairs.n++] = id;
				last = slot;
			}
		}
	}

	/** @internal After loading: each note's term ids (gathered by loadTerm) into their compact form. */
	*finishLoad(): Steps<void> {
		const { slots, terms, n } = this.loadPairs;
		this.loadPairs = { slots: new Uint32Array(0), terms: new Uint32Array(0), n: 0 };
		// Pairs grouped by note slot (a counting sort); within a note, term ids stay in load order.
		const start = new Uint32Array(this.slotNote.length + 1);
		for (let i = 0; i < n; i++) {
			const s = (slots[i] ?? 0) + 1;
			start[s] = (start[s] ?? 0) + 1;
		}
		for (let s = 0; s < this.slotNote.length; s++) start[s + 1] = (start[s + 1] ?? 0) + (start[s] ?? 0);
		const at = start.slice(0, this.slotNote.length);
		const grouped = new Uint32Array(n);
		for (let i = 0; i < n; i++) {
			const s = slots[i] ?? 0;
			const k = at[s] ?? 0;
			grouped[k] = terms[i] ?? 0;
			at[s] = k + 1;
		}
		yield;
		let work = 0;
		for (let s = 0; s < this.slotNote.length; s++) {
			const note = this.slotNote[s];
			if (!note) continue;
			const ids = grouped.subarray(start[s], start[s + 1]);
			note.terms = encodeTermIds(ids);
			work += ids.length;
			if (work >= STAGE_POSTINGS * 50) {
				work = 0;
				yield;
			}
		}
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

	/** Removes a hidden (or staged) note's postings, drops emptied terms and frees its passages, yielding every STAGE_POSTINGS postings. */
	private *dropSteps(note: NoteRecord): Steps<void> {
		const docs = note.docs;
		const ids: Iterable<number> = note.terms instanceof Uint8Array ? termIdsOf(note.terms) : note.terms;
		let lo = Infinity;
		let hi = -1;
		for (const doc of docs) {
			lo = Math.min(lo, doc);
			hi = Math.max(hi, doc);
		}
		const slot = note.slot;
		const owned = (v: number): boolean => this.docOwner[Math.floor(v / TF_SLOTS)] === slot;
		let work = 0;
		for (const t of ids) {
			if (docs.length === 0) break;
			let left: number;
			if (docs.length <= FEW_PASSAGES) {
				left = this.pool.count(t);
				for (const doc of docs) left = this.pool.removeRange(t, doc * TF_SLOTS, (doc + 1) * TF_SLOTS);
				work += docs.length;
			} else {
				// A long note: one scan of the term's postings between its first and last passage.
				const r = this.pool.removeWhere(t, lo * TF_SLOTS, (hi + 1) * TF_SLOTS, owned);
				left = r.length;
				work += r.scanned;
			}
			if (left === 0) {
				const term = this.termNames[t];
				if (term !== undefined) {
					this.termIds.delete(term);
					if (isCjkPair(term)) this.followers.get(term[0] ?? "")?.delete(term[1] ?? "");
				}
				this.termNames[t] = undefined;
				this.freeTerms.push(t);
			}
			if (++work >= STAGE_POSTINGS) {
				work = 0;
				yield;
			}
		}
		for (const doc of docs) {
			this.docPath[doc] = "";
			this.docSlot[doc] = -1;
			this.docOwner[doc] = -1;
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

	private newNote(id: string, name: string, body: string | Uint8Array | undefined, chars: number, mtime: number | undefined, hash: number): NoteRecord {
		const slot = this.freeSlots.pop() ?? this.slotNote.length;
		const note: NoteRecord = { id, name, body, chars, mtime, hash, docs: [], slot, terms: new Set() };
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
			if (isCjkPair(own)) {
				const first = own[0] ?? "";
				let set = this.followers.get(first);
				if (!set) this.followers.set(first, (set = new Set()));
				set.add(own[1] ?? "");
			}
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
		this.docOwner[doc] = note.slot;
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
/** A note of at most this many passages has its postings removed passage by passage (else by one scan per term). */
const FEW_PASSAGES = 8;

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
