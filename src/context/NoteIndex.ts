// The vault's lexical index: every note's passages (passages.ts) under BM25, updated one note at a
// time. Hand-written rather than MiniSearch: bench/context.ts compared both (bundle bytes, build and
// query time, heap, saved size) and the README has the figures; this one shares the analyzer
// (CJK bigrams, folding, identifiers) with relevance fitting, so `@vault` and the fitted notes
// agree on what a match is.
//
// Storage: one posting list per term, each posting one small integer (passage id × 1024 + term
// frequency) in a plain array. Removing a note re-analyzes its kept text to find its postings
// (passages are cut deterministically), so no per-passage term lists are held: they would double
// the index. Passage ids of removed notes are reused. Each note's text is kept: search returns
// passage text.
import { bm25Idf, bm25Term, weightedQuery } from "./bm25";
import { passageTerms } from "./passageCache";
import { cutPassages } from "./passages";

export const NOTE_INDEX_FORMAT = "discover-note-index";
export const NOTE_INDEX_VERSION = 1;

export interface NoteSearchHit {
	/** The note's id (its vault path). */
	id: string;
	name: string;
	score: number;
	/** The passage's text. */
	text: string;
}

interface NoteRecord {
	id: string;
	name: string;
	text: string;
	mtime: number | undefined;
	docs: number[];
}

interface Postings {
	values: Uint32Array;
	n: number;
}

function push(list: Postings, v: number): void {
	if (list.n === list.values.length) {
		const grown = new Uint32Array(Math.max(4, Math.ceil(list.values.length * 1.5)));
		grown.set(list.values);
		list.values = grown;
	}
	list.values[list.n++] = v;
}

/** Term frequency is kept up to this (more adds nothing to BM25's saturated score). */
const TF_SLOTS = 1024;

/** The saved form (`toJSON`): version 1. */
interface SavedIndex {
	format: typeof NOTE_INDEX_FORMAT;
	version: number;
	notes: {
		id: string;
		name: string;
		mtime?: number;
		text: string;
		/** Per passage: start, end, length in terms. Passages are numbered across notes in this order. */
		passages: number[];
		paths: string[];
	}[];
	terms: string[];
	/** Per term: its postings, (passage number delta × 1024 + frequency) in base 36, comma-separated. */
	postings: string[];
}

export class NoteIndex {
	private readonly notes = new Map<string, NoteRecord>();
	private readonly termIds = new Map<string, number>();
	private readonly termNames: string[] = [];
	/** Per term: passage id × TF_SLOTS + frequency, in a growable typed array (4 bytes a posting). */
	private readonly postings: Postings[] = [];
	private readonly docNote: (NoteRecord | undefined)[] = [];
	private readonly docStart: number[] = [];
	private readonly docEnd: number[] = [];
	private readonly docLength: number[] = [];
	private readonly docPath: string[] = [];
	private readonly freeDocs: number[] = [];
	private liveDocs = 0;
	private totalLength = 0;

	/** Notes indexed. */
	get size(): number {
		return this.notes.size;
	}

	/** Passages indexed. */
	get passageCount(): number {
		return this.liveDocs;
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
		this.remove(id);
		const note: NoteRecord = { id, name, text, mtime, docs: [] };
		this.eachPassage(note, (start, end, headingPath, length, tf) => {
			const doc = this.addDoc(note, start, end, headingPath, length);
			for (const [t, f] of tf) push(this.postings[t] as Postings, doc * TF_SLOTS + Math.min(f, TF_SLOTS - 1));
		});
		this.notes.set(id, note);
	}

	/** Drops a note and all its passages (nothing if it is not indexed). */
	remove(id: string): void {
		const note = this.notes.get(id);
		if (!note) return;
		let p = 0;
		this.eachPassage(note, (_s, _e, _h, _l, tf) => {
			const doc = note.docs[p++] ?? -1;
			for (const [t, f] of tf) {
				const list = this.postings[t] as Postings;
				const at = list.values.subarray(0, list.n).indexOf(doc * TF_SLOTS + Math.min(f, TF_SLOTS - 1));
				if (at < 0) continue;
				list.n--;
				list.values[at] = list.values[list.n] ?? 0;
				if (list.n === 0) list.values = new Uint32Array(0);
			}
		});
		for (const doc of note.docs) {
			this.totalLength -= this.docLength[doc] ?? 0;
			this.docNote[doc] = undefined;
			this.docPath[doc] = "";
			this.freeDocs.push(doc);
			this.liveDocs--;
		}
		this.notes.delete(id);
	}

