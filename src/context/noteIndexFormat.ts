// The vault index's saved forms. Both carry the format name, a version and each note's mtime, so a
// restart loads the index and re-indexes only the notes changed since.
// - Binary (`toBinary`/`fromBinary`, for `adapter.writeBinary`/`readBinary`): the fast one. Loading
//   copies each note's UTF-8 bytes as they are and decodes the postings from varints; nothing is
//   re-analyzed. Layout, little-endian:
//     "DNIX"  u32 version  u32 numbers-bytes  u32 strings-bytes  [numbers] [strings] [texts]
//   numbers (unsigned LEB128 varints): notes, terms, passages; per note: id and name lengths (in
//   UTF-16 units, their characters in strings), mtime (0 none, 1 + integer, or 2 + 8-byte float),
//   text characters, text bytes (in texts), passages; per passage: start − previous end, end − start,
//   terms in it, heading path length + 1 (0: the previous passage's path); per term: its length,
//   its postings, then per posting: passage number − previous one, term frequency.
// - JSON (`toJSON`/`fromJSON`, the API): the same content as plain data, postings as
//   base-36 deltas. JSON.parse of the text makes it several times slower to load.
// Both are written and read as steps (steps.ts), so the app can spread them over slices.
import type { Steps } from "./steps";

export const NOTE_INDEX_FORMAT = "discover-note-index";
/**
 * Version 4: each note's text hash, and its text only when the index keeps texts (version 3: a
 * note's folders are terms of its passages; 2: prefix terms and the binary form). An index saved
 * by another version is rebuilt.
 */
export const NOTE_INDEX_VERSION = 4;
/** Term frequency is kept up to this (more adds nothing to BM25's saturated score). */
export const TF_SLOTS = 1024;

const MAGIC = [0x44, 0x4e, 0x49, 0x58];
/** Postings (and terms, counted 16 each) written or read between two steps: a few milliseconds (50,000 made 30-60 ms steps on a loaded 2-core machine). */
const STEP_POSTINGS = 16_000;
const HEADER = 16;

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
	savedNotes(): Iterable<IndexedNote>;
	savedPassages(note: IndexedNote): SavedPassage[];
	savedTerms(): Iterable<[string, Uint32Array]>;
	loadNote(id: string, name: string, body: string | Uint8Array | undefined, chars: number, mtime: number | undefined, passages: readonly SavedPassage[], hash: number): void;
	loadTerm(term: string, postings: ArrayLike<number>): void;
	/** After the last loadTerm: what is derived from the postings (each note's term ids). */
	finishLoad(): Steps<void>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

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

/** Bytes written in chunks (no growing buffer copied whole: a task stays short at any index size). */
class ByteWriter {
	readonly chunks: Uint8Array[] = [];
	bytes = new Uint8Array(CHUNK_BYTES);
	n = 0;
	private filled = 0;
	/** Bytes written. */
	get length(): number {
		return this.filled + this.n;
	}
	private room(k: number): void {
		if (this.n + k <= this.bytes.length) return;
		this.push(this.bytes.subarray(0, this.n));
		this.bytes = new Uint8Array(Math.max(CHUNK_BYTES, k));
		this.n = 0;
	}
	/** Appends bytes already encoded (kept as they are, not copied). */
	push(chunk: Uint8Array): void {
		if (chunk.length === 0) return;
		this.chunks.push(chunk);
		this.filled += chunk.length;
	}
	/** Every chunk in order, the open one included. */
	all(): Uint8Array[] {
		return this.n > 0 ? [...this.chunks, this.bytes.subarray(0, this.n)] : this.chunks;
	}
	varint(v: number): void {
		this.room(8);
		while (v >= 128) {
			this.bytes[this.n++] = (v % 128) | 128;
			v = Math.floor(v / 128);
		}
		this.bytes[this.n++] = v;
	}
	float(v: number): void {
		this.room(8);
		new DataView(this.bytes.buffer, this.bytes.byteOffset).setFloat64(this.n, v, true);
		this.n += 8;
	}
}

/** Strings UTF-8-encoded a batch at a time as they come (one encode of them all is a long task at 100,000 notes). */
class StringWriter {
	readonly out = new ByteWriter();
	private pending: string[] = [];
	private chars = 0;
	push(...strings: string[]): void {
		for (const s of strings) {
			this.pending.push(s);
			this.chars += s.length;
		}
		if (this.chars >= CHUNK_BYTES) this.flush();
	}
	flush(): void {
		if (this.pending.length > 0) this.out.push(encoder.encode(this.pending.join("")));
		this.pending = [];
		this.chars = 0;
	}
}

/** A chunk of the writers' output, and bytes copied between two steps of the final assembly. */
const CHUNK_BYTES = 1 << 18;
const COPY_BYTES = 4 << 20;

/**
 * The binary form, as steps. Returns undefined if the index changed between two steps (the caller
 * starts again); run to its end in one task it always returns the bytes.
 */
