// The vault index's term table (term → id, ids dense and reused) and the paged columns it and the
// posting pool keep per term id. Why not a Map: a JS Map grows by rehashing every entry in one go, so
// the note that brings the millionth term pays for all of them in one task (hundreds of milliseconds:
// a CJK note without punctuation or a note of random words brings a new term every few characters).
// Here nothing is ever copied or rehashed whole:
// - the buckets grow like Redis' dictionaries: a bucket array twice the size is made, and each later
//   add or lookup moves a few of the old buckets' chains into it (MOVE_BUCKETS), so the move is over
//   long before the next growth;
// - the per-id columns (chain links, hashes, names) grow a page at a time (paged.ts).

import { PAGE_BITS, PagedInt32 } from "./paged";

const MASK = (1 << PAGE_BITS) - 1;

/** Buckets moved from the old bucket array to the new one at each add or lookup while the table grows. */
export const MOVE_BUCKETS = 8;
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

export class TermTable {
	/** Per bucket, its chain's first id + 1 (0: empty). */
	private buckets = new Int32Array(INITIAL_BUCKETS);
	/** While growing: the previous bucket array, its buckets below `moved` already moved. */
	private old: Int32Array | undefined;
	private moved = 0;
	/** Per id: the next id + 1 in its chain. */
	private readonly next: PagedInt32;
	private readonly hashes: PagedInt32;
	private readonly names: (string | undefined)[][] = [];
	private readonly free: number[] = [];
	private count = 0;
	private bound = 0;
	/** Chain entries moved by the last call (for tests: the work of one call is bounded). */
	lastMoved = 0;

	/** `firstPage`: the size its per-id columns start at (PagedInt32); a note's own small table starts small. */
	constructor(firstPage?: number) {
		this.next = new PagedInt32(firstPage);
		this.hashes = new PagedInt32(firstPage);
	}

	/** Terms in the table. */
	get size(): number {
		return this.count;
	}

	/** Every id is below this. */
	get idBound(): number {
		return this.bound;
	}

	/** The term of an id, undefined for a free id. */
	nameOf(id: number): string | undefined {
		return this.names[id >>> PAGE_BITS]?.[id & MASK];
	}

	get(term: string): number | undefined {
		this.step();
		return this.find(term, hashOf(term));
	}

	private find(term: string, h: number): number | undefined {
		const table = this.tableOf(h);
		for (let e = table[h & (table.length - 1)] ?? 0; e !== 0; e = this.next.get(e - 1)) {
			const id = e - 1;
			if (this.hashes.get(id) === (h | 0) && this.nameOf(id) === term) return id;
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
		this.step();
		const h = hashOf(term);
		return this.find(term, h) === undefined ? this.insert(term, h) : undefined;
	}

	has(term: string): boolean {
		return this.get(term) !== undefined;
	}

	/** Adds a term not in the table; returns its id (a freed one first). */
	add(term: string): number {
		this.step();
		return this.insert(term, hashOf(term));
	}

	private insert(term: string, h: number): number {
		const id = this.free.pop() ?? this.bound++;
		this.hashes.set(id, h);
		const p = id >>> PAGE_BITS;
		while (this.names.length <= p) this.names.push([]);
		(this.names[p] as (string | undefined)[])[id & MASK] = term;
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
		const term = this.nameOf(id);
		if (term === undefined) return;
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
		(this.names[id >>> PAGE_BITS] as (string | undefined)[])[id & MASK] = undefined;
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
