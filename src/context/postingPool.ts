// Posting lists of the vault index, pooled: every list lives in a block of a few shared pages
// (Uint32Array of 1M entries each) instead of a typed array of its own. A vault has hundreds of
// thousands of terms, most in one or two passages, and a typed array per term costs ~100 bytes of
// object and backing-store overhead before its first posting.
// A list's block holds one of SIZES entries; a full block moves to the next size and its old block goes
// to a free list of its size, reused first. A list shrunk to a quarter of its block moves down.
// Lists are kept ascending, so a note's postings are found by binary search when it is removed:
// scanning every list of the note's terms cost tens of milliseconds per note at 10,000 notes.
// A loaded index's lists stay in the saved bytes until first used (lazyPostings.ts), through a
// re-index too: a new passage's postings go to a tail kept beside the bytes (its id is past the saved
// ones), and a removed note's saved postings are retired (skipped when read), not decoded to be cut out.
// A built index gets there too: compactSteps encodes every list into new bytes in that layout and
// lets the pages go (about 1.5 bytes a posting instead of 4), so the lists read like a loaded index's.

import { PagedInt32, PAGE_BITS } from "./paged";
import { lastPassage, readPostings, TF_SLOTS, type PostingSource } from "./lazyPostings";
import { ByteWriter } from "./binaryCodec";
import type { Steps } from "./steps";

const PAGE = 1 << 20;
/** An entry's place in its page of a PagedInt32 (paged.ts). */
const PAGE_MASK = (1 << PAGE_BITS) - 1;
/** Entries of `meta` per list, and where each field is among them. */
const LIST = 4;
const L_AT = 0;
const L_BYTES = 1;
const L_COUNT = 2;
const L_REF = 3;
/**
 * Entries of `recs` per block record (four: a record never straddles two of its pages), and its
 * fields; the size class + 1 and the gone count share the last one (held + 64 × gone: a class is
 * under 64, and gone is at most a list's saved count, under 2^22 passages).
 */
const REC = 4;
const B_PAGE = 0;
const B_OFFSET = 1;
const B_LENGTH = 2;
const R_HG = 3;
/** blk/setBlk's names for the two halves of R_HG. */
const B_HELD = 4;
const B_GONE = 5;
/** The first shared page's entries (256 KB); each next one is twice the last, up to PAGE. */
const FIRST_PAGE = 1 << 16;
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

/** Postings encoded (or saved bytes copied) between two steps of a compaction: a few milliseconds. */
const COMPACT_STEP = 200_000;
/** What a list costs a compaction besides its postings, in postings (its fields read and written: about half a microsecond). */
const LIST_WORK = 40;

export class PostingPool {
	private pages: Uint32Array[] = [];
	/** Bytes of every page held (what decoded entries cost). */
	private pageBytes = 0;
	/** One past the highest list id used. */
	private lists = 0;
	/** Counts every change to the entries (a compaction gives up when it moved). */
	private mutations = 0;
	/** Entries used of the last shared page (pages of a single huge list are never shared), and its size. */
	private used = 0;
	private cap = 0;
	private shared = -1;
	private free: number[][] = SIZES.map(() => []);
	// Per list, side by side in one paged column (LIST entries a list): for a list still in the saved
	// bytes, its byte offset + 1 (0: decoded), byte length and saved count; and its block record + 1
	// (0: none). A record (REC entries in `recs`) is what a list holding entries in a block needs: the
	// block's page, offset in it, length and size class + 1 (0: no block), and how many of the saved
	// entries may have gone since (an upper bound: lazyHolds). A list still in the saved bytes holds its
	// tail there: entries added since the load or the compaction, all past every saved one. Most lists
	// of a built or loaded index have no record: 16 bytes a list, where the eight fields side by side
	// were 32 (37 MB at 100,000 notes). Paged (paged.ts): a column that doubled was copied whole in
	// one task at millions of lists.
	private meta = new PagedInt32();
	private recs = new PagedInt32();
	private freeRecs: number[] = [];
	private nextRec = 0;
	private source: PostingSource | undefined = undefined;
	private lazyLists = 0;
	/** Per saved passage (below source.passages): 1 once its saved postings are gone (`retire`); they are skipped when read. */
	private retired: Uint8Array | undefined = undefined;

