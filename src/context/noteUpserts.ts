// Changing the vault index one note at a time: upsert (cut into passages, analyzed, staged, then
// switched live in one step, the old version's postings dropped after) and remove, each also as
// steps for indexInSlices; the size limit past which a note is indexed in part.
import { encodeTermIdsSteps, textHashSteps } from "./noteTerms";
import { compactTextSteps } from "./noteText";
import { cutPassagesSteps, type Passage } from "./passages";
import { appendIndexTerms, appendTerms } from "./terms";
import { TF_SLOTS } from "./noteIndexFormat";
import { StoredNoteTables } from "./noteIndexStore";
import { STAGE_POSTINGS, type NoteRecord } from "./noteTables";
import { drain, type Steps } from "./steps";
import type { PagedList } from "./paged";

/**
 * Terms staged in a note's first step; each next step doubles it, up to STAGE_POSTINGS. Code that
 * has not run yet runs several times slower (interpreted, before the JIT has compiled it), and
 * the first steps of an index also make its first pages: a CJK note's first step of STAGE_POSTINGS
 * pairs took 87 ms where the others took 8 (a loaded 2-core machine).
 */
const FIRST_STAGE_POSTINGS = 500;

/** Characters of passages analyzed between two steps of a sliced upsert (a few ms, CJK included). */
const STEP_CHARS = 16_000;

/** Notes longer than this many characters are indexed in part (their first this-many), by default. */
export const DEFAULT_INDEX_NOTE_CHARS = 4 * 1024 * 1024;

/** Where a note longer than `limit` is cut for the index: at a line end near the limit, never inside a surrogate pair. */
export function indexedLength(text: string, limit: number): number {
	if (text.length <= limit) return text.length;
	// A line end within 4,096 characters of the limit (looked for there only: lastIndexOf would search a line-less note back to its start).
	let nl = -1;
	for (let i = limit - 1; i >= Math.max(1, limit - 4096); i--) {
		if (text.charCodeAt(i) === 10) {
			nl = i;
			break;
		}
	}
	if (nl > 0) return nl + 1;
	const c = text.charCodeAt(limit - 1);
	return c >= 0xd800 && c <= 0xdbff ? limit - 1 : limit;
}

export class NoteUpserts extends StoredNoteTables {
	/** Notes longer than this are indexed in part (their first this-many characters). */
	maxNoteChars = DEFAULT_INDEX_NOTE_CHARS;

	/** Indexes a note's passages; a note already indexed under `id` is replaced. */
	upsert(id: string, text: string, name: string = defaultName(id), mtime?: number): void {
		drain(this.upsertSteps(id, text, name, mtime));
	}

	/**
	 * `upsert` as steps of about STEP_CHARS characters each (indexInSlices runs them between yields).
	 * The index changes only in the last step. If the note is upserted or removed by someone else
	 * while these steps wait, that newer change wins and these steps change nothing.
	 */
	*upsertSteps(id: string, fullText: string, name: string = defaultName(id), mtime?: number): Steps<void> {
		// The change started last wins, whichever finishes first (a vault event during a build).
		const ticket = ++this.tickets;
		this.latest.set(id, ticket);
		const superseded = (): boolean => this.latest.get(id) !== ticket || this.notes.get(id) !== old;
		const old = this.notes.get(id);
		// Past the size limit only the note's start is indexed (searched, and kept for the hits' text).
		const cut = indexedLength(fullText, Math.max(1, Math.floor(this.maxNoteChars)));
		const text = cut < fullText.length ? fullText.slice(0, cut) : fullText;
		const passages = yield* cutPassagesSteps(text);
		if (text.length > STEP_CHARS) yield;
		// The new version's postings go in step by step, under passages no search sees yet (staged),
		// a chunk of passages analyzed and staged at a time (the whole note's terms are never held at
		// once: millions of strings for a 16 MB note); one step then switches the note (the old
		// version's passages hidden, the new ones live), and the old postings are removed step by
		// step after. A search sees the old note or the new one. The staged note has its slot at once
		// (its passages get it when `show` makes them live).
		const note = this.newNote(id, name, undefined, text.length, mtime, 0);
		let live = false;
		let dropped = false;
		try {
			// The note's name and folders count as terms of each of its passages.
			const fieldTerms: string[] = [];
			appendTerms(fieldsOf(id, name), fieldTerms);
			const pace = { budget: FIRST_STAGE_POSTINGS };
			const seen = new SeenTerms();
			for (let from = 0; from < passages.length; ) {
				const to = chunkEnd(passages, from);
				yield* this.stageSteps(note, text, fieldTerms, passages.slice(from, to), pace, seen);
				from = to;
				if (from < passages.length) yield;
				if (superseded()) break;
			}
			if (!superseded()) {
				note.body = this.keepText ? yield* compactTextSteps(text) : undefined;
				note.hash = yield* textHashSteps(text);
				if (text.length > STEP_CHARS) yield;
			}
			// Its term ids in their compact form before it goes live (millions of them, for a huge note: in steps).
			if (!superseded()) note.terms = yield* encodeTermIdsSteps(note.terms as PagedList, this.termIds.idBound);
			if (superseded()) {
				// Someone else's change wins: this version's staged postings go, in steps too.
				dropped = true;
				yield* this.dropSteps(note);
				return;
			}
			if (old) this.hide(old);
			this.show(note);
			live = true;
			this.latest.delete(id);
			if (cut < fullText.length) this.partial.set(id, fullText.length);
			else this.partial.delete(id);
		} finally {
			// Abandoned between two steps (a stopped build): its staged postings go.
			if (!live && !dropped) drain(this.dropSteps(note));
		}
		if (old) yield* this.dropSteps(old);
	}

