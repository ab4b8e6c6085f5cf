// The vault index as its saved forms see it (IndexStore, noteIndexFormat.ts): what is written
// (notes, passages, live terms' postings) and what a load fills in: notes with their saved term ids
// and terms whose postings stay in the saved bytes (format 5: loadSavedTerm), or, from format 4 and
// JSON, terms with their postings (loadTerm) and each note's term ids derived from them in finishLoad.
import { encodeTermIds } from "./noteTerms";
import { TF_SLOTS, type IndexStore, type SavedPassage } from "./noteIndexFormat";
import type { PostingSource } from "./lazyPostings";
import { NoteTables, STAGE_POSTINGS, type NoteRecord } from "./noteTables";
import type { Steps } from "./steps";
import { PagedInt32 } from "./paged";

/** (note, term) pairs counted or placed between two steps of finishLoad. */
const LOAD_PAIRS_STEP = 200_000;

export class StoredNoteTables extends NoteTables implements IndexStore {
	/** @internal Notes in insertion order. */
	savedNotes(): Iterable<NoteRecord> {
		return this.notes.values();
	}

	/** @internal A note's passages as saved. */
	savedPassages(note: NoteRecord): SavedPassage[] {
		return note.docs.map((doc) => ({ start: this.docStart.get(doc), end: this.docEnd.get(doc), length: this.docLength.get(doc), headingPath: this.docPath[doc] ?? "" }));
	}

	/** @internal Every live term with its postings (internal passage ids × TF_SLOTS + tf) and id, in id order. */
	*savedTerms(): Generator<[string, Uint32Array, number]> {
		for (const [term, id] of this.termIds.entries()) {
			// A list still in the loaded bytes is read, not kept decoded.
			let list = this.pool.peek(id);
			// While a note is staged or being removed, its postings are not part of the saved state.
			if (this.hiddenDocs > 0) list = list.filter((v) => this.docSlot.get(Math.floor(v / TF_SLOTS)) >= 0);
			// (Also a damaged file's term whose saved entries were all retired without it being found empty.)
			if (list.length === 0) continue;
			yield [term, list, id];
		}
	}

	/** @internal Every term id is below this. */
	get termSlots(): number {
		return this.termIds.idBound;
	}

	/** @internal A live note's term ids as delta varints. */
	savedTermIds(note: NoteRecord): Uint8Array {
		return note.terms instanceof Uint8Array ? note.terms : encodeTermIds(note.terms);
	}

	/** @internal The highest internal passage id + 1. */
	get passageSlots(): number {
		return this.docSlot.length;
	}

	/** @internal Adds a saved note with its passages; returns the note. */
	loadNote(id: string, name: string, body: string | Uint8Array | undefined, chars: number, mtime: number | undefined, passages: readonly SavedPassage[], hash: number, termIds?: Uint8Array): void {
		// Without saved term ids (format 4, JSON), finishLoad derives them from the postings.
		const note = this.newNote(id, name, this.keepText ? body : undefined, chars, mtime, hash, termIds ?? new Uint8Array(0));
		for (const p of passages) this.addDoc(note, p.start, p.end, p.headingPath, p.length);
		this.show(note);
		this.changes--;
	}

	/** @internal Sets a saved term's postings (passage ids as loaded). */
	loadTerm(term: string, postings: ArrayLike<number>): void {
		const id = this.termId(term);
		this.pool.fill(id, postings);
		// These forms do not save each note's term ids: they are the terms whose postings name its passages.
		// The pairs go into paged columns (a pair array grown by doubling copied millions in one step).
		const pairs = this.loadPairs;
		let last = -1;
		for (let i = 0; i < postings.length; i++) {
			const doc = Math.floor((postings[i] ?? 0) / TF_SLOTS);
			const slot = doc < this.docSlot.length ? this.docSlot.get(doc) : -1;
			if (slot >= 0 && slot !== last) {
				pairs.slots.set(pairs.n, slot);
				pairs.terms.set(pairs.n++, id);
				last = slot;
			}
		}
	}

	/** @internal Before the first loadSavedTerm: where their postings are, and how many terms come. */
	startSavedTerms(source: PostingSource, terms: number): void {
		this.pool.setSource(source);
		this.termIds.reserve(terms);
	}

	/** @internal Adds a saved term whose postings are decoded when first used; returns its id (−1: it was there already). */
	loadSavedTerm(term: string, count: number, at: number, bytes: number): number {
		const id = this.addSavedTerm(term);
		if (id === undefined) return -1;
		this.pool.loadLazy(id, count, at, bytes);
		return id;
	}

	/** @internal After a format 4 or JSON load: each note's term ids (gathered by loadTerm) into their compact form. */
	*finishLoad(): Steps<void> {
		const { slots, terms, n } = this.loadPairs;
		this.loadPairs = { slots: new PagedInt32(), terms: new PagedInt32(), n: 0 };
		// Pairs grouped by note slot (a counting sort, LOAD_PAIRS_STEP pairs a step: millions at
		// 10,000 notes made one step of hundreds of milliseconds); within a note, term ids stay in load order.
		const start = new Uint32Array(this.slotNote.length + 1);
		for (let i = 0; i < n; i++) {
			const s = slots.get(i) + 1;
			start[s] = (start[s] ?? 0) + 1;
			if (i % LOAD_PAIRS_STEP === LOAD_PAIRS_STEP - 1) yield;
		}
		for (let s = 0; s < this.slotNote.length; s++) start[s + 1] = (start[s + 1] ?? 0) + (start[s] ?? 0);
		const at = start.slice(0, this.slotNote.length);
		const grouped = new Uint32Array(n);
		for (let i = 0; i < n; i++) {
			const s = slots.get(i);
			const k = at[s] ?? 0;
			grouped[k] = terms.get(i);
			at[s] = k + 1;
			if (i % LOAD_PAIRS_STEP === LOAD_PAIRS_STEP - 1) yield;
		}
		yield;
		let work = 0;
		for (let s = 0; s < this.slotNote.length; s++) {
			const note = this.slotNote[s];
			if (!note) continue;
			const ids = grouped.subarray(start[s], start[s + 1]);
			note.terms = encodeTermIds(ids);
			work += ids.length;
			if (work >= STAGE_POSTINGS * 10) {
				work = 0;
				yield;
			}
		}
	}
}
