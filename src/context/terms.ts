// The lexical analyzer every relevance score shares: text → search terms, in any script.
// - Latin, Greek, Cyrillic and other spaced scripts: words, lower-cased, accents folded (é → e,
//   ü → u, ß → ss, ё → е; й stays й: it is its own letter, not и with an accent).
// - Code identifiers: the whole identifier plus its camelCase / snake_case / kebab-case parts, so
//   "maxTokens" finds "max tokens" and the other way round.
// - Han, kana and Hangul have no spaces: overlapping character bigrams (a lone character is kept as
//   a unigram). bench/context.ts measured them against Intl.Segmenter words on the retrieval bench;
//   bigrams retrieved as well or better, are several times faster and need no ICU data on mobile.
// - A few very common words of English, German, French, Spanish and Russian are dropped.
// One scan over char codes; per-word work only for words that are not plain lower-case ASCII.
// The vault index takes CJK pairs as their two UTF-16 units (appendIndexTerms): no string is made
// per pair (a CJK note without punctuation has millions of distinct ones; termTable.ts keeps them
// packed). Every other term, and every term of `terms`/`appendTerms`, is a string.

const CJK = /[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]|[\ud840-\ud87f][\udc00-\udfff]/;
/** Accents of Latin, Greek and Cyrillic letters after NFD (other scripts' marks are vowels: kept). */
const ACCENTS = /[\u0300-\u036f]/g;
const SEPARATORS = /['’_-]+/;
/** camelCase boundaries: "parseHTTPResponse2" → parse, HTTP, Response, 2. */
const CAMEL_PART = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+|[\p{L}\p{M}]+/gu;
const CAMEL_PART_ASCII = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;
const HAS_UPPER_AFTER_LOWER = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}|\p{L}\p{N}|\p{N}\p{L}/u;
const NON_ASCII = /[^\u0020-\u007e]/;

const STOP_WORDS = new Set(
	(
		// English
		"a an and are as at be but by for from has have he her his i if in into is it its of on or our she so that the their them then there these they this to was we were what when which who will with you your " +
		// German (folded: für → fur)
		"aber als am auch auf aus bei bin bis das dass dem den der des die ein eine einem einen einer eines er es fur hat ich ihr im ist mit nach nicht noch nur oder sich sie sind so uber um und uns von vor war wie wir zu zum zur " +
		// French
		"au aux avec ce ces dans de des du elle en est et il ils je la le les leur lui ma mais me meme mes mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sur ta te tes toi ton tu un une vos votre vous " +
		// Spanish
		"al como con del el ella ellos es esta este fue ha las lo los mas mi muy no nos para pero por se si sin su sus tambien te tu una uno unos y ya " +
		// Russian (folded: ё → е)
		"а без бы был была были было в вам вас во вот все вы да для до его ее если есть еще же за и из или им их к как ко когда ли мне мы на над не нет но о об он она они оно от по при с со так то тоже только у уже что чтобы эта эти это я"
	).split(" "),
);

/** Lower-cased and accent-folded, keeping й (and Й) whole. */
export function foldWord(word: string): string {
	const lower = word.toLowerCase();
	if (!NON_ASCII.test(lower)) return lower;
	const decomposed = lower.replace(/ß/g, "ss").normalize("NFD");
	// The breve of и is what makes й a letter of its own; every other accent goes.
	const folded = decomposed.replace(ACCENTS, (mark, at: number) => (mark === "\u0306" && decomposed.charCodeAt(at - 1) === 0x438 ? mark : ""));
	return folded.normalize("NFC");
}

/** How CJK runs become terms. "bigram" is the default (see the header). */
export type CjkMode = "bigram" | "segmenter";

interface SegmenterLike {
	segment(text: string): Iterable<{ segment: string; isWordLike?: boolean }>;
}
let segmenter: SegmenterLike | null | undefined;
function wordSegmenter(): SegmenterLike | null {
	if (segmenter === undefined) {
		const ctor = (Intl as unknown as { Segmenter?: new (locale: string, opts: { granularity: string }) => SegmenterLike }).Segmenter;
		segmenter = ctor ? new ctor("ja", { granularity: "word" }) : null;
	}
	return segmenter;
}

/** Bigram strings by their two char codes: a CJK note repeats few thousand distinct pairs. */
let bigramCache = new Map<number, string>();
function bigram(a: number, b: number): string {
	const key = a * 0x10000 + b;
	let s = bigramCache.get(key);
	if (s === undefined) {
		if (bigramCache.size > 100_000) bigramCache = new Map();
		s = String.fromCharCode(a, b);
		bigramCache.set(key, s);
	}
	return s;
}

/**
 * A string that does not hold on to the text it was cut from. Engines keep a slice of 13 characters
 * or more as a view of its parent string, so a long word kept in a table or a cache would keep its
 * whole note's text alive for as long as it is kept. A shorter one is already a copy.
 */
export function ownCopy(term: string): string {
	return term.length < 13 ? term : (JSON.parse(JSON.stringify(term)) as string);
}

