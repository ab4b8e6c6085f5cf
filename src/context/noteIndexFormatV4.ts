// The binary form of format version 4, read only: an index saved by the previous release still
// loads (and the next save writes version 5). Its postings are decoded whole, and each note's term
// ids rebuilt from them (IndexStore.finishLoad). Layout, little-endian:
//   "DNIX"  u32 4  u32 numbers-bytes  u32 strings-bytes  [numbers] [strings] [texts]
// numbers (LEB128 varints): notes, terms, passages; per note: id and name lengths (UTF-16 units, the
// characters in strings), mtime (0 none, 1 + integer, 2 + 8-byte float), text characters, text hash,
// text bytes (in texts), passages; per passage: start − previous end, end − start, terms in it,
// heading path length + 1 (0: the previous passage's path); per term: its length, its postings,
// then per posting: passage number − previous one, term frequency.
import { ByteReader, readNote } from "./binaryCodec";
import { TF_SLOTS } from "./lazyPostings";
import type { IndexStore } from "./noteIndexFormat";
import type { Steps } from "./steps";

/** Postings (and terms, counted 16 each) read between two steps. */
const STEP_POSTINGS = 16_000;
const HEADER = 16;

export function* decodeBinaryV4(bytes: Uint8Array, store: IndexStore, fail: (why: string) => never): Steps<void> {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const numsEnd = HEADER + view.getUint32(8, true);
	const stringsEnd = numsEnd + view.getUint32(12, true);
	if (stringsEnd > bytes.length) fail("it is cut short");
	const r = new ByteReader(bytes, HEADER, numsEnd, stringsEnd, fail);
	const texts = { at: stringsEnd };
	const noteCount = r.int();
	const termCount = r.int();
	const passageCount = r.int();
	let passagesSeen = 0;
	yield;
	for (let i = 0; i < noteCount; i++) {
		const note = readNote(r, view, texts, fail);
		passagesSeen += note.passages.length;
		store.loadNote(note.id, note.name, note.body, note.chars, note.mtime, note.passages, note.hash);
		yield;
	}
	if (passagesSeen !== passageCount) fail("its passage count is damaged");
	let work = 0;
	for (let i = 0; i < termCount; i++) {
		const term = r.str(r.int());
		const n = r.int();
		// Each posting takes at least two numbers: a count beyond what is left is damage, never an array to make.
		if (n * 2 > r.numsEnd - r.p) fail(`the postings of "${term}" are damaged`);
		const postings = new Uint32Array(n);
		let doc = 0;
		for (let k = 0; k < n; k++) {
			doc += r.int();
			const tf = r.int();
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
