// The byte-level pieces of the vault index's binary form (noteIndexFormat.ts): chunked writers that
// never copy a growing buffer whole, and a reader of LEB128 varints and UTF-8 strings that decodes
// the strings a chunk at a time (one decode of a 100,000-note index's strings was a long task).

import type { SavedPassage } from "./noteIndexFormat";


const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A chunk of the writers' output. */
export const CHUNK_BYTES = 1 << 18;

/** Bytes written in chunks (no growing buffer copied whole: a task stays short at any index size). */
export class ByteWriter {
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
		if (this.n > 0) {
			this.chunks.push(this.bytes.subarray(0, this.n));
			this.filled += this.n;
		}
		this.bytes = new Uint8Array(Math.max(CHUNK_BYTES, k));
		this.n = 0;
	}
	/** Appends bytes already encoded (kept as they are, not copied). */
	push(chunk: Uint8Array): void {
		if (chunk.length === 0) return;
		if (this.n > 0) {
			this.chunks.push(this.bytes.subarray(0, this.n));
			this.filled += this.n;
			this.bytes = this.bytes.subarray(this.n);
			this.n = 0;
		}
		this.chunks.push(chunk);
		this.filled += chunk.length;
	}
	/** Appends a copy of `bytes` (a long run is kept as it is, like `push`: a view the caller must not change). */
	copy(bytes: Uint8Array): void {
		if (bytes.length > CHUNK_BYTES / 4) {
			this.push(bytes);
			return;
		}
		this.room(bytes.length);
		this.bytes.set(bytes, this.n);
		this.n += bytes.length;
	}
	/** Appends a copy of bytes [from, to) of `source`: a short run byte by byte (no view made per run). */
	copyRange(source: Uint8Array, from: number, to: number): void {
		const n = to - from;
		if (n > 64) {
			this.copy(source.subarray(from, to));
			return;
		}
		this.room(n);
		const bytes = this.bytes;
		let w = this.n;
		for (let i = from; i < to; i++) bytes[w++] = source[i] as number;
		this.n = w;
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
	/**
	 * A posting list (passage × TF_SLOTS + tf, ascending) in the saved layout (lazyPostings.ts, read
	 * back by readPostings), its varints written inline: a save or a compaction of the vault index
	 * writes tens of millions. `prev`: the passage written last before them.
	 */
	postings(values: ArrayLike<number>, prev = 0): void {
		let bytes = this.bytes;
		let n = this.n;
		for (let i = 0; i < values.length; i++) {
			const v = values[i] as number;
			// Below 2^32 (passages × TF_SLOTS, 1024, in a Uint32Array): the shifts are exact.
			const doc = v >>> 10;
			const tf = v & 1023;
			if (n + 8 > bytes.length) {
				this.n = n;
				this.room(8);
				bytes = this.bytes;
				n = this.n;
			}
			let head = (doc - prev) * 2 + (tf !== 1 ? 1 : 0);
			while (head >= 128) {
				bytes[n++] = (head & 127) | 128;
				head >>>= 7;
			}
			bytes[n++] = head;
			if (tf !== 1) {
				if (tf >= 128) {
					bytes[n++] = (tf & 127) | 128;
					bytes[n++] = tf >>> 7;
				} else bytes[n++] = tf;
			}
			prev = doc;
		}
		this.n = n;
	}
	float(v: number): void {
		this.room(8);
		new DataView(this.bytes.buffer, this.bytes.byteOffset).setFloat64(this.n, v, true);
		this.n += 8;
	}
}

/** Strings UTF-8-encoded a batch at a time as they come (one encode of them all is a long task at 100,000 notes). */
export class StringWriter {
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

/** UTF-8 bytes decoded between two steps of a StringReader. */
const DECODE_BYTES = 1 << 20;

/**
 * Reads varints from bytes [from, numsEnd) and strings (lengths in UTF-16 units) from the UTF-8
 * bytes [numsEnd, stringsEnd), decoding those DECODE_BYTES at a time. `fail` throws.
 */
export class ByteReader {
	p: number;
	private text = "";
	private s = 0;
	private next: number;
	constructor(
		readonly bytes: Uint8Array,
		from: number,
		readonly numsEnd: number,
		private readonly stringsEnd: number,
		private readonly fail: (why: string) => never,
	) {
		this.p = from;
		this.next = numsEnd;
	}

	int(): number {
		const bytes = this.bytes;
		let v = 0;
		let scale = 1;
		for (;;) {
			if (this.p >= this.numsEnd) return this.fail("its numbers are cut short");
			const b = bytes[this.p++] ?? 0;
			v += (b & 127) * scale;
			if (b < 128) return v;
			scale *= 128;
			if (scale > 2 ** 56) return this.fail("a number in it is damaged");
		}
	}

	str(n: number): string {
		while (this.s + n > this.text.length) {
			if (this.next >= this.stringsEnd) return this.fail("its strings are cut short");
			// A chunk ends before a UTF-8 continuation byte, never inside a character.
			let to = Math.min(this.stringsEnd, this.next + DECODE_BYTES);
			while (to < this.stringsEnd && ((this.bytes[to] ?? 0) & 0xc0) === 0x80) to++;
			this.text = this.text.slice(this.s) + decoder.decode(this.bytes.subarray(this.next, to));
			this.s = 0;
			this.next = to;
		}
		const out = this.text.slice(this.s, this.s + n);
		this.s += n;
		return out;
	}

	/** Whether every string byte was read. */
	get stringsDone(): boolean {
		return this.next >= this.stringsEnd && this.s === this.text.length;
	}
}

/** A saved note as both binary versions write it (noteIndexFormat.ts). */
export interface ReadNote {
	id: string;
	name: string;
	body: string | Uint8Array | undefined;
	chars: number;
	mtime: number | undefined;
	hash: number;
	passages: SavedPassage[];
}

/** Reads one note's numbers and strings, and its text from `texts.at` on (moved past it). */
export function readNote(r: ByteReader, view: DataView, texts: { at: number }, fail: (why: string) => never): ReadNote {
	const bytes = r.bytes;
	const id = r.str(r.int());
	const name = r.str(r.int());
	const flag = r.int();
	let mtime: number | undefined;
	if (flag === 1) mtime = r.int();
	else if (flag === 2) {
		if (r.p + 8 > r.numsEnd) fail("its numbers are cut short");
		mtime = view.getFloat64(r.p, true);
		r.p += 8;
	} else if (flag !== 0) fail(`note "${id}" has a damaged mtime`);
	const chars = r.int();
	const hash = r.int();
	const size = r.int();
	if (texts.at + size > bytes.length) fail(`the text of note "${id}" is cut short`);
	const raw = bytes.subarray(texts.at, texts.at + size);
	texts.at += size;
	// As kept in memory (noteText.ts): mostly-CJK texts as strings, the rest as UTF-8.
	// No bytes for a non-empty text: the index kept no texts.
	const body = size === 0 && chars > 0 ? undefined : size >= 2 * chars ? decoder.decode(raw) : raw.slice();
	const passages: SavedPassage[] = [];
	const count = r.int();
	let end = 0;
	let path = "";
	for (let k = 0; k < count; k++) {
		const start = end + r.int();
		end = start + r.int();
		const length = r.int();
		const pathLength = r.int();
		if (pathLength > 0) path = r.str(pathLength - 1);
		if (end > chars) fail(`note "${id}" has a passage outside its text`);
		passages.push({ start, end, length, headingPath: path });
	}
	return { id, name, body, chars, mtime, hash, passages };
}
