// A saved index's posting lists as they are in the file (format 5, noteIndexFormat.ts), decoded only
// when something first reads or changes one. Loading 100,000 notes then reads no posting at all: a
// vault has tens of millions of them, and decoding them all took most of a load's seconds. A query
// decodes only its own terms' lists; a save reads the others without keeping them (`peek`).
// Layout of one list: per posting, one varint of (passage − previous passage) × 2 + (tf > 1), then
// the tf as a varint when it is over 1 (most postings have tf 1: one byte saved each).

/** Term frequency is kept up to this (more adds nothing to BM25's saturated score). */
export const TF_SLOTS = 1024;

/** The saved lists' bytes and the passage count they must stay under. */
export interface PostingSource {
	readonly bytes: Uint8Array;
	readonly passages: number;
}

/** Writes a list (passage × TF_SLOTS + tf, ascending) in the saved layout through `varint`. */
export function writePostings(values: ArrayLike<number>, varint: (v: number) => void): void {
	let prev = 0;
	for (let i = 0; i < values.length; i++) {
		const v = values[i] ?? 0;
		const doc = Math.floor(v / TF_SLOTS);
		const tf = v % TF_SLOTS;
		varint((doc - prev) * 2 + (tf !== 1 ? 1 : 0));
		if (tf !== 1) varint(tf);
		prev = doc;
	}
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
	// One loop, the varints read inline (a closure per varint was most of a decode's time).
	for (let i = 0; i < count; i++) {
		let head = 0;
		let scale = 1;
		let b = 128;
		while (b >= 128 && p < end && scale <= 2 ** 35) {
			b = bytes[p++] as number;
			head += (b & 127) * scale;
			scale *= 128;
		}
		if (b >= 128) break;
		const step = Math.floor(head / 2);
		if (i > 0 && step === 0) break;
		doc += step;
		let tf = 1;
		if (head % 2 === 1) {
			tf = 0;
			scale = 1;
			b = 128;
			while (b >= 128 && p < end && scale <= 2 ** 35) {
				b = bytes[p++] as number;
				tf += (b & 127) * scale;
				scale *= 128;
			}
			if (b >= 128 || tf === 1) break;
		}
		if (doc >= passages || tf >= TF_SLOTS) break;
		if (skip === undefined || skip[doc] !== 1) out[k++] = doc * TF_SLOTS + tf;
	}
	return k === count ? out : out.subarray(0, k);
}
