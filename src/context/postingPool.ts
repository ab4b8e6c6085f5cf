// Posting lists of the vault index, pooled: every list lives in a block of a few shared pages
// (Uint32Array of 1M entries each) instead of a typed array of its own. A vault has hundreds of
// thousands of terms, most in one or two passages, and a typed array per term costs ~100 bytes of
// object and backing-store overhead before its first posting.
// A list's block holds one of SIZES entries; a full block moves to the next size and its old block goes
// to a free list of its size, reused first. A list shrunk to a quarter of its block moves down.
// Lists are kept ascending, so a note's postings are found by binary search when it is removed:
// scanning every list of the note's terms cost tens of milliseconds per note at 10,000 notes.
// A loaded index's lists stay in the saved bytes until first used (lazyPostings.ts).

import { PagedInt32 } from "./paged";
import { readPostings, type PostingSource } from "./lazyPostings";

const PAGE = 1 << 20;
/** Block sizes: 1, 2, 3, 4, 6, 8, 12, 16, 24… (powers of two and 1.5×): lists waste a sixth on average, not a third. */
const SIZES: number[] = [1];
for (let k = 1; k <= 30; k++) SIZES.push(3 * 2 ** (k - 1), 2 ** k);
SIZES.sort((a, b) => a - b);

function classFor(n: number): number {
	let c = 0;
	while ((SIZES[c] ?? Infinity) < n) c++;
	return c;
}

function sizeOf(c: number): number {
	return SIZES[c] ?? Infinity;
}