	/** The part of a note's text this index indexes (all of it, unless it is over maxNoteChars). */
	indexedPart(text: string): string {
		const cut = indexedLength(text, Math.max(1, Math.floor(this.maxNoteChars)));
		return cut < text.length ? text.slice(0, cut) : text;
	}

	/** The full length of a note indexed in part (over `maxNoteChars`), or undefined when it was indexed whole. */
	partialLength(id: string): number | undefined {
		return this.notes.has(id) ? this.partial.get(id) : undefined;
	}

	/** Notes indexed in part: id and full length. */
	partialNotes(): { id: string; chars: number }[] {
		return [...this.partial].filter(([id]) => this.notes.has(id)).map(([id, chars]) => ({ id, chars }));
	}

	/**
	 * Adds the note's passages and postings, not yet live (search skips them), yielding every
	 * STAGE_POSTINGS terms. A passage's terms are analyzed and turned into term ids in the step that
	 * posts them (a term made for it could otherwise lose its id to another note's removal between two
	 * steps), CJK pairs straight from their characters (appendIndexTerms: no string per pair). A term
	 * this note has already posted keeps its id (its list holds this note's posting, so no removal
	 * frees it): `seen` gives it without a lookup in the vault's term table.
	 */
	private *stageSteps(note: NoteRecord, text: string, fieldTerms: readonly string[], passages: readonly Passage[], pace: { budget: number }, seen: SeenTerms): Steps<void> {
		const ids: number[] = [];
		let sorted = new Int32Array(256);
		const word = (term: string): number => {
			let id = seen.words.get(term);
			if (id === undefined) {
				id = this.termId(term);
				this.listTerm(note, id);
				seen.addWord(term, id);
			}
			return id;
		};
		const words = { push: (term: string): void => void ids.push(word(term)) };
		const pairs = (a: number, b: number): void => {
			const key = a * 0x10000 + b;
			let id = seen.pairs.get(key);
			if (id === undefined) {
				id = this.pairId(a, b);
				this.listTerm(note, id);
				seen.addPair(key, id);
			}
			ids.push(id);
		};
		let work = 0;
		for (const p of passages) {
			ids.length = 0;
			for (const term of fieldTerms) ids.push(word(term));
			appendIndexTerms(p.headingPath, words, pairs);
			appendIndexTerms(text.slice(p.start, p.end), words, pairs);
			const doc = this.addDoc(note, p.start, p.end, p.headingPath, ids.length);
			// Each distinct term once, with its count: the ids sorted, then counted in runs.
			if (sorted.length < ids.length) sorted = new Int32Array(ids.length * 2);
			const run = sorted.subarray(0, ids.length);
			run.set(ids);
			run.sort();
			for (let i = 0; i < run.length; ) {
				const t = run[i] as number;
				let j = i + 1;
				while (j < run.length && run[j] === t) j++;
				this.pool.insert(t, doc * TF_SLOTS + Math.min(j - i, TF_SLOTS - 1));
				i = j;
			}
			work += ids.length + 8;
			if (work >= pace.budget) {
				work = 0;
				pace.budget = Math.min(STAGE_POSTINGS, pace.budget * 2);
				yield;
			}
		}
	}

	/** Drops a note and all its passages (nothing if it is not indexed). */
	remove(id: string): void {
		drain(this.removeSteps(id));
	}

	/** `remove` as steps: the note leaves search at once, its postings go step by step. Wins over any upsert of it still running. */
	*removeSteps(id: string): Steps<void> {
		const ticket = ++this.tickets;
		this.latest.set(id, ticket);
		const note = this.notes.get(id);
		// An upsert started meanwhile wins.
		if (note && note.chars > STEP_CHARS) yield;
		if (this.latest.get(id) !== ticket) return;
		this.latest.delete(id);
		if (!note || this.notes.get(id) !== note) return;
		this.partial.delete(id);
		this.hide(note);
		yield* this.dropSteps(note);
	}
}

/** Terms seen in a note while it is staged, a map each for words and packed pairs, kept under SEEN_MAX (a JS map rehashes whole as it grows). */
const SEEN_MAX = 1 << 15;

/** The term ids a staged note has already looked up and listed (each id is in its list of terms). */
class SeenTerms {
	words = new Map<string, number>();
	pairs = new Map<number, number>();
	addWord(term: string, id: number): void {
		if (this.words.size >= SEEN_MAX) this.words = new Map();
		this.words.set(term, id);
	}
	addPair(key: number, id: number): void {
		if (this.pairs.size >= SEEN_MAX) this.pairs = new Map();
		this.pairs.set(key, id);
	}
}

/** The end of the chunk of passages from `from` analyzed in one step: about STEP_CHARS characters, at least one passage. */
function chunkEnd(passages: readonly Passage[], from: number): number {
	const stop = (passages[from]?.start ?? 0) + STEP_CHARS;
	let to = from + 1;
	while (to < passages.length && (passages[to]?.end ?? 0) <= stop) to++;
	return to;
}

/** What every passage of a note is also about: its name and the folders on its path. */
function fieldsOf(id: string, name: string): string {
	const slash = id.lastIndexOf("/");
	return slash < 0 ? name : `${name} ${id.slice(0, slash)}`;
}

/** A note's name from its path: "Folder/My note.md" → "My note". */
export function defaultName(id: string): string {
	const base = id.slice(id.lastIndexOf("/") + 1);
	return base.replace(/\.md$/i, "");
}
