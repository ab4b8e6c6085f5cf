// What the vault index keeps of a note instead of its text: the ids of the terms in it (to remove
// its postings when it changes or goes), and a hash of the text it indexed (to notice a note that
// changed since, before its passages' offsets are used on the new text).
// The term ids are sorted and kept as LEB128 deltas: one or two bytes a term, against the note's
// UTF-8 text (six bytes or more a word) that the index kept before. Format 5 saves them as they are
// (noteIndexFormat.ts: a load takes each note's bytes without reading a posting); a format 4 or JSON
// load rebuilds them from the postings (noteIndexStore.ts loadTerm, finishLoad).

import { PagedList } from "./paged";

/** Sorted distinct term ids as delta varints. */
export function encodeTermIds(ids: Iterable<number>): Uint8Array {
	const sorted = (ids instanceof PagedList ? ids.toUint32Array() : Uint32Array.from(ids)).sort();
	const out = new Uint8Array(sorted.length * 5);
	let n = 0;
	let prev = -1;
	for (const id of sorted) {
		if (id === prev) continue;
		n = writeGap(out, n, id - prev - 1);
		prev = id;
	}
	return out.slice(0, n);
}

/** The ids `encodeTermIds` kept, ascending. */
export function decodeTermIds(bytes: Uint8Array): number[] {
	return [...termIdsOf(bytes)];
}

/** A 32-bit FNV-1a hash of the text's UTF-16 units (linear; to tell a changed note, not a secure digest). */
export function textHash(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

/** Characters hashed between two steps of textHashSteps. */
const HASH_STEP_CHARS = 1 << 20;

/** `textHash` in steps of HASH_STEP_CHARS characters (a 16 MB note is hashed across tasks). The same number. */
export function* textHashSteps(text: string): Generator<void, number, void> {
	let h = 0x811c9dc5;
	for (let at = 0; at < text.length; ) {
		const to = Math.min(text.length, at + HASH_STEP_CHARS);
		for (let i = at; i < to; i++) {
			h ^= text.charCodeAt(i);
			h = Math.imul(h, 0x01000193);
		}
		at = to;
		if (at < text.length) yield;
	}
	return h >>> 0;
}

/** Ids marked or written between two steps of encodeTermIdsSteps. */
export const ENCODE_STEP = 1 << 18;

/**
 * `encodeTermIds` in steps, for a note of millions of distinct terms (a sort of them in one task took
 * hundreds of milliseconds). Ids (an id may come more than once) are below `bound`; a large set is marked in a table of `bound`
 * bytes and read back in order, a step at a time (linear, no sort). The same bytes.
 */
export function* encodeTermIdsSteps(ids: Iterable<number> & { readonly size: number }, bound: number): Generator<void, Uint8Array, void> {
	if (ids.size <= ENCODE_STEP || bound > ids.size * 64) return encodeTermIds(ids);
	const marks = new Uint8Array(bound);
	let work = 0;
	for (const id of ids) {
		marks[id] = 1;
		if (++work >= ENCODE_STEP) {
			work = 0;
			yield;
		}
	}
	const out = new Uint8Array(ids.size * 5);
	let n = 0;
	let prev = -1;
	for (let at = 0; at < bound; ) {
		const to = Math.min(bound, at + ENCODE_STEP * 4);
		for (let id = at; id < to; id++) {
			if (marks[id] !== 1) continue;
			n = writeGap(out, n, id - prev - 1);
			prev = id;
		}
		at = to;
		yield;
	}
	return out.slice(0, n);
}

/**
 * Steps: whether `bytes` is a well-formed `encodeTermIds` list whose every id is below `bound`. A
 * saved index's lists come from a file a sync may have damaged: `termIdsOf` trusts its input.
 * `seen` counts ids across calls, so checking many small lists (a vault's notes) yields every `every`
 * ids too: counted per list, 10,000 notes' lists were checked in one task of about 300 ms. The bytes
 * are read by a plain loop between two yields (a generator step per id made this check half of a
 * load's time).
 */
export function* termIdsWithin(bytes: Uint8Array, bound: number, every = 65_536, seen: { ids: number } = { ids: 0 }): Generator<void, boolean, void> {
	const at = { byte: 0, prev: -1 };
	while (at.byte < bytes.length) {
		const checked = checkIds(bytes, bound, at, every - (seen.ids % every));
		if (checked < 0) return false;
		seen.ids += checked;
		if (checked > 0 && seen.ids % every === 0) yield;
	}
	return true;
}

/**
 * Checks up to `most` ids of `bytes` from `at.byte` (after id `at.prev`), moving `at` past them.
 * Returns the ids checked, or −1 for damage: an id of 2^35 or more, one at or past `bound`, or a
 * varint cut short at the end.
 */
function checkIds(bytes: Uint8Array, bound: number, at: { byte: number; prev: number }, most: number): number {
	let p = at.byte;
	let prev = at.prev;
	let ids = 0;
	const end = bytes.length;
	while (p < end && ids < most) {
		let v = 0;
		let scale = 1;
		for (;;) {
			if (p >= end || scale > 2 ** 28) return -1;
			const b = bytes[p++] as number;
			v += (b & 127) * scale;
			if (b < 128) break;
			scale *= 128;
		}
		prev += v + 1;
		if (prev >= bound) return -1;
		ids++;
	}
	at.byte = p;
	at.prev = prev;
	return ids;
}

/** The ids `encodeTermIds` kept, ascending, one at a time (a note's millions of ids are not decoded in one task). Trusts `bytes` (termIdsWithin checks a loaded list). */
export function* termIdsOf(bytes: Uint8Array): Generator<number, void, void> {
	let prev = -1;
	let v = 0;
	let shift = 0;
	for (const b of bytes) {
		v += (b & 127) * 2 ** shift;
		if (b < 128) {
			prev += v + 1;
			yield prev;
			v = 0;
			shift = 0;
		} else shift += 7;
	}
}

/** Writes one gap between sorted ids as a varint (7 bits a byte, high bit: more follows); returns the next free index. */
function writeGap(out: Uint8Array, n: number, gap: number): number {
	let v = gap;
	while (v >= 128) {
		out[n++] = (v & 127) | 128;
		v >>>= 7;
	}
	out[n++] = v;
	return n;
}