/** Where the analyzer puts terms: a string list, or the index's sink (appendIndexTerms). */
interface TermOut {
	push(term: string): unknown;
}
/** Takes a CJK character pair as its two UTF-16 units, instead of its string. */
type PairOut = (a: number, b: number) => void;

function pushCjk(text: string, start: number, end: number, out: TermOut, mode: CjkMode, pairs: PairOut | undefined): void {
	if (mode === "segmenter") {
		const seg = wordSegmenter();
		if (seg) {
			for (const s of seg.segment(text.slice(start, end))) if (s.isWordLike !== false) out.push(s.segment);
			return;
		}
	}
	let astral = false;
	for (let i = start; i < end; i++) if (text.charCodeAt(i) >= 0xd800) astral = true;
	if (!astral) {
		if (end - start === 1) out.push(text.slice(start, end));
		else if (pairs) for (let i = start; i + 1 < end; i++) pairs(text.charCodeAt(i), text.charCodeAt(i + 1));
		else for (let i = start; i + 1 < end; i++) out.push(bigram(text.charCodeAt(i), text.charCodeAt(i + 1)));
		return;
	}
	const chars = Array.from(text.slice(start, end));
	if (chars.length === 1) {
		out.push(chars[0] ?? "");
		return;
	}
	for (let i = 0; i + 1 < chars.length; i++) out.push((chars[i] ?? "") + (chars[i + 1] ?? ""));
}

/**
 * The terms of a word that is not plain lower-case ASCII, cached: folding (NFD, accents, NFC) and
 * the identifier regexes cost a microsecond a word, and prose repeats its words (German nouns,
 * Cyrillic, accented Latin). Bounded: emptied when it passes WORD_CACHE_MAX words.
 */
let wordCache = new Map<string, readonly string[]>();
const WORD_CACHE_MAX = 20_000;

function pushWord(word: string, out: TermOut): void {
	let cached = wordCache.get(word);
	if (cached === undefined) {
		cached = wordTerms(word);
		if (wordCache.size >= WORD_CACHE_MAX) wordCache = new Map();
		// Its own copies: a long word cut from a note (and its terms, which may be the word itself)
		// would keep that note's whole text alive for as long as the cache holds it.
		cached = cached.map(ownCopy);
		wordCache.set(ownCopy(word), cached);
	}
	for (const t of cached) out.push(t);
}

function wordTerms(word: string): string[] {
	const out: string[] = [];
	const whole = foldWord(word);
	const parts = SEPARATORS.test(word) || HAS_UPPER_AFTER_LOWER.test(word) ? identifierParts(word) : [];
	if (!STOP_WORDS.has(whole)) {
		out.push(whole);
		if (parts.length <= 1) pushPrefix(whole, out);
	}
	if (parts.length > 1) for (const part of parts) if (!STOP_WORDS.has(part)) out.push(part);
	return out;
}

/** Marks a prefix term: "~" is never part of a word, so "konfi~" is not the word "konfi". */
export const PREFIX_MARK = "~";
const PREFIX_LENGTH = 4;
const PREFIX_MIN = 5;
const HAS_DIGIT = /[0-9_]/;

/**
 * Light stemming for inflected languages: a word of PREFIX_MIN letters or more also gives its first
 * PREFIX_LENGTH letters as a term, so "Sicherungsstände" meets "Sicherung", "матки" meets "матка".
 * A query weighs these terms lower (bm25.ts). Words with digits are codes: no prefix. 4 letters from
 * 5 up: on bench/retrieval.ts it lifted German and Russian from 88% to 100% at every budget, while
 * 5 letters from 6 up left Russian at 88%; English, Chinese and Japanese were unchanged either way.
 */
function pushPrefix(word: string, out: TermOut): void {
	if (PREFIX_LENGTH > 0 && word.length >= PREFIX_MIN && !HAS_DIGIT.test(word)) out.push(word.slice(0, PREFIX_LENGTH) + PREFIX_MARK);
}

/** The folded parts of an identifier: split at _ - ' and at camelCase and letter/digit boundaries. */
export function identifierParts(word: string): string[] {
	const out: string[] = [];
	for (const piece of word.split(SEPARATORS)) {
		if (piece === "") continue;
		if (!NON_ASCII.test(piece)) {
			for (const part of piece.match(CAMEL_PART_ASCII) ?? [piece]) out.push(part.toLowerCase());
			continue;
		}
		for (const part of piece.match(CAMEL_PART) ?? [piece]) out.push(foldWord(part));
	}
	return out;
}

