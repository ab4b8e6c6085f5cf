// From ranked notes to search hits: a query that is a phrase lifts the notes that hold it verbatim,
// then each note gives its best passages. The index may keep no texts (NoteIndex keepText off, as
// the app's index service runs it, so 100,000 notes do not hold the vault's text in memory twice):
// `searchWithText` then reads each hit's note back, and a note whose text is not the one indexed
// (its hash differs: edited since, and its modify event not yet indexed) is re-indexed and the
// search run again, rather than cutting the new text at the old offsets.
import type { NoteIndex, NoteSearchHit } from "./NoteIndex";
import { textHash } from "./noteTerms";
import { foldWord } from "./terms";

export interface Candidate {
	id: string;
	name: string;
	score: number;
	/** textHash of the text the note was indexed from, and its length. */
	hash: number;
	chars: number;
	/** Its passages that hold a query term, best first. */
	passages: { start: number; end: number }[];
}

/** The query as a phrase to look for verbatim: four words or more (CJK: eight characters or more), lower-cased; else undefined. */
export function quotedPhrase(query: string): string | undefined {
	const q = query.trim().replace(/\s+/g, " ").toLowerCase();
	const words = q.split(" ").length;
	const cjk = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/.test(q);
	return words >= 4 || (cjk && q.length >= 8) ? q : undefined;
}

/**
 * A query that is a run of words of a note (pasted, or recalled exactly): the notes that hold it
 * verbatim (case aside) go first, in the order they had. `text` gives a note's text (undefined: not
 * known, not lifted).
 */
export function liftPhrase(candidates: Candidate[], phrase: string, text: (c: Candidate) => string | undefined): void {
	const lift = candidates[0]?.score ?? 0;
	const order = new Map(candidates.map((c, i) => [c, i]));
	const holds = phraseMatcher(phrase);
	for (const c of candidates) {
		const body = text(c);
		if (body !== undefined && holds(body)) c.score += lift;
	}
	candidates.sort((a, b) => b.score - a.score || (order.get(a) ?? 0) - (order.get(b) ?? 0));
}

/** Notes whose names are checked against the query (the best this many by score): see liftTitles. */
export const TITLE_CANDIDATES = 100;
/** A query of fewer letters than this is not matched against names: a few letters are in order in many names. */
const TITLE_MIN_LETTERS = 4;
/**
 * Per UTF-16 unit, what it folds to (terms.ts foldWord, one character at a time) if that is one
 * letter or digit: its unit; −1 nothing (not a letter); −2 not looked at yet; −3 several units, in
 * FOLD_MANY (ß → ss). Filled as characters are first seen: names and headings are folded a hundred
 * a query, and foldWord's normalizing of a whole string cost more than the ranking of them.
 */
const FOLD_ONE = new Int32Array(0x10000).fill(-2);
const FOLD_MANY = new Map<number, number[]>();
const LETTER = /[\p{L}\p{N}]/u;

function foldUnit(c: number): number {
	// Half of a surrogate pair: kept as it is (a character outside the BMP is its two units).
	if (c >= 0xd800 && c <= 0xdfff) return c;
	const units: number[] = [];
	for (const ch of foldWord(String.fromCharCode(c))) if (LETTER.test(ch)) for (let i = 0; i < ch.length; i++) units.push(ch.charCodeAt(i));
	if (units.length === 1) return units[0] as number;
	if (units.length === 0) return -1;
	FOLD_MANY.set(c, units);
	return -3;
}

/**
 * The letters and digits of a text, lower-cased and accent-folded a character at a time, as UTF-16
 * units in `out` (grown as needed); returns them and their count. Typed and reused: arrays of
 * one-character strings cost more than the ranking of the notes they were read for.
 */
