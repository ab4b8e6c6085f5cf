// A saved index's posting lists as they are in the file (format 5, noteIndexFormat.ts), decoded only
// when a query first reads one (or a change must go in its middle: postingPool.ts). Loading 100,000
// notes then reads no posting at all: a vault has tens of millions of them, and decoding them all
// took most of a load's seconds. A query decodes only its own terms' lists; a re-index adds past
// their end and skips a removed note's saved postings; a save reads the lists without keeping them (`peek`).
// Layout of one list: per posting, one varint of (passage − previous passage) × 2 + (tf > 1), then
// the tf as a varint when it is over 1 (most postings have tf 1: one byte saved each).

/** Term frequency is kept up to this (more adds nothing to BM25's saturated score). */
export const TF_SLOTS = 1024;

/** The saved lists' bytes and the passage count they must stay under. */
export interface PostingSource {
	readonly bytes: Uint8Array;
	readonly passages: number;
}

/**
 * Decodes `count` postings from bytes [at, end), leaving out those of passages marked in `skip`
 * (retired: postingPool.ts). A damaged list (a passage past the saved ones, a tf out of range, bytes
 * cut short, not ascending) keeps its entries up to the damage: a query then misses a few passages,
 * never throws (the load reads no posting, so it cannot check them first).
 */
export function readPostings(source: PostingSource, at: number, end: number, count: number, skip?: Uint8Array): Uint32Array {
	const bytes = source.bytes;
	const passages = source.passages;
	const out = new Uint32Array(count);
	let p = at;
	let doc = 0;
	let k = 0;
	// One loop, the varints read inline, a one-byte varint (most heads: the gaps are small) first.
	for (let i = 0; i < count; i++) {
		if (p >= end) break;
		let b = bytes[p++] as number;
		let head = b;
		if (b >= 128) {
			head = readMore(bytes, p - 1, end);
			if (head < 0) break;
			p = varintEnd;
		}
		const step = head < 2 ** 31 ? head >>> 1 : Math.floor(head / 2);
		if (i > 0 && step === 0) break;
		doc += step;
		let tf = 1;
		if ((head < 2 ** 31 ? head & 1 : head % 2) === 1) {
			if (p >= end) break;
			b = bytes[p++] as number;
			tf = b;
			if (b >= 128) {
				tf = readMore(bytes, p - 1, end);
				if (tf < 0) break;
				p = varintEnd;
			}
			if (tf === 1) break;
		}
		if (doc >= passages || tf >= TF_SLOTS) break;
		if (skip === undefined || skip[doc] !== 1) out[k++] = doc * TF_SLOTS + tf;
	}
	return k === count ? out : out.subarray(0, k);
}

/** The passage of the last of `count` postings at bytes [at, end) (−1 when there are none): a scan of their varints, nothing decoded into an array. */
export function lastPassage(bytes: Uint8Array, at: number, end: number, count: number): number {
	let doc = -1;
	let p = at;
	for (let i = 0; i < count && p < end; i++) {
		let head = bytes[p++] as number;
		if (head >= 128) {
			head = readMore(bytes, p - 1, end);
			if (head < 0) break;
			p = varintEnd;
		}
		doc = (i === 0 ? 0 : doc) + Math.floor(head / 2);
		if (head % 2 === 1) {
			while (p < end && (bytes[p] as number) >= 128) p++;
			p++;
		}
	}
	return doc;
}

/** Where the varint read last by readMore ended. */
let varintEnd = 0;

/** The varint of two bytes or more at `p` (at most six: 2^42 and over is damage), −1 when cut short or too long; sets varintEnd. */
function readMore(bytes: Uint8Array, p: number, end: number): number {
	let v = 0;
	let scale = 1;
	for (;;) {
		if (p >= end || scale > 2 ** 35) return -1;
		const b = bytes[p++] as number;
		v += (b & 127) * scale;
		if (b < 128) {
			varintEnd = p;
			return v;
		}
		scale *= 128;
	}
}
