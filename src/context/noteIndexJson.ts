// The vault index's saved form as plain data (`NoteIndex.toJSON`/`fromJSON`): format name, version,
// per note its text, mtime and passages, then the postings as base-36 deltas. Same content as the
// binary form (noteIndexFormat.ts), which loads several times faster and is what the app writes.
import { NOTE_INDEX_FORMAT, NOTE_INDEX_OLDEST, NOTE_INDEX_VERSION, TF_SLOTS, type IndexStore, type SavedPassage } from "./noteIndexFormat";
import { textOf } from "./noteText";
import { drain } from "./steps";

interface SavedIndex {
	format: typeof NOTE_INDEX_FORMAT;
	version: number;
	notes: {
		id: string;
		name: string;
		mtime?: number;
		/** The text; "" with `chars` and `hash` when the index keeps no texts. */
		text: string;
		chars?: number;
		hash?: number;
		/** Per passage: start, end, length in terms. Passages are numbered across notes in this order. */
		passages: number[];
		paths: string[];
	}[];
	terms: string[];
	/** Per term: its postings, (passage number delta × 1024 + frequency) in base 36, comma-separated. */
	postings: string[];
}

export function indexToJson(store: IndexStore): unknown {
	const number = new Int32Array(store.passageSlots).fill(-1);
	let count = 0;
	const notes: SavedIndex["notes"] = [];
	for (const note of store.savedNotes()) {
		const passages: number[] = [];
		const paths: string[] = [];
		for (const doc of note.docs) number[doc] = count++;
		for (const p of store.savedPassages(note)) {
			passages.push(p.start, p.end, p.length);
			paths.push(p.headingPath);
		}
		notes.push({ id: note.id, name: note.name, ...(note.mtime !== undefined ? { mtime: note.mtime } : {}), ...(note.body === undefined ? { text: "", chars: note.chars, hash: note.hash } : { text: textOf(note.body) }), passages, paths });
	}
	const terms: string[] = [];
	const postings: string[] = [];
	for (const [term, list] of store.savedTerms()) {
		const sorted = Uint32Array.from(list, (v) => (number[Math.floor(v / TF_SLOTS)] ?? 0) * TF_SLOTS + (v % TF_SLOTS)).sort();
		let prev = 0;
		const parts: string[] = [];
		for (const v of sorted) {
			const doc = Math.floor(v / TF_SLOTS);
			parts.push(((doc - prev) * TF_SLOTS + (v % TF_SLOTS)).toString(36));
			prev = doc;
		}
		terms.push(term);
		postings.push(parts.join(","));
	}
	const saved: SavedIndex = { format: NOTE_INDEX_FORMAT, version: NOTE_INDEX_VERSION, notes, terms, postings };
	return saved;
}

/** Reads `data` into `store` (an empty index). Throws an Error saying what is wrong; the caller rebuilds. */
export function indexFromJson(data: unknown, store: IndexStore, compact: (text: string) => string | Uint8Array, hash: (text: string) => number): void {
	const saved = checkSaved(data);
	let docs = 0;
	for (const n of saved.notes) {
		const passages: SavedPassage[] = [];
		for (let p = 0; p * 3 < n.passages.length; p++) passages.push({ start: n.passages[p * 3] ?? 0, end: n.passages[p * 3 + 1] ?? 0, length: n.passages[p * 3 + 2] ?? 0, headingPath: n.paths[p] ?? "" });
		const kept = n.chars === undefined;
		store.loadNote(n.id, n.name, kept ? compact(n.text) : undefined, n.chars ?? n.text.length, n.mtime, passages, n.hash ?? hash(n.text));
		docs += passages.length;
	}
	saved.terms.forEach((term, i) => {
		if (typeof term !== "string") throw new Error("NoteIndex.fromJSON: a saved term is not text; rebuild the index");
		const values = decodePostings(saved.postings[i] ?? "", docs);
		if (!values) throw new Error(`NoteIndex.fromJSON: the postings of "${term}" are damaged or name a passage the saved index does not have; rebuild the index`);
		store.loadTerm(term, values);
	});
	drain(store.finishLoad());
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

function checkSaved(data: unknown): SavedIndex {
	const fail = (why: string): never => {
		throw new Error(`NoteIndex.fromJSON: ${why}; rebuild the index`);
	};
	if (typeof data !== "object" || data === null) return fail("not a saved note index");
	const d = data as Partial<SavedIndex>;
	if (d.format !== NOTE_INDEX_FORMAT) return fail("not a saved note index (no format name)");
	// Version 5 changed only the binary form: a JSON index of version 4 is the same.
	if (d.version !== NOTE_INDEX_VERSION && d.version !== NOTE_INDEX_OLDEST) return fail(`saved with format version ${String(d.version)}, this build reads versions ${NOTE_INDEX_OLDEST} to ${NOTE_INDEX_VERSION}`);
	if (!Array.isArray(d.terms) || !Array.isArray(d.notes) || !Array.isArray(d.postings) || d.postings.length !== d.terms.length) return fail("its terms, postings or notes are missing");
	for (const n of d.notes) {
		if (typeof n !== "object" || n === null || typeof n.id !== "string" || typeof n.name !== "string" || typeof n.text !== "string" || !Array.isArray(n.passages) || !Array.isArray(n.paths)) {
			return fail("a note in it is damaged");
		}
		if (n.mtime !== undefined && typeof n.mtime !== "number") return fail(`note "${n.id}" has a damaged mtime`);
		if ((n.chars !== undefined && (typeof n.chars !== "number" || n.text !== "")) || (n.hash !== undefined && typeof n.hash !== "number")) return fail(`note "${n.id}" is damaged`);
		const chars = n.chars ?? n.text.length;
		for (let i = 0; i < n.passages.length; i++) {
			const v = n.passages[i];
			if (typeof v !== "number" || v < 0 || (i % 3 !== 2 && v > chars)) return fail(`note "${n.id}" has a passage outside its text`);
		}
	}
	return d as SavedIndex;
}