	/** The passages most relevant to `query`, best first (default limit 10). */
	search(query: string, opts: { limit?: number } = {}): NoteSearchHit[] {
		const limit = Math.max(0, Math.floor(opts.limit ?? 10));
		if (limit === 0 || this.liveDocs === 0) return [];
		const scores = new Float64Array(this.docNote.length);
		const touched: number[] = [];
		const avg = this.totalLength / this.liveDocs;
		for (const [term, weight] of weightedQuery(query)) {
			const id = this.termIds.get(term);
			const list = id === undefined ? undefined : this.postings[id];
			if (!list || list.n === 0) continue;
			const idf = bm25Idf(this.liveDocs, list.n);
			for (let k = 0; k < list.n; k++) {
				const v = list.values[k] ?? 0;
				const doc = Math.floor(v / TF_SLOTS);
				if (scores[doc] === 0) touched.push(doc);
				scores[doc] = (scores[doc] ?? 0) + weight * bm25Term(idf, v % TF_SLOTS, this.docLength[doc] ?? 0, avg);
			}
		}
		// Ties in note and document order, not by internal passage id: a loaded index numbers them anew.
		const byPlace = (a: number, b: number): number => {
			const na = (this.docNote[a] as NoteRecord).id;
			const nb = (this.docNote[b] as NoteRecord).id;
			return na < nb ? -1 : na > nb ? 1 : (this.docStart[a] ?? 0) - (this.docStart[b] ?? 0);
		};
		touched.sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || byPlace(a, b));
		return touched.slice(0, limit).map((doc) => {
			const note = this.docNote[doc] as NoteRecord;
			return { id: note.id, name: note.name, score: scores[doc] ?? 0, text: note.text.slice(this.docStart[doc], this.docEnd[doc]) };
		});
	}

	/** The saved form: format name and version, per note its text, mtime and passages, then the postings. */
	toJSON(): unknown {
		const number = new Map<number, number>();
		const notes: SavedIndex["notes"] = [];
		for (const note of this.notes.values()) {
			const passages: number[] = [];
			const paths: string[] = [];
			for (const doc of note.docs) {
				number.set(doc, number.size);
				passages.push(this.docStart[doc] ?? 0, this.docEnd[doc] ?? 0, this.docLength[doc] ?? 0);
				paths.push(this.docPath[doc] ?? "");
			}
			notes.push({ id: note.id, name: note.name, ...(note.mtime !== undefined ? { mtime: note.mtime } : {}), text: note.text, passages, paths });
		}
		const terms: string[] = [];
		const postings: string[] = [];
		this.postings.forEach((list, t) => {
			if (list.n === 0) return;
			const renumbered = Array.from(list.values.subarray(0, list.n), (v) => (number.get(Math.floor(v / TF_SLOTS)) ?? 0) * TF_SLOTS + (v % TF_SLOTS)).sort((a, b) => a - b);
			let prev = 0;
			const parts: string[] = [];
			for (const v of renumbered) {
				const doc = Math.floor(v / TF_SLOTS);
				parts.push(((doc - prev) * TF_SLOTS + (v % TF_SLOTS)).toString(36));
				prev = doc;
			}
			terms.push(this.termNames[t] ?? "");
			postings.push(parts.join(","));
		});
		const saved: SavedIndex = { format: NOTE_INDEX_FORMAT, version: NOTE_INDEX_VERSION, notes, terms, postings };
		return saved;
	}

	/**
	 * Loads a saved index. Data that is not a saved index, or one of another format version, throws
	 * an Error saying so (the caller rebuilds); nothing is half-loaded.
	 */
	static fromJSON(data: unknown): NoteIndex {
		const saved = checkSaved(data);
		const index = new NoteIndex();
		for (const n of saved.notes) {
			const note: NoteRecord = { id: n.id, name: n.name, text: n.text, mtime: n.mtime, docs: [] };
			for (let p = 0; p * 3 < n.passages.length; p++) {
				index.addDoc(note, n.passages[p * 3] ?? 0, n.passages[p * 3 + 1] ?? 0, n.paths[p] ?? "", n.passages[p * 3 + 2] ?? 0);
			}
			index.notes.set(n.id, note);
		}
		const docs = index.docNote.length;
		saved.terms.forEach((term, i) => {
			if (typeof term !== "string") throw new Error("NoteIndex.fromJSON: a saved term is not text; rebuild the index");
			const list = index.postings[index.termId(term)] as Postings;
			const values = decodePostings(saved.postings[i] ?? "", docs);
			if (!values) throw new Error(`NoteIndex.fromJSON: the postings of "${term}" are damaged or name a passage the saved index does not have; rebuild the index`);
			list.values = values;
			list.n = values.length;
		});
		return index;
	}

	/** Calls `fn` for each passage of the note with its term frequencies (term ids). */
	private eachPassage(note: NoteRecord, fn: (start: number, end: number, headingPath: string, length: number, tf: Map<number, number>) => void): void {
		const passages = cutPassages(note.text);
		const lists = passageTerms(note.text, note.name, passages);
		const tf = new Map<number, number>();
		passages.forEach((p, i) => {
			tf.clear();
			const list = lists[i] ?? [];
			for (const term of list) {
				const t = this.termId(term);
				tf.set(t, (tf.get(t) ?? 0) + 1);
			}
			fn(p.start, p.end, p.headingPath, list.length, tf);
		});
	}

	private termId(term: string): number {
		let id = this.termIds.get(term);
		if (id === undefined) {
			id = this.termNames.length;
			this.termIds.set(term, id);
			this.termNames.push(term);
			this.postings.push({ values: new Uint32Array(0), n: 0 });
		}
		return id;
	}

	private addDoc(note: NoteRecord, start: number, end: number, headingPath: string, length: number): number {
		const doc = this.freeDocs.pop() ?? this.docNote.length;
		this.docNote[doc] = note;
		this.docStart[doc] = start;
		this.docEnd[doc] = end;
		this.docLength[doc] = length;
		this.docPath[doc] = headingPath;
		note.docs.push(doc);
		this.liveDocs++;
		this.totalLength += length;
		return doc;
	}
}

