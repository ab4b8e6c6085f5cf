// Per CJK character, the characters that follow it in the index's CJK pair terms (fuzzyTerms.ts
// corrects a mistyped character with them). Kept as chains through the pair terms' ids, not as a Set
// per character: a CJK note without punctuation brings a new pair every character or two, and a
// Set's add cost about a microsecond each (hashing a fresh one-character string), a third of the
// note's indexing time. Here adding or removing a pair writes a few typed-array entries. Pairs are
// their two UTF-16 units packed in one number (termTable.ts packPair), as the term table keeps them.
import { PagedInt32 } from "./paged";

export class CjkFollowers {
	/** Per character code, the id + 1 of its first and last pair (0: none). */
	private readonly head = new Int32Array(65536);
	private readonly tail = new Int32Array(65536);
	/** Per pair id, the next and previous pair's id + 1 with the same first character. */
	private readonly next = new PagedInt32();
	private readonly prev = new PagedInt32();

	/** `pairOf`: the packed units of a pair term's id, −1 when the id is no pair's (the term table's). */
	constructor(private readonly pairOf: (id: number) => number) {}

	/** Links the pair term of id `id` whose first character is `c` (ids in order of addition: the oldest is found first). */
	add(id: number, c: number): void {
		const last = this.tail[c] ?? 0;
		this.prev.set(id, last);
		this.next.set(id, 0);
		if (last === 0) this.head[c] = id + 1;
		else this.next.set(last - 1, id + 1);
		this.tail[c] = id + 1;
	}

	/** Unlinks the pair term of id `id` whose first character is `c` (before its id is freed). */
	remove(id: number, c: number): void {
		const n = this.next.get(id);
		const p = this.prev.get(id);
		if (p === 0) this.head[c] = n;
		else this.next.set(p - 1, n);
		if (n === 0) this.tail[c] = p;
		else this.prev.set(n - 1, p);
	}

	/** The characters after `char` in the index's pairs. */
	*of(char: string): Generator<string, void, void> {
		for (let e = this.head[char.charCodeAt(0)] ?? 0; e !== 0; e = this.next.get(e - 1)) {
			const pair = this.pairOf(e - 1);
			if (pair >= 0) yield String.fromCharCode(pair & 0xffff);
		}
	}
}
