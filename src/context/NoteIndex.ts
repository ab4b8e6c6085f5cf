// The vault's lexical index: every note's passages (passages.ts) under BM25, updated one note at a
// time. Hand-written rather than MiniSearch: bench/context.ts compared both (bundle bytes, build and
// query time, heap, saved size) and the README has the figures; this one shares the analyzer
// (CJK bigrams, folding, identifiers) with relevance fitting, so `@vault` and the fitted notes
// agree on what a match is.
//
// Storage: one posting list per term (passage ids and term frequencies in growable typed arrays);
// each passage keeps its distinct term ids so removing a note touches only its own postings.
// Passage ids of removed notes are reused. Each note's text is kept: search returns passage text.
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
	docs: Int32Array;
	tfs: Uint16Array;
	n: number;
}

/** The saved form (`toJSON`): version 1. */
interface SavedIndex {
	format: typeof NOTE_INDEX_FORMAT;
	version: number;
	terms: string[];
	notes: {
		id: string;
		name: string;
		mtime?: number;
		text: string;
		/** Per passage: start, end. */
		ranges: number[];
		paths: string[];
		/** Per passage: its distinct term count, then (term index, frequency) pairs. */
		postings: number[];
	}[];
}

export class NoteIndex {
	private readonly notes = new Map<string, NoteRecord>();
	private readonly termIds = new Map<string, number>();
	private readonly termNames: string[] = [];
	private readonly postings: Postings[] = [];
	private docNote: (NoteRecord | undefined)[] = [];
	private docStart: number[] = [];
	private docEnd: number[] = [];
	private docLength: number[] = [];
	private docTerms: (Int32Array | undefined)[] = [];
	/** Parallel to docTerms: each term's frequency in the passage. */
	private docTf: (Uint16Array | undefined)[] = [];
	private docPath: string[] = [];
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
		const passages = cutPassages(text);
		const lists = passageTerms(text, name, passages);
		const note: NoteRecord = { id, name, text, mtime, docs: [] };
		const tf = new Map<number, number>();
		passages.forEach((p, i) => {
			tf.clear();
			const list = lists[i] ?? [];
			for (const term of list) {
				const t = this.termId(term);
				tf.set(t, (tf.get(t) ?? 0) + 1);
			}
			this.addDoc(note, p.start, p.end, p.headingPath, list.length, tf);
		});
		this.notes.set(id, note);
	}

	/** Drops a note and all its passages (nothing if it is not indexed). */
	remove(id: string): void {
		const note = this.notes.get(id);
		if (!note) return;
		for (const doc of note.docs) {
			for (const t of this.docTerms[doc] ?? []) this.removePosting(t, doc);
			this.totalLength -= this.docLength[doc] ?? 0;
			this.docNote[doc] = undefined;
			this.docTerms[doc] = undefined;
			this.docTf[doc] = undefined;
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
				const doc = list.docs[k] ?? 0;
				if (scores[doc] === 0) touched.push(doc);
				scores[doc] = (scores[doc] ?? 0) + weight * bm25Term(idf, list.tfs[k] ?? 0, this.docLength[doc] ?? 0, avg);
			}
		}
		touched.sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
		return touched.slice(0, limit).map((doc) => {
			const note = this.docNote[doc] as NoteRecord;
			return { id: note.id, name: note.name, score: scores[doc] ?? 0, text: note.text.slice(this.docStart[doc], this.docEnd[doc]) };
		});
	}

	/** The saved form: format name and version, terms, and per note its text, mtime, passages and postings. */
	toJSON(): unknown {
		const remap = new Map<number, number>();
		const terms: string[] = [];
		const notes: SavedIndex["notes"] = [];
		for (const note of this.notes.values()) {
			const ranges: number[] = [];
			const paths: string[] = [];
			const postings: number[] = [];
			for (const doc of note.docs) {
				ranges.push(this.docStart[doc] ?? 0, this.docEnd[doc] ?? 0);
				paths.push(this.docPath[doc] ?? "");
				const ids = this.docTerms[doc] ?? new Int32Array(0);
				const tfs = this.docTf[doc] ?? new Uint16Array(0);
				postings.push(ids.length);
				for (let k = 0; k < ids.length; k++) {
					const t = ids[k] ?? 0;
					let saved = remap.get(t);
					if (saved === undefined) {
						saved = terms.length;
						terms.push(this.termNames[t] ?? "");
						remap.set(t, saved);
					}
					postings.push(saved, tfs[k] ?? 0);
				}
			}
			notes.push({ id: note.id, name: note.name, ...(note.mtime !== undefined ? { mtime: note.mtime } : {}), text: note.text, ranges, paths, postings });
		}
		const saved: SavedIndex = { format: NOTE_INDEX_FORMAT, version: NOTE_INDEX_VERSION, terms, notes };
		return saved;
	}

	/**
	 * Loads a saved index. Data that is not a saved index, or one of another format version, throws
	 * an Error saying so (the caller rebuilds); nothing is half-loaded.
	 */
	static fromJSON(data: unknown): NoteIndex {
		const saved = checkSaved(data);
		const index = new NoteIndex();
		const termOf = saved.terms.map((t) => index.termId(t));
		const tf = new Map<number, number>();
		for (const n of saved.notes) {
			const note: NoteRecord = { id: n.id, name: n.name, text: n.text, mtime: n.mtime, docs: [] };
			let at = 0;
			for (let p = 0; p * 2 < n.ranges.length; p++) {
				tf.clear();
				const count = n.postings[at++] ?? 0;
				let length = 0;
				for (let k = 0; k < count; k++) {
					const t = termOf[n.postings[at++] ?? -1];
					const f = n.postings[at++] ?? 0;
					if (t === undefined) throw new Error(`NoteIndex.fromJSON: note "${n.id}" names a term the saved index does not have`);
					tf.set(t, f);
					length += f;
				}
				index.addDoc(note, n.ranges[p * 2] ?? 0, n.ranges[p * 2 + 1] ?? 0, n.paths[p] ?? "", length, tf);
			}
			index.notes.set(n.id, note);
		}
		return index;
	}

	private termId(term: string): number {
		let id = this.termIds.get(term);
		if (id === undefined) {
			id = this.termNames.length;
			this.termIds.set(term, id);
			this.termNames.push(term);
			this.postings.push({ docs: new Int32Array(2), tfs: new Uint16Array(2), n: 0 });
		}
		return id;
	}

	private addDoc(note: NoteRecord, start: number, end: number, headingPath: string, length: number, tf: Map<number, number>): void {
		const doc = this.freeDocs.pop() ?? this.docNote.length;
		this.docNote[doc] = note;
		this.docStart[doc] = start;
		this.docEnd[doc] = end;
		this.docLength[doc] = length;
		this.docPath[doc] = headingPath;
		const ids = new Int32Array(tf.size);
		const tfs = new Uint16Array(tf.size);
		let k = 0;
		for (const [t, f] of tf) {
			ids[k] = t;
			tfs[k++] = Math.min(f, 0xffff);
			this.addPosting(t, doc, f);
		}
		this.docTerms[doc] = ids;
		this.docTf[doc] = tfs;
		note.docs.push(doc);
		this.liveDocs++;
		this.totalLength += length;
	}

	private addPosting(term: number, doc: number, tf: number): void {
		const list = this.postings[term] as Postings;
		if (list.n === list.docs.length) {
			const docs = new Int32Array(list.docs.length * 2);
			docs.set(list.docs);
			const tfs = new Uint16Array(list.tfs.length * 2);
			tfs.set(list.tfs);
			list.docs = docs;
			list.tfs = tfs;
		}
		list.docs[list.n] = doc;
		list.tfs[list.n] = Math.min(tf, 0xffff);
		list.n++;
	}

	private removePosting(term: number, doc: number): void {
		const list = this.postings[term];
		if (!list) return;
		const at = list.docs.subarray(0, list.n).indexOf(doc);
		if (at < 0) return;
		list.n--;
		list.docs[at] = list.docs[list.n] ?? 0;
		list.tfs[at] = list.tfs[list.n] ?? 0;
		// A list that shrank to a quarter gives its memory back.
		if (list.docs.length > 8 && list.n < list.docs.length / 4) {
			list.docs = list.docs.slice(0, list.docs.length / 2);
			list.tfs = list.tfs.slice(0, list.tfs.length / 2);
		}
	}
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
	if (!Array.isArray(d.terms) || !Array.isArray(d.notes)) return fail("its terms or notes are missing");
	for (const n of d.notes) {
		if (typeof n !== "object" || n === null || typeof n.id !== "string" || typeof n.name !== "string" || typeof n.text !== "string" || !Array.isArray(n.ranges) || !Array.isArray(n.paths) || !Array.isArray(n.postings)) {
			return fail("a note in it is damaged");
		}
		if (n.mtime !== undefined && typeof n.mtime !== "number") return fail(`note "${n.id}" has a damaged mtime`);
		for (let i = 0; i < n.ranges.length; i++) {
			const v = n.ranges[i];
			if (typeof v !== "number" || v < 0 || v > n.text.length) return fail(`note "${n.id}" has a passage outside its text`);
		}
	}
	return d as SavedIndex;
}
