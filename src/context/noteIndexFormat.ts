// The vault index's saved forms. Both carry the format name, a version and each note's mtime, so a
// restart loads the index and re-indexes only the notes changed since.
// - Binary (`encodeBinary`/`decodeBinary`, for `adapter.writeBinary`/`readBinary`): the fast one.
//   Loading decodes no posting: each term's list stays in the loaded bytes until a query first reads
//   it (lazyPostings.ts; a re-index mostly leaves it there), and each note's term ids are the saved bytes themselves.
//   Layout of version 5, little-endian:
//     "DNIX"  u32 5  u32 numbers-bytes  u32 strings-bytes  u32 term-id-bytes  u32 posting-bytes
//     u32 0  u32 0 (reserved)
//     [numbers] [strings] [term ids] [postings] [texts]
//   numbers (unsigned LEB128 varints): notes, passages; per note: id and name lengths (in UTF-16
//   units, their characters in strings), mtime (0 none, 1 + integer, or 2 + 8-byte float), text
//   characters, text hash, text bytes (in texts), passages; per passage: start − previous end,
//   end − start, terms in it, heading path length + 1 (0: the previous passage's path); then the
//   note's term-id bytes. Then terms; per term: its length, its postings, their bytes.
//   term ids: per note, the numbers of its terms (a term's number is its place in the saved order),
//   ascending, as delta varints (noteTerms.ts): on load they are the note's term ids as they are.
//   postings: per term, its list (lazyPostings.ts), passages numbered in note order.
//   Version 4 (noteIndexFormatV4.ts) still loads.
// - JSON (`toJSON`/`fromJSON`, the API): the same content as plain data, postings as
//   base-36 deltas. JSON.parse of the text makes it several times slower to load.
// Both are written and read as steps (steps.ts), so the app can spread them over slices.
import { ByteReader, ByteWriter, readNote, StringWriter } from "./binaryCodec";
import { TF_SLOTS, type PostingSource } from "./lazyPostings";
import { decodeBinaryV4 } from "./noteIndexFormatV4";
import { termIdsOf, termIdsWithin } from "./noteTerms";
import type { Steps } from "./steps";

export { TF_SLOTS };

export const NOTE_INDEX_FORMAT = "discover-note-index";
/**
 * Version 5: postings decoded on first use and each note's term ids saved (version 4: each note's
 * text hash, and its text only when the index keeps texts; 3: a note's folders are terms of its
 * passages; 2: prefix terms and the binary form). Version 4 loads; older ones are rebuilt.
 */
export const NOTE_INDEX_VERSION = 5;
/** The oldest version still read. */
export const NOTE_INDEX_OLDEST = 4;

const MAGIC = [0x44, 0x4e, 0x49, 0x58];
/** Postings (and terms, counted 16 each) written between two steps: a few milliseconds (50,000 made 30-60 ms steps on a loaded 2-core machine). */
const STEP_POSTINGS = 16_000;
/** Terms read between two steps. */
const STEP_TERMS = 4_000;
const HEADER = 32;

export interface IndexedNote {
	id: string;
	name: string;
	/** The text, or its UTF-8 bytes when smaller (noteText.ts); undefined when the index keeps no texts. */
	body: string | Uint8Array | undefined;
	/** The indexed text's length in UTF-16 units. */
	chars: number;
	/** textHash of the indexed text (noteTerms.ts). */
	hash: number;
	mtime: number | undefined;
	docs: number[];
}

export interface SavedPassage {
	start: number;
	end: number;
	/** Terms in the passage (BM25's document length). */
	length: number;
	headingPath: string;
}

/** What the saved forms read from and write to (NoteIndex). */
export interface IndexStore {
	readonly version: number;
	readonly passageSlots: number;
	readonly size: number;
	readonly termCount: number;
	/** Every term id is below this. */
	readonly termSlots: number;
	savedNotes(): Iterable<IndexedNote>;
	savedPassages(note: IndexedNote): SavedPassage[];
	/** Every live term with its postings and id, in id order. */
	savedTerms(): Iterable<[string, Uint32Array, number]>;
	/** A live note's term ids, ascending, as delta varints (noteTerms.ts). */
	savedTermIds(note: IndexedNote): Uint8Array;
	loadNote(id: string, name: string, body: string | Uint8Array | undefined, chars: number, mtime: number | undefined, passages: readonly SavedPassage[], hash: number, termIds?: Uint8Array): void;
	loadTerm(term: string, postings: ArrayLike<number>): void;
	/** Adds a saved term whose postings stay in the source's bytes [at, at + bytes) until used; returns its id (−1: it was there already). */
	loadSavedTerm(term: string, count: number, at: number, bytes: number): number;
	/** Before the first loadSavedTerm: where their postings are, and how many terms come. */
	startSavedTerms(source: PostingSource, terms: number): void;
	/** After the last loadTerm: what is derived from the postings (each note's term ids). */
	finishLoad(): Steps<void>;
}