export function* encodeBinary(store: IndexStore): Steps<Uint8Array | undefined> {
	const at = store.version;
	const { number, count } = numberPassages(store);
	const nums = new ByteWriter();
	const strings = new StringWriter();
	const texts: Uint8Array[] = [];
	let textBytes = 0;
	nums.varint(store.size);
	nums.varint(store.termCount);
	nums.varint(count);
	yield;
	if (store.version !== at) return undefined;
	for (const note of store.savedNotes()) {
		const text = note.body === undefined ? new Uint8Array(0) : typeof note.body === "string" ? encoder.encode(note.body) : note.body;
		const chars = note.chars;
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
		nums.varint(chars);
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
		yield;
		if (store.version !== at) return undefined;
	}
	let work = 0;
	for (const [term, postings] of store.savedTerms()) {
		strings.push(term);
		nums.varint(term.length);
		nums.varint(postings.length);
		let prev = 0;
		for (const v of renumbered(postings, number)) {
			const doc = Math.floor(v / TF_SLOTS);
			nums.varint(doc - prev);
			nums.varint(v % TF_SLOTS);
			prev = doc;
		}
		work += 16 + postings.length;
		if (work >= STEP_POSTINGS) {
			work = 0;
			yield;
			if (store.version !== at) return undefined;
		}
	}
	strings.flush();
	yield;
	if (store.version !== at) return undefined;
	const stringBytes = strings.out.length;
	const out = new Uint8Array(HEADER + nums.length + stringBytes + textBytes);
	out.set(MAGIC, 0);
	const view = new DataView(out.buffer);
	view.setUint32(4, NOTE_INDEX_VERSION, true);
	view.setUint32(8, nums.length, true);
	view.setUint32(12, stringBytes, true);
	let o = HEADER;
	let copied = 0;
	for (const chunk of [...nums.all(), ...strings.out.all(), ...texts]) {
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

const fail = (why: string): never => {
	throw new Error(`NoteIndex.fromBinary: ${why}; rebuild the index`);
};

/** Reads the binary form into `store` (an empty index), as steps. Throws an Error saying what is wrong. */
export function* decodeBinary(data: ArrayBuffer | Uint8Array, store: IndexStore): Steps<void> {
	const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
	if (bytes.length < HEADER || MAGIC.some((b, i) => bytes[i] !== b)) fail("not a saved note index");
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const version = view.getUint32(4, true);
	if (version !== NOTE_INDEX_VERSION) fail(`saved with format version ${version}, this build reads version ${NOTE_INDEX_VERSION}`);
	const numsEnd = HEADER + view.getUint32(8, true);
	const stringsEnd = numsEnd + view.getUint32(12, true);
	if (stringsEnd > bytes.length) fail("it is cut short");
	const strings = decoder.decode(bytes.subarray(numsEnd, stringsEnd));
	let s = 0;
	const str = (n: number): string => {
		if (s + n > strings.length) fail("its strings are cut short");
		const out = strings.slice(s, s + n);
		s += n;
		return out;
	};
	let p = HEADER;
	const int = (): number => {
		let v = 0;
		let scale = 1;
		for (;;) {
			if (p >= numsEnd) return fail("its numbers are cut short");
			const b = bytes[p++] ?? 0;
			v += (b & 127) * scale;
			if (b < 128) return v;
			scale *= 128;
			if (scale > 2 ** 56) return fail("a number in it is damaged");
		}
	};
	let t = stringsEnd;
	const noteCount = int();
	const termCount = int();
	const passageCount = int();
	let passagesSeen = 0;
	let work = 0;
	yield;
	for (let i = 0; i < noteCount; i++) {
		const id = str(int());
		const name = str(int());
		const flag = int();
		let mtime: number | undefined;
		if (flag === 1) mtime = int();
		else if (flag === 2) {
			if (p + 8 > numsEnd) fail("its numbers are cut short");
			mtime = view.getFloat64(p, true);
			p += 8;
		} else if (flag !== 0) fail(`note "${id}" has a damaged mtime`);
		const chars = int();
		const hash = int();
		const size = int();
		if (t + size > bytes.length) fail(`the text of note "${id}" is cut short`);
		const raw = bytes.subarray(t, t + size);
		t += size;
		// As kept in memory (noteText.ts): mostly-CJK texts as strings, the rest as UTF-8.
		// No bytes for a non-empty text: the index kept no texts.
		const body = size === 0 && chars > 0 ? undefined : size >= 2 * chars ? decoder.decode(raw) : raw.slice();
		const passages: SavedPassage[] = [];
		const count = int();
		let end = 0;
		let path = "";
		for (let k = 0; k < count; k++) {
			const start = end + int();
			end = start + int();
			const length = int();
			const pathLength = int();
			if (pathLength > 0) path = str(pathLength - 1);
			if (end > chars) fail(`note "${id}" has a passage outside its text`);
			passages.push({ start, end, length, headingPath: path });
		}
		passagesSeen += count;
		store.loadNote(id, name, body, chars, mtime, passages, hash);
		yield;
	}
	if (passagesSeen !== passageCount) fail("its passage count is damaged");
	for (let i = 0; i < termCount; i++) {
		const term = str(int());
		const n = int();
		const postings = new Uint32Array(n);
		let doc = 0;
		for (let k = 0; k < n; k++) {
			doc += int();
			const tf = int();
			if (doc >= passageCount || tf >= TF_SLOTS) fail(`the postings of "${term}" are damaged or name a passage the saved index does not have`);
			postings[k] = doc * TF_SLOTS + tf;
		}
		store.loadTerm(term, postings);
		work += 16 + n;
		if (work >= STEP_POSTINGS) {
			work = 0;
			yield;
		}
	}
	yield* store.finishLoad();
}
