// What the vault index keeps of a note instead of its text: the ids of the terms in it (to remove
// its postings when it changes or goes), and a hash of the text it indexed (to notice a note that
// changed since, before its passages' offsets are used on the new text).
// The term ids are sorted and kept as LEB128 deltas: one or two bytes a term, against the note's
// UTF-8 text (six bytes or more a word) that the index kept before. A loaded index does not save
// them: they are rebuilt from the postings (NoteIndex.loadTerm).

/** Sorted distinct term ids as delta varints. */
export function encodeTermIds(ids: Iterable<number>): Uint8Array {
	const sorted = Uint32Array.from(ids).sort();
	const out = new Uint8Array(sorted.length * 5);
	let n = 0;
	let prev = -1;
	for (const id of sorted) {
		if (id === prev) continue;
		let v = id - prev - 1;
		prev = id;
		while (v >= 128) {
			out[n++] = (v & 127) | 128;
			v >>>= 7;
		}
		out[n++] = v;
	}
	return out.slice(0, n);
}

/** The ids `encodeTermIds` kept, ascending. */
export function decodeTermIds(bytes: Uint8Array): number[] {
	const out: number[] = [];
	let prev = -1;
	let v = 0;
	let shift = 0;
	for (const b of bytes) {
		v += (b & 127) * 2 ** shift;
		if (b < 128) {
			prev += v + 1;
			out.push(prev);
			v = 0;
			shift = 0;
		} else shift += 7;
	}
	return out;
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