function letters(text: string, out: Int32Array): [Int32Array, number] {
	// Folding one character gives at most three units.
	if (out.length < 3 * text.length) out = new Int32Array(3 * text.length + 16);
	let n = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c < 0x80) {
			if (c >= 0x61 && c <= 0x7a) out[n++] = c;
			else if (c >= 0x41 && c <= 0x5a) out[n++] = c + 32;
			else if (c >= 0x30 && c <= 0x39) out[n++] = c;
			continue;
		}
		let f = FOLD_ONE[c] as number;
		if (f === -2) {
			f = foldUnit(c);
			FOLD_ONE[c] = f;
		}
		if (f >= 0) out[n++] = f;
		else if (f === -3) for (const u of FOLD_MANY.get(c) ?? []) out[n++] = u;
	}
	return [out, n];
}

/** Per query letter, where the name's letters after it start (greedy from the front), and where those that hold it and the rest start (greedy from the back). */
let front = new Int32Array(64);
let back = new Int32Array(64);

/**
 * Whether the first `nn` letters of `name` hold the first `qn` of `query` in order, all of them or
 * (`allowed` 1) all but one: the longest common subsequence is at least qn − allowed. Two greedy
 * passes, not the quadratic table: leaving out letter i works when the letters before it fit in the
 * name before where the letters after it can start.
 */
export function holdsInOrder(query: Int32Array, qn: number, name: Int32Array, nn: number, allowed: 0 | 1): boolean {
	if (front.length <= qn) {
		front = new Int32Array(qn * 2 + 2);
		back = new Int32Array(qn * 2 + 2);
	}
	// front[i]: the name's letters used by query[0, i), greedily (nn + 1: they do not fit).
	front[0] = 0;
	for (let i = 0, at = 0; i < qn; i++) {
		if (at > nn) {
			front[i + 1] = nn + 1;
			continue;
		}
		const q = query[i] as number;
		while (at < nn && name[at] !== q) at++;
		at = at < nn ? at + 1 : nn + 1;
		front[i + 1] = at;
	}
	if ((front[qn] as number) <= nn) return true;
	if (allowed === 0) return false;
	// back[i]: the latest start in the name from which query[i, qn) fits (−1: it does not).
	back[qn] = nn;
	for (let i = qn - 1, at = nn; i >= 0; i--) {
		if (at < 0) {
			back[i] = -1;
			continue;
		}
		const q = query[i] as number;
		at--;
		while (at >= 0 && name[at] !== q) at--;
		back[i] = at;
	}
	for (let i = 0; i < qn; i++) if ((front[i] as number) <= nn && (back[i + 1] as number) >= (front[i] as number)) return true;
	return false;
}

/** holdsInOrder of two texts' letters (for tests). */
export function holdsInOrderOf(query: string, name: string, allowed: 0 | 1): boolean {
	const [q, qn] = letters(query, new Int32Array(0));
	const [n, nn] = letters(name, new Int32Array(0));
	return holdsInOrder(q, qn, n, nn, allowed);
}

let nameLetters: Int32Array = new Int32Array(64);

/**
 * A query that is a note's name as a person recalls it: the notes whose names hold the query's
 * letters in order, all of them or all but one, go first, in the order they had. Recalling a name
 * means recalling some of its words, in order, with one letter wrong at times; one wrong Han, kana
 * or Hangul character changes both character pairs it is in (a four-character name keeps one of its
 * three), so the right note's terms often score below notes that share two pairs of the name by
 * chance, while its name still holds every other character of the query (fuzzy finders such as
 * Obsidian's quick switcher match names the same way). Spaces and punctuation do not count.
 * A query that is one of a note's headings (`headings`: heading paths, "# A > ## B", of the note's
 * best passages), the whole heading but for one letter, lifts it too: a heading's words are common
 * ones, which many notes hold in their text as well.
 */
