// The vault index's term table (term → id, ids dense and reused) and the paged columns it and the
// posting pool keep per term id. Why not a Map: a JS Map grows by rehashing every entry in one go, so
// the note that brings the millionth term pays for all of them in one task (hundreds of milliseconds:
// a CJK note without punctuation or a note of random words brings a new term every few characters).
// Here nothing is ever copied or rehashed whole:
// - the buckets grow like Redis' dictionaries: a bucket array twice the size is made, and each later
//   add or lookup moves a few of the old buckets' chains into it (MOVE_BUCKETS), so the move is over
//   long before the next growth;
// - the per-id columns (chain links, hashes, names) grow a page at a time (paged.ts).
// A term of two UTF-16 units (every CJK character pair, and a few short words) is kept as its two
// units packed in one 32-bit column entry, not as a string: a CJK note without punctuation brings
// millions of distinct pairs, and as strings they filled the old generation (a 4 MB note: 3.3 million
// strings, a heap of about 240 MB and a major GC of 90 to 150 ms in one task). The indexer hands such
// pairs over as numbers (addPair/getPair) and never makes their string; a lookup by string of two
// units goes to the same entry, so a query's pair term finds the indexed pair.

import { PagedInt32 } from "./paged";

/**
 * Buckets moved from the old bucket array to the new one at each add or lookup while the table grows.
 * Two is enough: the table grows again only after as many adds as it has buckets, and an add of a
 * new term is a lookup and an add. Each moved entry is a few random reads and writes in columns of
 * millions: at 8, the steps of a CJK note that ran while its table grew past 2 million terms took
 * four times the others (32 ms against 8).
 */
export const MOVE_BUCKETS = 2;
const INITIAL_BUCKETS = 1024;

