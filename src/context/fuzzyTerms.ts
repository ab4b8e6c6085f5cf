// Misspelled query words: a word of the query that no note has (and that is long enough to be a
// word, not a code) is looked up again at one edit (a letter dropped, added, changed, or two
// neighbours swapped), over its script's alphabet. Bounded: a 12-letter Latin word makes about 900
// lookups in the term table, well under a millisecond, so queries stay fast at any vault size.
// Han, kana and Hangul terms are character pairs, and one wrong character in the middle of a word
// breaks both pairs it is in (a three-character name loses all of its terms). A query pair no note
// has, "PQ", is looked up again as P followed by a character Y that some note has after P (the
// index keeps, per character, the characters that follow it in its pairs: `followers`), where Y also
// joins the query's next character (PY and YR known: Q was mistyped as Y's neighbour) or Q itself
// (PY and YQ known: Y was left out). Both pairs known makes a one-character correction, not noise.
import type { WeightedQuery } from "./bm25";
import { PREFIX_MARK } from "./terms";

/** A variant at one edit counts this much of the word as typed. */
export const FUZZY_WEIGHT = 0.8;
/** Words shorter than this are not corrected: at three letters, one edit reaches half the vocabulary. */
export const FUZZY_MIN_LENGTH = 4;
/** At most this many variants per word (the first found). */
const MAX_VARIANTS = 6;

const LATIN = "abcdefghijklmnopqrstuvwxyz0123456789";
const CYRILLIC = "абвгдежзийклмнопрстуфхцчшщъыьэюяіїєґў";
const GREEK = "αβγδεζηθικλμνξοπρστυφχψω";

function alphabetOf(word: string): string | undefined {
	if (/^[a-z0-9]+$/.test(word)) return LATIN;
	if (/^[\u0400-\u04ff]+$/.test(word)) return CYRILLIC;
	if (/^[\u0370-\u03ff]+$/.test(word)) return GREEK;
	return undefined;
}

/** The words at one edit from `word` that `known` holds, at most MAX_VARIANTS. */
export function oneEditVariants(word: string, known: { has(term: string): boolean }): string[] {
	const alphabet = alphabetOf(word);
	if (!alphabet || word.length < FUZZY_MIN_LENGTH) return [];
	const found = new Set<string>();
	const consider = (w: string): boolean => {
		if (w !== word && w.length >= FUZZY_MIN_LENGTH - 1 && known.has(w)) found.add(w);
		return found.size >= MAX_VARIANTS;
	};
	const n = word.length;
	for (let i = 0; i < n; i++) if (consider(word.slice(0, i) + word.slice(i + 1))) return [...found];
	for (let i = 0; i + 1 < n; i++) if (consider(word.slice(0, i) + (word[i + 1] ?? "") + (word[i] ?? "") + word.slice(i + 2))) return [...found];
	for (let i = 0; i < n; i++) for (const c of alphabet) if (c !== word[i] && consider(word.slice(0, i) + c + word.slice(i + 1))) return [...found];
	for (let i = 0; i <= n; i++) for (const c of alphabet) if (consider(word.slice(0, i) + c + word.slice(i))) return [...found];
	return [...found];
}

/** A term that is a pair of Han, kana or Hangul characters (the CJK terms). */
export function isCjkPair(term: string): boolean {
	return term.length === 2 && isCjkCode(term.charCodeAt(0)) && isCjkCode(term.charCodeAt(1));
}

/** isCjkPair of the two-unit term a b, from its units. */
export function isCjkPairUnits(a: number, b: number): boolean {
	return isCjkCode(a) && isCjkCode(b);
}

/** Kana, CJK ideographs (with extension A and the compatibility block) and Hangul syllables (a regex per character cost more than the pair's lookup). */
function isCjkCode(c: number): boolean {
	return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xac00 && c <= 0xd7af);
}

/** Known pairs at one character from the unknown pair `pq` of `query` (see the header), at most 2 × MAX_VARIANTS pairs. */
function cjkVariants(pq: string, query: WeightedQuery, known: { has(term: string): boolean }, followers: (c: string) => Iterable<string> | undefined): string[] {
	const p = pq[0] ?? "";
	const q = pq[1] ?? "";
	const next: string[] = [];
	for (const t of query.keys()) if (isCjkPair(t) && t[0] === q) next.push(t[1] ?? "");
	const found: string[] = [];
	for (const y of followers(p) ?? []) {
		if (y === q) continue;
		const joined = next.find((r) => known.has(y + r));
		if (joined !== undefined) found.push(p + y, y + joined);
		else if (known.has(y + q)) found.push(p + y, y + q);
		if (found.length >= 2 * MAX_VARIANTS) break;
	}
	return found;
}

/**
 * `query` plus, for each whole word no note has, its one-edit variants that some note has; and for
 * each CJK pair no note has, its one-character corrections (when `followers` is given).
 */
export function expandMisspelled(query: WeightedQuery, known: { has(term: string): boolean }, followers?: (c: string) => Iterable<string> | undefined): WeightedQuery {
	let out: WeightedQuery | undefined;
	for (const [term, weight] of query) {
		if (term.endsWith(PREFIX_MARK) || known.has(term)) continue;
		const variants = followers && isCjkPair(term) ? cjkVariants(term, query, known, followers) : oneEditVariants(term, known);
		for (const v of variants) {
			out ??= new Map(query);
			out.set(v, Math.max(out.get(v) ?? 0, weight * FUZZY_WEIGHT));
		}
	}
	return out ?? query;
}