export function liftTitles(candidates: { name: string; score: number; headings?: () => Iterable<string> }[], query: string): number {
	const [q, qn] = letters(query, new Int32Array(query.length));
	if (qn < TITLE_MIN_LETTERS || candidates.length === 0) return 0;
	const lift = candidates[0]?.score ?? 0;
	const order = new Map(candidates.map((c, i) => [c, i]));
	// One letter may be wrong (changed, added or two swapped), from six letters up: a shorter query
	// matches too many names with a letter left out.
	const allowed = qn >= 6 ? 1 : 0;
	let lifted = 0;
	for (const c of candidates) {
		if (!holdsQuery(c.name, q, qn, allowed) && !isHeading(c.headings?.() ?? [], q, qn, allowed)) continue;
		c.score += lift;
		lifted++;
	}
	if (lifted > 0) candidates.sort((a, b) => b.score - a.score || (order.get(a) ?? 0) - (order.get(b) ?? 0));
	return lifted;
}

/** Whether `text`'s letters hold the query's in order, but for `allowed`. */
function holdsQuery(text: string, q: Int32Array, qn: number, allowed: 0 | 1): boolean {
	// Folding gives at most three units a character (letters): a text too short even so is not read (a phrase's notes).
	if (3 * text.length + allowed < qn) return false;
	const [t, tn] = letters(text, nameLetters);
	nameLetters = t;
	return tn + allowed >= qn && holdsInOrder(q, qn, t, tn, allowed);
}

/** Whether one heading of these paths is the query: its letters hold the query's in order, but for `allowed`, and are no more than one longer. */
function isHeading(paths: Iterable<string>, q: Int32Array, qn: number, allowed: 0 | 1): boolean {
	for (const path of paths) {
		if (path === "") continue;
		for (const heading of path.split(" > ")) {
			// Far longer than the query: more letters than it has, but for a heading of mostly punctuation.
			if (heading.length > 2 * (qn + allowed) + 8) continue;
			const [t, tn] = letters(heading, nameLetters);
			nameLetters = t;
			if (tn <= qn + allowed && tn + allowed >= qn && holdsInOrder(q, qn, t, tn, allowed)) return true;
		}
	}
	return false;
}

/**
 * The `wanted` notes a phrase is looked for in: the first `keep` (lifted by their names), then those
 * whose best passage scores highest, in the order they had. A phrase is in one passage, which holds
 * all its words: a note's score adds each word's best passage wherever it is, so notes that have
 * the phrase's common words in different passages (in the known-item vault, every note of the
 * language) outscored the one passage that has them all, and the note that holds the phrase was
 * not among those checked (Korean phrases at 30,000 notes: 10th to 66th by note, 1st by passage).
 */
export function phraseCandidates<T>(ranked: readonly T[], wanted: number, keep: number, bestPassage: (c: T) => number): T[] {
	if (ranked.length <= wanted) return [...ranked];
	const rest = ranked.slice(keep).map((c, i) => ({ c, i, best: bestPassage(c) }));
	rest.sort((a, b) => b.best - a.best || a.i - b.i);
	const chosen = rest.slice(0, Math.max(0, wanted - keep));
	chosen.sort((a, b) => a.i - b.i);
	return [...ranked.slice(0, keep), ...chosen.map(({ c }) => c)];
}

/**
 * Whether a text holds `phrase` (lower case, words one space apart, as quotedPhrase gives it), case
 * aside and with any run of white space where the phrase has a space: a phrase recalled across a
 * line break or a double space still matches. One pattern for the phrase, run over each text as it
 * is: no lower-cased copy of every candidate's whole text (those copies were a third of a phrase
 * query's time). Case is compared by Unicode case folding (the `iu` flags).
 */
export function phraseMatcher(phrase: string): (text: string) => boolean {
	const words = phrase.split(" ").filter((w) => w !== "");
	if (words.length === 0) return () => true;
	const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("\\s+"), "iu");
	return (text) => pattern.test(text);
}