	/** A field of the list's block record (0 when it has none). */
	private blk(list: number, field: number): number {
		const r = this.meta.get(list * LIST + L_REF);
		if (r === 0) return 0;
		const at = (r - 1) * REC;
		if (field === B_HELD) return this.recs.get(at + R_HG) & 63;
		if (field === B_GONE) return this.recs.get(at + R_HG) >>> 6;
		return this.recs.get(at + field);
	}

	/** Sets a field of the list's block record, making one when it has none (not for a 0). */
	private setBlk(list: number, field: number, v: number): void {
		let r = this.meta.get(list * LIST + L_REF);
		if (r === 0) {
			if (v === 0) return;
			r = (this.freeRecs.pop() ?? this.nextRec++) + 1;
			this.meta.set(list * LIST + L_REF, r);
		}
		const at = (r - 1) * REC;
		if (field === B_HELD) this.recs.set(at + R_HG, (this.recs.get(at + R_HG) & ~63) | v);
		else if (field === B_GONE) this.recs.set(at + R_HG, (this.recs.get(at + R_HG) & 63) | (v << 6));
		else this.recs.set(at + field, v);
	}

	/** Frees the list's record once it holds nothing (no block, no entries, nothing gone); freed records are all zero. */
	private dropRec(list: number): void {
		const r = this.meta.get(list * LIST + L_REF);
		if (r === 0) return;
		const at = (r - 1) * REC;
		if (this.recs.get(at + R_HG) !== 0 || this.recs.get(at + B_LENGTH) !== 0) return;
		this.recs.set(at + B_PAGE, 0);
		this.recs.set(at + B_OFFSET, 0);
		this.freeRecs.push(r - 1);
		this.meta.set(list * LIST + L_REF, 0);
	}

	private touch(list: number): void {
		this.mutations++;
		if (list >= this.lists) this.lists = list + 1;
	}

	/** Bytes of the pages that hold decoded entries: what a compaction would give back, mostly. */
	get decodedBytes(): number {
		return this.pageBytes;
	}

	/** Bytes of the encoded lists (a loaded index's, or the last compaction's). */
	get encodedBytes(): number {
		return this.source?.bytes.length ?? 0;
	}

	/**
	 * Encodes every list into one buffer in the saved layout (lazyPostings.ts) and lets the decoded
	 * entries go: about 1.5 bytes a posting instead of 4, and no page left half used. Lists then read
	 * as a loaded index's do (decoded on first use, a new passage's postings in a tail beside them).
	 * `passages` is one past the highest passage id in any list. A list still in the old bytes with
	 * none of its passages retired is copied as it is, its tail appended. Nothing changes until the
	 * last step; it gives up (returns false) if the pool changed between two steps. `step`: postings
	 * encoded (and bytes joined, × 16) between two steps.
	 */
	*compactSteps(passages: number, step = COMPACT_STEP): Steps<boolean> {
		const stamp = this.mutations;
		const lists = this.lists;
		const old = this.source;
		const retired = this.retired;
		const meta = new PagedInt32();
		const out = new ByteWriter();
		let lazy = 0;
		let work = 0;
		for (let list = 0; list < lists; list++) {
			const m = list * LIST;
			const lazyAt = this.meta.get(m + L_AT);
			const tail = this.blk(list, B_LENGTH);
			const at = out.length;
			let count = 0;
			if (lazyAt !== 0 && retired === undefined && old !== undefined) {
				const from = lazyAt - 1;
				const end = from + this.meta.get(m + L_BYTES);
				const saved = this.meta.get(m + L_COUNT);
				out.copyRange(old.bytes, from, end);
				count = saved + tail;
				// Its bytes are copied and, with a tail, scanned for their last passage: a byte costs about a posting.
				work += LIST_WORK + (end - from) + tail;
				if (tail > 0) {
					const off = this.blk(list, B_OFFSET);
					const entries = (this.pages[this.blk(list, B_PAGE)] as Uint32Array).subarray(off, off + tail);
					out.postings(entries, lastPassage(old.bytes, from, end, saved));
				}
			} else {
				const entries = this.peek(list);
				out.postings(entries);
				count = entries.length;
				work += LIST_WORK + count;
			}
			if (count > 0) {
				meta.set(m + L_AT, at + 1);
				meta.set(m + L_BYTES, out.length - at);
				meta.set(m + L_COUNT, count);
				lazy++;
			}
			if (work >= step) {
				work = 0;
				yield;
				if (this.mutations !== stamp) return false;
			}
		}
		const bytes = new Uint8Array(out.length);
		let filled = 0;
		let copied = 0;
		for (const chunk of out.all()) {
			bytes.set(chunk, filled);
			filled += chunk.length;
			copied += chunk.length;
			if (copied >= step * 16) {
				copied = 0;
				yield;
				if (this.mutations !== stamp) return false;
			}
		}
		this.meta = meta;
		this.recs = new PagedInt32();
		this.freeRecs = [];
		this.nextRec = 0;
		this.pages = [];
		this.pageBytes = 0;
		this.used = 0;
		this.cap = 0;
		this.shared = -1;
		this.free = SIZES.map(() => []);
		this.source = lazy > 0 ? { bytes, passages } : undefined;
		this.retired = undefined;
		this.lazyLists = lazy;
		this.mutations++;
		return true;
	}