/** 32-bit FNV-1a over the term's UTF-16 units (terms are short: a few characters). */
function hashOf(term: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < term.length; i++) {
		h ^= term.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

/** hashOf of the two-unit term a b, from its units (the same number as hashOf(String.fromCharCode(a, b))). */
function hashOfPair(a: number, b: number): number {
	return Math.imul(Math.imul(0x811c9dc5 ^ a, 0x01000193) ^ b, 0x01000193) >>> 0;
}

/** Two UTF-16 units packed as one 32-bit number: a × 65536 + b (unsigned). */
export function packPair(a: number, b: number): number {
	return a * 0x10000 + b;
}

/** The two-unit term of a packed pair. */
export function pairText(pair: number): string {
	return String.fromCharCode(pair >>> 16, pair & 0xffff);
}

/** What an id holds (the `kinds` column). */
const FREE = 0;
const WORD = 1;
const PAIR = 2;
/** A page of `names` no word has been added to (never written). */
const NO_WORDS: (string | undefined)[] = [];
/** Ids per page of `names`: small, so words among millions of pairs make few pages; a gap within one stays a fast (holey) array. */
const NAME_BITS = 10;
const NAME_MASK = (1 << NAME_BITS) - 1;

export class TermTable {
	/** Per bucket, its chain's first id + 1 (0: empty). */
	private buckets = new Int32Array(INITIAL_BUCKETS);
	/** While growing: the previous bucket array, its buckets below `moved` already moved. */
	private old: Int32Array | undefined = undefined;
	private moved = 0;
	/** Per id: the next id + 1 in its chain. */
	private readonly next: PagedInt32;
	private readonly hashes: PagedInt32;
	/** Per id: FREE, WORD (its term in `names`) or PAIR (its two units packed in `units`). */
	private readonly kinds: PagedInt32;
	/** Per word id: its term, in pages of NAME_PAGE ids, each made by its first word (a CJK note's runs of pairs make none). */
	private readonly names: (string | undefined)[][] = [];
	/** Per pair id: its two units, packed (packPair, as int32). */
	private readonly units: PagedInt32;
	private readonly free: number[] = [];
	private count = 0;
	private bound = 0;
	/** Chain entries moved by the last call (for tests: the work of one call is bounded). */
	lastMoved = 0;

	/** `firstPage`: the size its per-id columns start at (PagedInt32); a note's own small table starts small. */
	constructor(firstPage?: number) {
		this.next = new PagedInt32(firstPage);
		this.hashes = new PagedInt32(firstPage);
		this.units = new PagedInt32(firstPage);
		this.kinds = new PagedInt32(firstPage);
	}

	/** Terms in the table. */
	get size(): number {
		return this.count;
	}

	/** Every id is below this. */
	get idBound(): number {
		return this.bound;
	}

	private wordOf(id: number): string | undefined {
		return this.names[id >>> NAME_BITS]?.[id & NAME_MASK];
	}

	/** The term of an id, undefined for a free id (a pair's string is made here: for saving and tests, not per posting). */
	nameOf(id: number): string | undefined {
		const kind = this.kinds.get(id);
		return kind === PAIR ? pairText(this.units.get(id) >>> 0) : kind === WORD ? this.wordOf(id) : undefined;
	}

	/** Whether `id` is a term's (not free). */
	isLive(id: number): boolean {
		return this.kinds.get(id) !== FREE;
	}

	/** The packed units (packPair) of a two-unit term's id; −1 for any other id. */
	pairOf(id: number): number {
		return this.kinds.get(id) === PAIR ? this.units.get(id) >>> 0 : -1;
	}

	get(term: string): number | undefined {
		if (term.length === 2) return this.getPair(term.charCodeAt(0), term.charCodeAt(1));
		this.step();
		return this.find(term, hashOf(term));
	}

	/** The id of the two-unit term a b (as `get` of its string). */
	getPair(a: number, b: number): number | undefined {
		this.step();
		return this.findPair(a, b, hashOfPair(a, b));
	}

	private find(term: string, h: number): number | undefined {
		const table = this.tableOf(h);
		for (let e = table[h & (table.length - 1)] ?? 0; e !== 0; e = this.next.get(e - 1)) {
			const id = e - 1;
			if (this.hashes.get(id) === (h | 0) && this.wordOf(id) === term) return id;
		}
		return undefined;
	}

	private findPair(a: number, b: number, h: number): number | undefined {
		const packed = packPair(a, b) | 0;
		const table = this.tableOf(h);
		for (let e = table[h & (table.length - 1)] ?? 0; e !== 0; e = this.next.get(e - 1)) {
			const id = e - 1;
			if (this.hashes.get(id) === (h | 0) && this.units.get(id) === packed && this.kinds.get(id) === PAIR) return id;
		}
		return undefined;
	}

	/**
	 * Makes room for `terms` in all before the first add, so a load that adds them grows nothing on
	 * the way (an empty table only: a table in use keeps growing in steps).
	 */
	reserve(terms: number): void {
		if (this.count > 0 || this.old !== undefined) return;
		let n = INITIAL_BUCKETS;
		while (n < terms) n *= 2;
		if (n > this.buckets.length) this.buckets = new Int32Array(n);
	}

	/** Adds `term` unless it is in the table; returns its new id, or undefined when it was there (one lookup, not two). */
	addNew(term: string): number | undefined {
		if (term.length === 2) {
			const a = term.charCodeAt(0);
			const b = term.charCodeAt(1);
			return this.getPair(a, b) === undefined ? this.insertPair(a, b) : undefined;
		}
		this.step();
		const h = hashOf(term);
		return this.find(term, h) === undefined ? this.insert(term, h) : undefined;
	}

	has(term: string): boolean {
		return this.get(term) !== undefined;
	}

	/** Adds a term not in the table; returns its id (a freed one first). */
	add(term: string): number {
		if (term.length === 2) return this.addPair(term.charCodeAt(0), term.charCodeAt(1));
		this.step();
		return this.insert(term, hashOf(term));
	}

	/** Adds the two-unit term a b, not in the table; returns its id (as `add` of its string, without making it). */
	addPair(a: number, b: number): number {
		this.step();
		return this.insertPair(a, b);
	}

	private insertPair(a: number, b: number): number {
		const id = this.insert(undefined, hashOfPair(a, b));
		this.units.set(id, packPair(a, b) | 0);
		return id;
	}

	/** Adds a word (`term`) or, with undefined, a pair (the caller sets its units). */
	private insert(term: string | undefined, h: number): number {
		const id = this.free.pop() ?? this.bound++;
		this.hashes.set(id, h);
		if (term === undefined) this.kinds.set(id, PAIR);
		else {
			this.kinds.set(id, WORD);
			const p = id >>> NAME_BITS;
			while (this.names.length <= p) this.names.push(NO_WORDS);
			let page = this.names[p] as (string | undefined)[];
			if (page === NO_WORDS) this.names[p] = page = [];
			page[id & NAME_MASK] = term;
		}
		const table = this.tableOf(h);
		const b = h & (table.length - 1);
		this.next.set(id, table[b] ?? 0);
		table[b] = id + 1;
		this.count++;
		if (this.old === undefined && this.count > this.buckets.length) {
			this.old = this.buckets;
			this.buckets = new Int32Array(this.old.length * 2);
			this.moved = 0;
		}
		return id;
	}

	/** Removes the term of `id`; the id is reused by a later add. */
	delete(id: number): void {
		const kind = this.kinds.get(id);
		if (kind === FREE) return;
		const h = this.hashes.get(id) >>> 0;
		const table = this.tableOf(h);
		const b = h & (table.length - 1);
		let prev = -1;
		for (let e = table[b] ?? 0; e !== 0; e = this.next.get(e - 1)) {
			if (e - 1 === id) {
				if (prev < 0) table[b] = this.next.get(id);
				else this.next.set(prev, this.next.get(id));
				break;
			}
			prev = e - 1;
		}
		if (kind === WORD) (this.names[id >>> NAME_BITS] as (string | undefined)[])[id & NAME_MASK] = undefined;
		this.kinds.set(id, FREE);
		this.next.set(id, 0);
		this.free.push(id);
		this.count--;
	}

	/** Every term with its id, in id order. */
	*entries(): Generator<[string, number], void, void> {
		for (let id = 0; id < this.bound; id++) {
			const term = this.nameOf(id);
			if (term !== undefined) yield [term, id];
		}
	}

	/** The bucket array that holds hash `h`'s chain now (its bucket: h & (length − 1)). */
	private tableOf(h: number): Int32Array {
		const old = this.old;
		if (old !== undefined && (h & (old.length - 1)) >= this.moved) return old;
		return this.buckets;
	}

	/** While growing, moves the next MOVE_BUCKETS old buckets' chains into the new array. */
	private step(): void {
		this.lastMoved = 0;
		const old = this.old;
		if (old === undefined) return;
		const to = Math.min(old.length, this.moved + MOVE_BUCKETS);
		const mask = this.buckets.length - 1;
		for (let b = this.moved; b < to; b++) {
			let e = old[b] ?? 0;
			while (e !== 0) {
				const id = e - 1;
				const after = this.next.get(id);
				const nb = this.hashes.get(id) & mask;
				this.next.set(id, this.buckets[nb] ?? 0);
				this.buckets[nb] = e;
				e = after;
				this.lastMoved++;
			}
			old[b] = 0;
		}
		this.moved = to;
		if (to >= old.length) this.old = undefined;
	}
}