/** The first index in data[from, to) whose value is >= `value` (data ascending there). */
function lowerBound(data: Uint32Array, from: number, to: number, value: number): number {
	let lo = from;
	let hi = to;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if ((data[mid] ?? 0) < value) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

export class PostingPool {
	private readonly pages: Uint32Array[] = [];
	/** Entries used of the last shared page (pages of a single huge list are never shared). */
	private used = PAGE;
	private shared = -1;
	private readonly free: number[][] = SIZES.map(() => []);
	// Per list: page, offset in it, length, and its block's size class + 1 (0: it holds no block).
	// Paged (paged.ts): a column that doubled was copied whole in one task at millions of lists.
	private readonly page = new PagedInt32();
	private readonly offset = new PagedInt32();
	private readonly length = new PagedInt32();
	private readonly held = new PagedInt32();
	// Lists still in the saved bytes: their byte offset + 1 (0: decoded) and byte length.
	private source: PostingSource | undefined;
	private readonly lazyAt = new PagedInt32();
	private readonly lazyBytes = new PagedInt32();
	private lazyLists = 0;

	/** Entries in the list. */
	count(list: number): number {
		return this.length.get(list);
	}

	/** Lists not yet decoded from the saved bytes. */
	get undecoded(): number {
		return this.lazyLists;
	}

	/** Sets the saved bytes that `loadLazy` lists are read from. */
	setSource(source: PostingSource): void {
		this.source = source;
	}

	/** Makes the list `count` postings at bytes [at, at + bytes) of the source, decoded when first used. */
	loadLazy(list: number, count: number, at: number, bytes: number): void {
		if (this.held.get(list) !== 0 || this.lazyAt.get(list) !== 0) this.clear(list);
		if (count === 0) return;
		this.length.set(list, count);
		this.lazyAt.set(list, at + 1);
		this.lazyBytes.set(list, bytes);
		this.lazyLists++;
	}

	/** The list's entries without keeping them decoded (a save reads every list once). */
	peek(list: number): Uint32Array {
		const at = this.lazyAt.get(list);
		if (at === 0 || !this.source) return this.view(list);
		return readPostings(this.source, at - 1, at - 1 + this.lazyBytes.get(list), this.length.get(list));
	}

	/** Decodes a list still in the saved bytes; the bytes are let go once no list needs them. */
	private decode(list: number): void {
		const at = this.lazyAt.get(list);
		if (at === 0) return;
		const values = this.source ? readPostings(this.source, at - 1, at - 1 + this.lazyBytes.get(list), this.length.get(list)) : new Uint32Array(0);
		this.forget(list);
		this.length.set(list, 0);
		this.fill(list, values);
	}

	private forget(list: number): void {
		if (this.lazyAt.get(list) === 0) return;
		this.lazyAt.set(list, 0);
		if (--this.lazyLists === 0) this.source = undefined;
	}

	/** The list's entries (a view; valid until the next change to the pool). */
	view(list: number): Uint32Array {
		this.decode(list);
		const n = this.length.get(list);
		if (n === 0) return new Uint32Array(0);
		const off = this.offset.get(list);
		return (this.pages[this.page.get(list)] as Uint32Array).subarray(off, off + n);
	}

	/** Inserts `value` keeping the list ascending (an existing equal value is kept once). */
	insert(list: number, value: number): void {
		this.decode(list);
		const n = this.length.get(list);
		const held = this.held.get(list);
		if (held === 0 || n === sizeOf(held - 1)) this.move(list, n, classFor(n + 1));
		const data = this.pages[this.page.get(list)] as Uint32Array;
		const off = this.offset.get(list);
		const at = lowerBound(data, off, off + n, value);
		if (at < off + n && data[at] === value) return;
		if (at < off + n) data.copyWithin(at + 1, at, off + n);
		data[at] = value;
		this.length.set(list, n + 1);
	}

	/** Removes the one entry in [from, to) of an ascending list, if any. Returns the new length. */
	removeRange(list: number, from: number, to: number): number {
		this.decode(list);
		const n = this.length.get(list);
		if (n === 0) return 0;
		const data = this.pages[this.page.get(list)] as Uint32Array;
		const off = this.offset.get(list);
		const at = lowerBound(data, off, off + n, from);
		if (at >= off + n || (data[at] ?? 0) >= to) return n;
		data.copyWithin(at, at + 1, off + n);
		this.length.set(list, n - 1);
		const c = this.held.get(list) - 1;
		if (n - 1 === 0) this.clear(list);
		else if (c > 3 && n - 1 <= sizeOf(c) / 4) this.move(list, n - 1, classFor((n - 1) * 2));
		return n - 1;
	}

	/**
	 * Removes every entry in [from, to) whose value `drop` accepts (a note's postings when its
	 * passages are not one run of ids). Returns the new length and the entries looked at.
	 */
	removeWhere(list: number, from: number, to: number, drop: (value: number) => boolean): { length: number; scanned: number } {
		this.decode(list);
		const n = this.length.get(list);
		if (n === 0) return { length: 0, scanned: 0 };
		const data = this.pages[this.page.get(list)] as Uint32Array;
		const off = this.offset.get(list);
		const at = lowerBound(data, off, off + n, from);
		let w = at;
		let r = at;
		for (; r < off + n && (data[r] ?? 0) < to; r++) {
			const v = data[r] ?? 0;
			if (!drop(v)) data[w++] = v;
		}
		const removed = r - w;
		if (removed === 0) return { length: n, scanned: r - at };
		data.copyWithin(w, r, off + n);
		const left = n - removed;
		this.length.set(list, left);
		const c = this.held.get(list) - 1;
		if (left === 0) this.clear(list);
		else if (c > 3 && left <= sizeOf(c) / 4) this.move(list, left, classFor(left * 2));
		return { length: left, scanned: r - at };
	}

	/** Replaces the list's entries (a loaded index fills each list once). */
	fill(list: number, values: ArrayLike<number>): void {
		this.clear(list);
		if (values.length === 0) return;
		this.move(list, 0, classFor(values.length));
		(this.pages[this.page.get(list)] as Uint32Array).set(values, this.offset.get(list));
		this.length.set(list, values.length);
	}

	/** Frees the list's block. */
	clear(list: number): void {
		this.forget(list);
		const held = this.held.get(list);
		if (held > 0) this.release(this.page.get(list), this.offset.get(list), held - 1);
		this.length.set(list, 0);
		this.held.set(list, 0);
	}

	/** Moves the list's first `keep` entries into a new block of class `c`. */
	private move(list: number, keep: number, c: number): void {
		const [page, off] = this.alloc(c);
		const held = this.held.get(list);
		if (held > 0) {
			const oldPage = this.page.get(list);
			const oldOff = this.offset.get(list);
			if (keep > 0) (this.pages[page] as Uint32Array).set((this.pages[oldPage] as Uint32Array).subarray(oldOff, oldOff + keep), off);
			this.release(oldPage, oldOff, held - 1);
		}
		this.page.set(list, page);
		this.offset.set(list, off);
		this.held.set(list, c + 1);
	}

	private alloc(c: number): [number, number] {
		const size = sizeOf(c);
		const reused = this.free[c]?.pop();
		if (reused !== undefined) return [Math.floor(reused / PAGE), reused % PAGE];
		// A larger free block is split: a list that grew leaves its old blocks behind, and without
		// splitting the blocks of the few long lists (most postings) would never be used again.
		for (let k = c + 1; k < SIZES.length && sizeOf(k) <= PAGE; k++) {
			const bigger = this.free[k]?.pop();
			if (bigger === undefined) continue;
			this.freeRange(bigger + sizeOf(c), sizeOf(k) - sizeOf(c));
			return [Math.floor(bigger / PAGE), bigger % PAGE];
		}
		if (size > PAGE) {
			this.pages.push(new Uint32Array(size));
			return [this.pages.length - 1, 0];
		}
		if (this.used + size > PAGE) {
			// The rest of the page goes to the free lists, cut into power-of-two blocks.
			if (this.shared >= 0) this.freeRange(this.shared * PAGE + this.used, PAGE - this.used);
			this.pages.push(new Uint32Array(PAGE));
			this.shared = this.pages.length - 1;
			this.used = 0;
		}
		const off = this.used;
		this.used += size;
		return [this.shared, off];
	}

	/** Puts `length` entries from location `at` (page × PAGE + offset) on the free lists, largest blocks first. */
	private freeRange(at: number, length: number): void {
		while (length > 0) {
			let k = 0;
			while (sizeOf(k + 1) <= length) k++;
			this.free[k]?.push(at);
			at += sizeOf(k);
			length -= sizeOf(k);
		}
	}

	private release(page: number, off: number, c: number): void {
		if (sizeOf(c) > PAGE) {
			// A page of its own: dropped, its slot kept empty so other lists' page numbers stay valid.
			this.pages[page] = new Uint32Array(0);
			return;
		}
		this.free[c]?.push(page * PAGE + off);
	}
}