	/** Entries in the list. */
	count(list: number): number {
		if (this.meta.get(list * LIST + L_AT) !== 0) {
			if (this.retired === undefined) return this.meta.get(list * LIST + L_COUNT) + this.blk(list, B_LENGTH);
			this.decode(list);
		}
		return this.blk(list, B_LENGTH);
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
		this.touch(list);
		if (this.blk(list, B_HELD) !== 0 || this.meta.get(list * LIST + L_AT) !== 0) this.clear(list);
		if (count === 0) return;
		this.setBlk(list, B_LENGTH, 0);
		this.meta.set(list * LIST + L_AT, at + 1);
		this.meta.set(list * LIST + L_BYTES, bytes);
		this.meta.set(list * LIST + L_COUNT, count);
		this.setBlk(list, B_GONE, 0);
		this.lazyLists++;
	}

	/**
	 * The saved passages among `docs` lose their saved postings in every list still in the saved bytes
	 * (a removed note's: called before its postings are removed). A retired id reused later gets
	 * new postings, never its old ones back: a value below the saved passages decodes its list first
	 * (insert), and the saved bytes are read skipping retired ids for as long as any list is lazy.
	 */
	retire(docs: readonly number[]): void {
		this.mutations++;
		const source = this.source;
		if (!source || this.lazyLists === 0) return;
		for (const doc of docs) {
			if (doc >= source.passages) continue;
			this.retired ??= new Uint8Array(source.passages);
			this.retired[doc] = 1;
		}
	}

	/** The list's entries without keeping them decoded (a save reads every list once). */
	peek(list: number): Uint32Array {
		return this.meta.get(list * LIST + L_AT) === 0 ? this.view(list) : this.read(list);
	}

	/** A lazy list's entries: its saved ones still there, then its tail. */
	private read(list: number): Uint32Array {
		const at = this.meta.get(list * LIST + L_AT) - 1;
		const tail = this.blk(list, B_LENGTH);
		if (!this.source) return new Uint32Array(0);
		const saved = readPostings(this.source, at, at + this.meta.get(list * LIST + L_BYTES), this.meta.get(list * LIST + L_COUNT), this.retired);
		if (tail === 0) return saved;
		const out = new Uint32Array(saved.length + tail);
		out.set(saved);
		const off = this.blk(list, B_OFFSET);
		out.set((this.pages[this.blk(list, B_PAGE)] as Uint32Array).subarray(off, off + tail), saved.length);
		return out;
	}

	/** Decodes a list still in the saved bytes; the bytes are let go once no list needs them. */
	private decode(list: number): void {
		if (this.meta.get(list * LIST + L_AT) === 0) return;
		this.fill(list, this.read(list));
	}

	private forget(list: number): void {
		if (this.meta.get(list * LIST + L_AT) === 0) return;
		this.meta.set(list * LIST + L_AT, 0);
		this.setBlk(list, B_GONE, 0);
		this.dropRec(list);
		if (--this.lazyLists === 0) {
			this.source = undefined;
			this.retired = undefined;
		}
	}

