// Posting lists of the vault index, pooled: every list lives in a block of a few shared pages
// (Uint32Array of 1M entries each) instead of a typed array of its own. A vault has hundreds of
// thousands of terms, most in one or two passages, and a typed array per term costs ~100 bytes of
// object and backing-store overhead before its first posting.
// A list's block holds 2^k entries; a full block moves to one twice the size and its old block goes
// to a free list of its size, reused first. A list shrunk to a quarter of its block moves down.

const PAGE = 1 << 20;
const MAX_CLASS = 31;

function classFor(n: number): number {
	let c = 0;
	while (1 << c < n && c < MAX_CLASS) c++;
	return c;
}

/** A growable Uint32Array-backed column (one number per list). */
class Column {
	values: Uint32Array = new Uint32Array(1024);
	get(i: number): number {
		return this.values[i] ?? 0;
	}
	set(i: number, v: number): void {
		if (i >= this.values.length) {
			const grown = new Uint32Array(Math.max(i + 1, this.values.length * 2));
			grown.set(this.values);
			this.values = grown;
		}
		this.values[i] = v;
	}
}

export class PostingPool {
	private readonly pages: Uint32Array[] = [];
	/** Entries used of the last shared page (pages of a single huge list are never shared). */
	private used = PAGE;
	private shared = -1;
	private readonly free: number[][] = Array.from({ length: MAX_CLASS + 1 }, () => []);
	// Per list: page, offset in it, length, and its block's size class + 1 (0: it holds no block).
	private readonly page = new Column();
	private readonly offset = new Column();
	private readonly length = new Column();
	private readonly held = new Column();

	/** Entries in the list. */
	count(list: number): number {
		return this.length.get(list);
	}

	/** The list's entries (a view; valid until the next change to the pool). */
	view(list: number): Uint32Array {
		const n = this.length.get(list);
		if (n === 0) return new Uint32Array(0);
		const off = this.offset.get(list);
		return (this.pages[this.page.get(list)] as Uint32Array).subarray(off, off + n);
	}

	push(list: number, value: number): void {
		const n = this.length.get(list);
		const held = this.held.get(list);
		if (held === 0 || n === 1 << (held - 1)) this.move(list, n, classFor(n + 1));
		(this.pages[this.page.get(list)] as Uint32Array)[this.offset.get(list) + n] = value;
		this.length.set(list, n + 1);
	}

	/** Replaces the list's entries (a loaded index fills each list once). */
	fill(list: number, values: ArrayLike<number>): void {
		this.clear(list);
		if (values.length === 0) return;
		this.move(list, 0, classFor(values.length));
		(this.pages[this.page.get(list)] as Uint32Array).set(values, this.offset.get(list));
		this.length.set(list, values.length);
	}

	/** Drops the entries for which `drop` is true, keeping the others' order. Returns the new length. */
	removeWhere(list: number, drop: (value: number) => boolean): number {
		const n = this.length.get(list);
		if (n === 0) return 0;
		const data = this.pages[this.page.get(list)] as Uint32Array;
		const off = this.offset.get(list);
		let kept = 0;
		for (let i = 0; i < n; i++) {
			const v = data[off + i] ?? 0;
			if (!drop(v)) data[off + kept++] = v;
		}
		this.length.set(list, kept);
		const c = this.held.get(list) - 1;
		if (kept === 0) this.clear(list);
		else if (c > 2 && kept <= 1 << (c - 2)) this.move(list, kept, classFor(kept * 2));
		return kept;
	}

	/** Frees the list's block. */
	clear(list: number): void {
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
		const size = 1 << c;
		const reused = this.free[c]?.pop();
		if (reused !== undefined) return [Math.floor(reused / PAGE), reused % PAGE];
		if (size > PAGE) {
			this.pages.push(new Uint32Array(size));
			return [this.pages.length - 1, 0];
		}
		if (this.used + size > PAGE) {
			// The rest of the page goes to the free lists, cut into power-of-two blocks.
			if (this.shared >= 0) {
				let at = this.used;
				while (at < PAGE) {
					let k = 0;
					while (at + (1 << (k + 1)) <= PAGE) k++;
					this.free[k]?.push(this.shared * PAGE + at);
					at += 1 << k;
				}
			}
			this.pages.push(new Uint32Array(PAGE));
			this.shared = this.pages.length - 1;
			this.used = 0;
		}
		const off = this.used;
		this.used += size;
		return [this.shared, off];
	}

	private release(page: number, off: number, c: number): void {
		if (1 << c > PAGE) {
			// A page of its own: dropped, its slot kept empty so other lists' page numbers stay valid.
			this.pages[page] = new Uint32Array(0);
			return;
		}
		this.free[c]?.push(page * PAGE + off);
	}
}