/** Up to `limit` hits: each note's best `perNote` passages, notes best first; every hit's score is its note's. */
export function hitsOf(candidates: readonly Candidate[], limit: number, perNote: number, text: (c: Candidate) => string | undefined): NoteSearchHit[] {
	const out: NoteSearchHit[] = [];
	for (const c of candidates) {
		if (out.length >= limit) break;
		const body = text(c) ?? "";
		for (const p of c.passages.slice(0, Math.min(perNote, limit - out.length))) out.push({ id: c.id, name: c.name, score: c.score, text: body.slice(p.start, p.end), start: p.start, end: p.end });
	}
	return out;
}

/** A note as read from the vault now (undefined: it is gone). */
export type ReadNote = (id: string) => Promise<{ text: string; mtime?: number } | undefined>;

/** The notes hitsOf takes its hits from: the first ones, until `limit` passages. */
function notesUsed(candidates: readonly Candidate[], limit: number, perNote: number): Candidate[] {
	const used: Candidate[] = [];
	let hits = 0;
	for (const c of candidates) {
		if (hits >= limit) break;
		used.push(c);
		hits += Math.min(perNote, limit - hits, c.passages.length);
	}
	return used;
}

/**
 * `index.search` with each hit's text read from the vault (for an index that keeps no texts; one
 * that does answers the same). A note whose passages are cut from the text read back, and whose text
 * is not the one indexed, is re-indexed first (`reindex`, default index.upsert) and the search run
 * again, once; a note gone from the vault is left out. Only those notes are hashed: a phrase reads 50
 * candidates back to look for it, and hashing them all was 18% of the known-item queries' time at
 * 10,000 notes (most of it in phrase queries); a candidate the hits do not use is re-indexed by its
 * own modify event.
 */
export async function searchWithText(index: NoteIndex, query: string, read: ReadNote, opts: { limit?: number; perNote?: number; reindex?: (id: string, text: string, mtime: number | undefined) => Promise<void> } = {}): Promise<NoteSearchHit[]> {
	const limit = Math.max(0, Math.floor(opts.limit ?? 10));
	const perNote = Math.max(1, Math.floor(opts.perNote ?? 3));
	const phrase = quotedPhrase(query);
	const reindex = opts.reindex ?? ((id: string, text: string, mtime: number | undefined): Promise<void> => Promise.resolve(index.upsert(id, text, undefined, mtime)));
	for (let round = 0; ; round++) {
		const candidates = index.candidates(query, limit, phrase !== undefined);
		// Without a phrase only the notes that give hits are read: at most `limit` of them.
		const wanted = phrase ? candidates : candidates.slice(0, limit);
		// Per candidate: its text as indexed (a note over the size limit in part), and as read.
		const texts = new Map<Candidate, { text: string; read: { text: string; mtime?: number } } | undefined>();
		await Promise.all(
			wanted.map(async (c) => {
				const note = await read(c.id);
				texts.set(c, note && { text: index.indexedPart(note.text), read: note });
			}),
		);
		const text = (c: Candidate): string | undefined => texts.get(c)?.text;
		let known = wanted.filter((c) => texts.get(c) !== undefined);
		if (phrase) liftPhrase(known, phrase, text);
		const stale: { id: string; text: string; mtime: number | undefined }[] = [];
		const checked = new Set<Candidate>();
		for (;;) {
			const changed = notesUsed(known, limit, perNote).filter((c) => {
				if (checked.has(c)) return false;
				checked.add(c);
				const indexed = text(c) ?? "";
				return indexed.length !== c.chars || textHash(indexed) !== c.hash;
			});
			if (changed.length === 0) break;
			for (const c of changed) {
				const note = texts.get(c)?.read;
				if (note) stale.push({ id: c.id, text: note.text, mtime: note.mtime });
			}
			if (round > 0) known = known.filter((c) => !changed.includes(c));
			else break;
		}
		if (stale.length > 0 && round === 0) {
			for (const s of stale) await reindex(s.id, s.text, s.mtime);
			continue;
		}
		return hitsOf(known, limit, perNote, text);
	}
}