	/** The list's entries (a view; valid until the next change to the pool). */
	view(list: number): Uint32Array {
		this.decode(list);
		const n = this.blk(list, B_LENGTH);
		if (n === 0) return new Uint32Array(0);
		const off = this.blk(list, B_OFFSET);
		return (this.pages[this.blk(list, B_PAGE)] as Uint32Array).subarray(off, off + n);
	}

	/** The first value past every saved entry of a list still in the saved bytes (its tail's values are). */
	private get tailFrom(): number {
		return (this.source?.passages ?? 0) * TF_SLOTS;
	}

	/** Inserts `value` keeping the list ascending (an existing equal value is kept once). */
	insert(list: number, value: number): void {
		this.touch(list);
		// A new passage id is mostly past the saved ones (noteTables.ts addDoc): it joins the tail.
		if (this.meta.get(list * LIST + L_AT) !== 0 && value < this.tailFrom) this.decode(list);
		let r = this.meta.get(list * LIST + L_REF);
		let page = r === 0 ? undefined : this.recs.pageOf((r - 1) * REC);
		let rec = ((r - 1) * REC) & PAGE_MASK;
		const n = page === undefined ? 0 : (page[rec + B_LENGTH] as number);
		const held = page === undefined ? 0 : (page[rec + R_HG] as number) & 63;
		if (held === 0 || n === sizeOf(held - 1)) {
			this.move(list, n, classFor(n + 1));
			r = this.meta.get(list * LIST + L_REF);
			page = this.recs.pageOf((r - 1) * REC);
			rec = ((r - 1) * REC) & PAGE_MASK;
		}
		// The list has a record now (move made one): its fields read from its page directly.
		const fields = page as Int32Array;
		const data = this.pages[fields[rec + B_PAGE] as number] as Uint32Array;
		const off = fields[rec + B_OFFSET] as number;
		// A build adds passages in id order: the value mostly goes last (no search, nothing moved).
		if (n === 0 || (data[off + n - 1] ?? 0) < value) {
			data[off + n] = value;
			fields[rec + B_LENGTH] = n + 1;
			return;
		}
		const at = lowerBound(data, off, off + n, value);
		if (at < off + n && data[at] === value) return;
		if (at < off + n) data.copyWithin(at + 1, at, off + n);
		data[at] = value;
		fields[rec + B_LENGTH] = n + 1;
	}

	/**
	 * Whether the list still holds entries, for a list still in the saved bytes whose saved entries in
	 * [from, to) were retired: they are skipped when read, and `gone` more of its saved entries may be
	 * (at most). It is decoded (exact) only when they could be all of them.
	 */
	private lazyHolds(list: number, from: number, to: number): boolean {
		const end = Math.min(to, this.tailFrom);
		if (from < end) {
			const gone = Math.min(this.meta.get(list * LIST + L_COUNT), this.blk(list, B_GONE) + Math.ceil((end - from) / TF_SLOTS));
			this.setBlk(list, B_GONE, gone);
		}
		if (this.meta.get(list * LIST + L_COUNT) - this.blk(list, B_GONE) + this.blk(list, B_LENGTH) > 0) return true;
		this.decode(list);
		return this.blk(list, B_LENGTH) > 0;
	}

	/**
	 * Removes the one entry in [from, to) of an ascending list, if any. Returns whether the list still
	 * holds entries. Saved entries of a list not yet decoded must have been retired (`retire`).
	 */
	removeRange(list: number, from: number, to: number): boolean {
		this.mutations++;
		const lazy = this.meta.get(list * LIST + L_AT) !== 0;
		const n = this.blk(list, B_LENGTH);
		if (n > 0) {
			const data = this.pages[this.blk(list, B_PAGE)] as Uint32Array;
			const off = this.blk(list, B_OFFSET);
			const at = lowerBound(data, off, off + n, from);
			if (at < off + n && (data[at] ?? 0) < to) {
				data.copyWithin(at, at + 1, off + n);
				this.shrunk(list, n - 1);
			}
		}
		return lazy ? this.lazyHolds(list, from, to) : this.blk(list, B_LENGTH) > 0;
	}