/** Words of spaced scripts as the scanner reads them: letters and digits, joined by ' ’ - inside a word. */
const QUERY_WORD = /[\p{L}\p{M}\p{N}_]+(?:['’-][\p{L}\p{M}\p{N}_]+)*/gu;

/**
 * The identifiers of `text` (words with parts: "non-free", "maxTokens") and their parts, as the
 * analyzer gives them (folded, stop words left out): whole term → its part terms. A part that the
 * text also has as a word of its own is left out of the parts (it is asked for as that word too).
 */
export function identifierTerms(text: string): Map<string, string[]> {
	const out = new Map<string, string[]>();
	const words = new Set<string>();
	for (const word of text.match(QUERY_WORD) ?? []) {
		if (CJK.test(word)) continue;
		const parts = SEPARATORS.test(word) || HAS_UPPER_AFTER_LOWER.test(word) ? identifierParts(word).filter((p) => !STOP_WORDS.has(p)) : [];
		if (parts.length > 1) out.set(foldWord(word), parts);
		else words.add(foldWord(word));
	}
	for (const [whole, parts] of out) out.set(whole, parts.filter((p) => !words.has(p) && p !== whole));
	return out;
}

const SEP = 0;
const WORDCH = 1;
const CJKCH = 2;
const JOINER = 3;
/** Character classes of the BMP, filled lazily: one regex test per distinct non-ASCII character. */
const CLASS = new Uint8Array(0x10000).fill(255);
const LETTER = /[\p{L}\p{M}\p{N}_]/u;
for (let c = 0; c < 128; c++) {
	const ch = String.fromCharCode(c);
	CLASS[c] = /[A-Za-z0-9_]/.test(ch) ? WORDCH : c === 0x27 || c === 0x2d ? JOINER : SEP;
}
CLASS[0x2019] = JOINER;
function classOf(code: number): number {
	let k = CLASS[code] ?? SEP;
	if (k === 255) {
		const ch = String.fromCharCode(code);
		k = CJK.test(ch) ? CJKCH : code >= 0xd800 && code <= 0xdfff ? SEP : LETTER.test(ch) ? WORDCH : SEP;
		CLASS[code] = k;
	}
	return k;
}

function pushPlainOrWord(text: string, start: number, end: number, plain: boolean, out: TermOut): void {
	const word = text.slice(start, end);
	if (plain) {
		if (!STOP_WORDS.has(word)) {
			out.push(word);
			pushPrefix(word, out);
		}
	} else pushWord(word, out);
}

/** Appends the terms of `text` to `out`. A hand-rolled scanner: a regex pass costs 3× more on 1 MB. */
export function appendTerms(text: string, out: string[], mode: CjkMode = "bigram"): void {
	scan(text, out, mode, undefined);
}

/**
 * The terms of `text` as `appendTerms` gives them, in the same order, for the vault index: each CJK
 * character pair (of the BMP) goes to `pairs` as its two UTF-16 units, every other term to `words`.
 * The pair's string, String.fromCharCode(a, b), is the term `appendTerms` gives in its place.
 */
export function appendIndexTerms(text: string, words: TermOut, pairs: PairOut): void {
	scan(text, words, "bigram", pairs);
}

function scan(text: string, out: TermOut, mode: CjkMode, pairs: PairOut | undefined): void {
	const n = text.length;
	let i = 0;
	while (i < n) {
		const code = text.charCodeAt(i);
		const high = code >= 0xd840 && code <= 0xd87f && i + 1 < n;
		const k = high ? CJKCH : classOf(code);
		if (k === WORDCH) {
			const start = i;
			// Plain: lower-case ASCII letters and digits only, the common case, pushed as sliced.
			// Capitalized: plain ASCII but for capitals at the start only ("The", "NASA"): lower-cased as is.
			let plain = true;
			let capitalized = false;
			let lowerSeen = false;
			let capitals = 0;
			while (i < n) {
				const c = text.charCodeAt(i);
				const ck = classOf(c);
				if (ck === WORDCH) {
					if (plain) {
						if (c >= 97 && c <= 122) {
							// "NASAFoo": capitals then lower case is camelCase, not a capitalized word.
							if (capitals > 1) plain = false;
							lowerSeen = true;
						} else if (c >= 65 && c <= 90 && !lowerSeen) {
							capitalized = true;
							capitals++;
						} else if (!(c >= 48 && c <= 57)) plain = false;
					}
					i++;
				} else if (ck === JOINER && i + 1 < n && classOf(text.charCodeAt(i + 1)) === WORDCH) {
					plain = false;
					i++;
				} else break;
			}
			if (plain && capitalized) pushPlainOrWord(text.slice(start, i).toLowerCase(), 0, i - start, true, out);
			else pushPlainOrWord(text, start, i, plain, out);
		} else if (k === CJKCH) {
			const start = i;
			while (i < n) {
				const c = text.charCodeAt(i);
				if (c >= 0xd840 && c <= 0xd87f && i + 1 < n) i += 2;
				else if (classOf(c) === CJKCH) i++;
				else break;
			}
			pushCjk(text, start, i, out, mode, pairs);
		} else i++;
	}
}

/** The search terms of `text`, in order, duplicates kept (term frequencies count them). */
export function terms(text: string, mode: CjkMode = "bigram"): string[] {
	const out: string[] = [];
	appendTerms(text, out, mode);
	return out;
}

/** True when `text` has at least one term that is not a stop word. */
export function hasTerms(text: string): boolean {
	return terms(text).length > 0;
}
