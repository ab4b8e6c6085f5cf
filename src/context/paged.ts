// Columns of 32-bit integers that grow a page (65,536 entries) at a time. A typed array grown by
// doubling is copied whole when it grows: tens of milliseconds in one task once a column holds
// millions of entries (the vault index's per-term columns do, after a CJK note without punctuation).

export const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
const MASK = PAGE - 1;

/** A copy of `data` doubled until index `i` fits (at most `cap` entries). */
function doubledFor(data: Int32Array, i: number, cap = Infinity): Int32Array {
	let size = data.length * 2;
	while (size <= i) size *= 2;
	const grown = new Int32Array(Math.min(cap, size));
	grown.set(data);
	return grown;
}

/**
 * A column of 32-bit integers indexed from 0, grown a page of 65,536 at a time (never copied). Unset
 * entries read 0. With `firstPage` smaller, the first page doubles from that size up to a whole page
 * (a small note's corpus stays small: five columns of whole pages cost 1.3 MB for a note of ten
 * words); the vault index's columns start whole, so no step of theirs copies.
 */
export class PagedInt32 {
	private readonly pages: Int32Array[];
	constructor(firstPage = PAGE) {
		this.pages = [new Int32Array(Math.min(PAGE, Math.max(1, firstPage)))];
	}
	get(i: number): number {
		const page = this.pages[i >>> PAGE_BITS];
		return page === undefined ? 0 : (page[i & MASK] ?? 0);
	}
	/** The page that holds entry `i` (its place there: i & (2^PAGE_BITS − 1)), undefined when none was made; a first page still growing may be shorter. */
	pageOf(i: number): Int32Array | undefined {
		return this.pages[i >>> PAGE_BITS];
	}
	set(i: number, v: number): void {
		const p = i >>> PAGE_BITS;
		const first = this.pages[0] as Int32Array;
		if (p === 0 && i >= first.length) this.pages[0] = doubledFor(first, i, PAGE);
		while (this.pages.length <= p) this.pages.push(new Int32Array(PAGE));
		(this.pages[p] as Int32Array)[i & MASK] = v;
	}
}

/** A growable list of 32-bit integers: its first page doubles from 64 entries (a small note's list stays small), then whole pages follow (pushing the ten-millionth copies nothing). */
export class PagedList {
	private readonly pages: Int32Array[] = [new Int32Array(64)];
	private n = 0;
	get size(): number {
		return this.n;
	}
	push(v: number): void {
		const p = this.n >>> PAGE_BITS;
		const i = this.n & MASK;
		let page = this.pages[p];
		if (page === undefined) this.pages.push((page = new Int32Array(PAGE)));
		else if (i >= page.length) {
			const grown = new Int32Array(Math.min(PAGE, page.length * 2));
			grown.set(page);
			this.pages[p] = page = grown;
		}
		page[i] = v;
		this.n++;
	}
	/** The entries, copied into one array (page by page, not one at a time). */
	toUint32Array(): Uint32Array {
		const out = new Uint32Array(this.n);
		for (let p = 0, at = 0; at < this.n; p++) {
			const page = this.pages[p] as Int32Array;
			const take = Math.min(page.length, this.n - at);
			out.set(page.subarray(0, take), at);
			at += take;
		}
		return out;
	}
	*[Symbol.iterator](): Generator<number, void, void> {
		for (let i = 0; i < this.n; i++) yield (this.pages[i >>> PAGE_BITS] as Int32Array)[i & MASK] ?? 0;
	}
}

/**
 * A column of 32-bit integers per passage, read in the ranking's hot loops as a plain Int32Array
 * (`data`, whose length may pass `length`; entries past `length` read 0). Grown by doubling: a
 * million passages' column is 4 MB, copied in about a millisecond. Half the bytes of a JS array of
 * small integers (8 bytes an element on 64-bit Node and Electron without pointer compression).
 */
export class GrowingInt32 {
	data: Int32Array;
	/** One past the highest index set. */
	length = 0;
	constructor(initial = 1024) {
		this.data = new Int32Array(Math.max(1, initial));
	}
	get(i: number): number {
		return this.data[i] ?? 0;
	}
	set(i: number, v: number): void {
		if (i >= this.data.length) this.data = doubledFor(this.data, i);
		this.data[i] = v;
		if (i >= this.length) this.length = i + 1;
	}
}