	/**
	 * Removes every entry in [from, to) whose value `drop` accepts (a note's postings when its
	 * passages are not one run of ids). Returns whether the list still holds entries, and the
	 * entries looked at. Saved entries of a list not yet decoded must have been retired (`retire`).
	 */
	removeWhere(list: number, from: number, to: number, drop: (value: number) => boolean): { held: boolean; scanned: number } {
		this.mutations++;
		const lazy = this.meta.get(list * LIST + L_AT) !== 0;
		const n = this.blk(list, B_LENGTH);
		let scanned = 0;
		if (n > 0) {
			const data = this.pages[this.blk(list, B_PAGE)] as Uint32Array;
			const off = this.blk(list, B_OFFSET);
			const at = lowerBound(data, off, off + n, from);
			let w = at;
			let r = at;
			for (; r < off + n && (data[r] ?? 0) < to; r++) {
				const v = data[r] ?? 0;
				if (!drop(v)) data[w++] = v;
			}
			scanned = r - at;
			if (r > w) {
				data.copyWithin(w, r, off + n);
				this.shrunk(list, n - (r - w));
			}
		}
		return { held: lazy ? this.lazyHolds(list, from, to) : this.blk(list, B_LENGTH) > 0, scanned };
	}

	/** The list's block now holds `left` entries: an emptied block is freed, one at a quarter moves down. */
	private shrunk(list: number, left: number): void {
		this.setBlk(list, B_LENGTH, left);
		const c = this.blk(list, B_HELD) - 1;
		if (left === 0) {
			if (c >= 0) this.release(this.blk(list, B_PAGE), this.blk(list, B_OFFSET), c);
			this.setBlk(list, B_HELD, 0);
			this.dropRec(list);
		} else if (c > 3 && left <= sizeOf(c) / 4) this.move(list, left, classFor(left * 2));
	}

	/** Replaces the list's entries (a loaded index fills each list once). */
	fill(list: number, values: ArrayLike<number>): void {
		this.touch(list);
		this.clear(list);
		if (values.length === 0) return;
		this.move(list, 0, classFor(values.length));
		(this.pages[this.blk(list, B_PAGE)] as Uint32Array).set(values, this.blk(list, B_OFFSET));
		this.setBlk(list, B_LENGTH, values.length);
	}

	/** Frees the list's block. */
	clear(list: number): void {
		this.mutations++;
		this.forget(list);
		const held = this.blk(list, B_HELD);
		if (held > 0) this.release(this.blk(list, B_PAGE), this.blk(list, B_OFFSET), held - 1);
		this.setBlk(list, B_LENGTH, 0);
		this.setBlk(list, B_HELD, 0);
		this.dropRec(list);
	}

	/** Moves the list's first `keep` entries into a new block of class `c`. */
	private move(list: number, keep: number, c: number): void {
		const [page, off] = this.alloc(c);
		const held = this.blk(list, B_HELD);
		if (held > 0) {
			const oldPage = this.blk(list, B_PAGE);
			const oldOff = this.blk(list, B_OFFSET);
			if (keep > 0) (this.pages[page] as Uint32Array).set((this.pages[oldPage] as Uint32Array).subarray(oldOff, oldOff + keep), off);
			this.release(oldPage, oldOff, held - 1);
		}
		// HELD first: it is never 0, so the list has its record before its page and offset (which may be) are set.
		this.setBlk(list, B_HELD, c + 1);
		this.setBlk(list, B_PAGE, page);
		this.setBlk(list, B_OFFSET, off);
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
			this.pageBytes += size * 4;
			return [this.pages.length - 1, 0];
		}
		if (this.used + size > this.cap) {
			// The rest of the page goes to the free lists, cut into power-of-two blocks.
			if (this.shared >= 0) this.freeRange(this.shared * PAGE + this.used, this.cap - this.used);
			// Shared pages double from FIRST_PAGE: a loaded index's first re-index (its first blocks) or a
			// small vault does not zero a 4 MB page. Locations stay page × PAGE + offset.
			this.cap = Math.min(PAGE, Math.max(this.cap * 2, FIRST_PAGE, size));
			this.pages.push(new Uint32Array(this.cap));
			this.pageBytes += this.cap * 4;
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
			this.pageBytes -= (this.pages[page] as Uint32Array).byteLength;
			this.pages[page] = new Uint32Array(0);
			return;
		}
		this.free[c]?.push(page * PAGE + off);
	}
}