/** Passage ids numbered in note order (a saved index's passage numbers), −1 for free ids. */
function numberPassages(store: IndexStore): { number: Int32Array; count: number } {
	const number = new Int32Array(store.passageSlots).fill(-1);
	let count = 0;
	for (const note of store.savedNotes()) for (const doc of note.docs) number[doc] = count++;
	return { number, count };
}

/** A term's postings renumbered and sorted: passage number × TF_SLOTS + tf, ascending. */
function renumbered(postings: Uint32Array, number: Int32Array): Uint32Array {
	const out = new Uint32Array(postings.length);
	for (let i = 0; i < postings.length; i++) {
		const v = postings[i] ?? 0;
		out[i] = (number[Math.floor(v / TF_SLOTS)] ?? 0) * TF_SLOTS + (v % TF_SLOTS);
	}
	return out.sort();
}

/** Bytes copied between two steps of the final assembly. */
const COPY_BYTES = 4 << 20;

/**
 * The binary form, as steps. Returns undefined if the index changed between two steps (the caller
 * starts again); run to its end in one task it always returns the bytes.
 */
export function* encodeBinary(store: IndexStore): Steps<Uint8Array | undefined> {
	const at = store.version;
	const { number, count } = numberPassages(store);
	yield;
	if (store.version !== at) return undefined;
	// Terms first: their saved numbers (rank) are what the notes' term ids are written in.
	const termNums = new ByteWriter();
	const termStrings = new StringWriter();
	const postings = new ByteWriter();
	const rank = new Int32Array(store.termSlots).fill(-1);
	let terms = 0;
	let identity = true;
	let work = 0;
	for (const [term, list, id] of store.savedTerms()) {
		if (id !== terms) identity = false;
		rank[id] = terms++;
		termStrings.push(term);
		termNums.varint(term.length);
		termNums.varint(list.length);
		const before = postings.length;
		postings.postings(renumbered(list, number));
		termNums.varint(postings.length - before);
		work += 16 + list.length;
		if (work >= STEP_POSTINGS) {
			work = 0;
			yield;
			if (store.version !== at) return undefined;
		}
	}
	termStrings.flush();
	const nums = new ByteWriter();
	const strings = new StringWriter();
	const termIds = new ByteWriter();
	const texts: Uint8Array[] = [];
	let textBytes = 0;
	nums.varint(store.size);
	nums.varint(count);
	const encoder = new TextEncoder();
	work = 0;
	for (const note of store.savedNotes()) {
		const text = note.body === undefined ? new Uint8Array(0) : typeof note.body === "string" ? encoder.encode(note.body) : note.body;
		strings.push(note.id, note.name);
		nums.varint(note.id.length);
		nums.varint(note.name.length);
		const m = note.mtime;
		if (m === undefined) nums.varint(0);
		else if (Number.isSafeInteger(m) && m >= 0 && !Object.is(m, -0)) {
			nums.varint(1);
			nums.varint(m);
		} else {
			nums.varint(2);
			nums.float(m);
		}
		nums.varint(note.chars);
		nums.varint(note.hash);
		nums.varint(text.length);
		texts.push(text);
		textBytes += text.length;
		const passages = store.savedPassages(note);
		nums.varint(passages.length);
		let end = 0;
		let path: string | undefined;
		for (const p of passages) {
			nums.varint(p.start - end);
			nums.varint(p.end - p.start);
			nums.varint(p.length);
			if (p.headingPath === path) nums.varint(0);
			else {
				nums.varint(p.headingPath.length + 1);
				strings.push(p.headingPath);
				path = p.headingPath;
			}
			end = p.end;
		}
		const ids = store.savedTermIds(note);
		const before = termIds.length;
		if (identity) termIds.push(ids);
		else {
			// Renumbered in saved order (ascending ids keep ascending numbers); rank −1 cannot be a live note's term.
			let prev = -1;
			for (const id of termIdsOf(ids)) {
				const r = rank[id] ?? -1;
				if (r <= prev) continue;
				termIds.varint(r - prev - 1);
				prev = r;
			}
		}
		nums.varint(termIds.length - before);
		work += 64 + ids.length;
		if (work >= STEP_POSTINGS) {
			work = 0;
			yield;
			if (store.version !== at) return undefined;
		}
	}
	nums.varint(terms);
	strings.flush();
	yield;
	if (store.version !== at) return undefined;
	const numBytes = nums.length + termNums.length;
	const stringBytes = strings.out.length + termStrings.out.length;
	const out = new Uint8Array(HEADER + numBytes + stringBytes + termIds.length + postings.length + textBytes);
	out.set(MAGIC, 0);
	const view = new DataView(out.buffer);
	view.setUint32(4, NOTE_INDEX_VERSION, true);
	view.setUint32(8, numBytes, true);
	view.setUint32(12, stringBytes, true);
	view.setUint32(16, termIds.length, true);
	view.setUint32(20, postings.length, true);
	let o = HEADER;
	let copied = 0;
	for (const chunk of [...nums.all(), ...termNums.all(), ...strings.out.all(), ...termStrings.out.all(), ...termIds.all(), ...postings.all(), ...texts]) {
		out.set(chunk, o);
		o += chunk.length;
		copied += chunk.length + 64;
		if (copied >= COPY_BYTES) {
			copied = 0;
			yield;
		}
	}
	return out;
}