/** Base-36 comma-separated (delta × TF_SLOTS + tf) back to postings; undefined when damaged. */
function decodePostings(encoded: unknown, docs: number): Uint32Array | undefined {
	if (typeof encoded !== "string") return undefined;
	if (encoded === "") return new Uint32Array(0);
	let count = 1;
	for (let i = 0; i < encoded.length; i++) if (encoded.charCodeAt(i) === 44) count++;
	const out = new Uint32Array(count);
	let doc = 0;
	let v = 0;
	let k = 0;
	for (let i = 0; i <= encoded.length; i++) {
		const c = i < encoded.length ? encoded.charCodeAt(i) : 44;
		if (c === 44) {
			doc += Math.floor(v / TF_SLOTS);
			if (doc >= docs) return undefined;
			out[k++] = doc * TF_SLOTS + (v % TF_SLOTS);
			v = 0;
		} else if (c >= 48 && c <= 57) v = v * 36 + (c - 48);
		else if (c >= 97 && c <= 122) v = v * 36 + (c - 87);
		else return undefined;
	}
	return out;
}

/** A note's name from its path: "Folder/My note.md" → "My note". */
function defaultName(id: string): string {
	const base = id.slice(id.lastIndexOf("/") + 1);
	return base.replace(/\.md$/i, "");
}

function checkSaved(data: unknown): SavedIndex {
	const fail = (why: string): never => {
		throw new Error(`NoteIndex.fromJSON: ${why}; rebuild the index`);
	};
	if (typeof data !== "object" || data === null) return fail("not a saved note index");
	const d = data as Partial<SavedIndex>;
	if (d.format !== NOTE_INDEX_FORMAT) return fail("not a saved note index (no format name)");
	if (d.version !== NOTE_INDEX_VERSION) return fail(`saved with format version ${String(d.version)}, this build reads version ${NOTE_INDEX_VERSION}`);
	if (!Array.isArray(d.terms) || !Array.isArray(d.notes) || !Array.isArray(d.postings) || d.postings.length !== d.terms.length) return fail("its terms, postings or notes are missing");
	for (const n of d.notes) {
		if (typeof n !== "object" || n === null || typeof n.id !== "string" || typeof n.name !== "string" || typeof n.text !== "string" || !Array.isArray(n.passages) || !Array.isArray(n.paths)) {
			return fail("a note in it is damaged");
		}
		if (n.mtime !== undefined && typeof n.mtime !== "number") return fail(`note "${n.id}" has a damaged mtime`);
		for (let i = 0; i < n.passages.length; i++) {
			const v = n.passages[i];
			if (typeof v !== "number" || v < 0 || (i % 3 !== 2 && v > n.text.length)) return fail(`note "${n.id}" has a passage outside its text`);
		}
	}
	return d as SavedIndex;
}