/** Reads the binary form into `store` (an empty index), as steps. Throws an Error saying what is wrong. */
export function* decodeBinary(data: ArrayBuffer | Uint8Array, store: IndexStore): Steps<void> {
	const fail = (why: string): never => {
		throw new Error(`NoteIndex.fromBinary: ${why}; rebuild the index`);
	};
	const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
	if (bytes.length < 16 || MAGIC.some((b, i) => bytes[i] !== b)) fail("not a saved note index");
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const version = view.getUint32(4, true);
	if (version === 4) return yield* decodeBinaryV4(bytes, store, fail);
	if (version !== NOTE_INDEX_VERSION) fail(`saved with format version ${version}, this build reads versions ${NOTE_INDEX_OLDEST} to ${NOTE_INDEX_VERSION}`);
	if (bytes.length < HEADER) fail("it is cut short");
	const numsEnd = HEADER + view.getUint32(8, true);
	const stringsEnd = numsEnd + view.getUint32(12, true);
	const termIdsEnd = stringsEnd + view.getUint32(16, true);
	const postingsEnd = termIdsEnd + view.getUint32(20, true);
	if (postingsEnd > bytes.length) fail("it is cut short");
	const r = new ByteReader(bytes, HEADER, numsEnd, stringsEnd, fail);
	const texts = { at: postingsEnd };
	const noteCount = r.int();
	const passageCount = r.int();
	let passagesSeen = 0;
	let ids = stringsEnd;
	// The notes' term ids, copied out once: a view of the whole file would keep every byte of it
	// (postings and strings too) for as long as one note goes unchanged.
	const termIds = bytes.slice(stringsEnd, termIdsEnd);
	const lists: { id: string; ids: Uint8Array }[] = [];
	yield;
	for (let i = 0; i < noteCount; i++) {
		const note = readNote(r, view, texts, fail);
		passagesSeen += note.passages.length;
		const size = r.int();
		if (ids + size > termIdsEnd) fail(`the term ids of note "${note.id}" are cut short`);
		// Never changed in place (a change to the note replaces it).
		const list = termIds.subarray(ids - stringsEnd, ids - stringsEnd + size);
		store.loadNote(note.id, note.name, note.body, note.chars, note.mtime, note.passages, note.hash, list);
		lists.push({ id: note.id, ids: list });
		ids += size;
		yield;
	}
	if (passagesSeen !== passageCount) fail("its passage count is damaged");
	const termCount = r.int();
	// Each term takes at least three numbers: a count beyond what is left is damage, never a table to make.
	if (termCount * 3 > numsEnd - r.p) fail("its term count is damaged");
	// A note's ids name the terms it removes on a change: malformed or unknown ids would alias other terms.
	const seen = { ids: 0 };
	for (const list of lists) if (!(yield* termIdsWithin(list.ids, termCount, undefined, seen))) fail(`the term ids of note "${list.id}" are damaged`);
	store.startSavedTerms({ bytes, passages: passageCount }, termCount);
	let at = termIdsEnd;
	for (let i = 0; i < termCount; i++) {
		const term = r.str(r.int());
		const count = r.int();
		const size = r.int();
		if (at + size > postingsEnd || size < count) fail(`the postings of "${term}" are cut short`);
		if (store.loadSavedTerm(term, count, at, size) !== i) fail(`the term "${term}" is saved twice`);
		at += size;
		if (i % STEP_TERMS === STEP_TERMS - 1) yield;
	}
	if (!r.stringsDone || r.p !== numsEnd) fail("it has bytes no note or term accounts for");
}
