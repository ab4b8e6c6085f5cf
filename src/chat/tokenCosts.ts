// What each kind of pre-token costs, in o200k tokens. Read off exact counts of each kind over the
// dev corpus and the other-script samples (bench/tokens.ts prints the resulting accuracy), rounded
// up where the data scattered: an undercount overflows a prompt, an overcount only wastes a little.

import {
	ARABIC,
	ASCII_UPPER,
	ASTRAL_HAN,
	ASTRAL_LETTER,
	ASTRAL_OTHER,
	CAUCASIAN,
	CJK,
	CYRILLIC,
	CYRILLIC_EXT,
	CYRILLIC_RARE,
	EMOJI,
	FULLWIDTH,
	GREEK,
	HANGUL,
	HEBREW,
	INDIC,
	INDIC_RARE,
	INDIC_SOUTH,
	KANA,
	LAST_LETTER,
	LATIN,
	LATIN_EXT,
	MARK,
	ORIYA,
	OTHER_LETTER,
	PUNCT,
	SOUTHEAST_ASIAN,
	SPARSE_SCRIPT,
	SYMBOL,
	SYMBOL_BYTES,
	SYMBOL_RARE,
	THAI,
} from "./tokenClasses";

/**
 * A word of mostly unaccented Latin letters, by length: English keeps words up to ~9 letters whole,
 * then splits into pieces of 3-4 letters.
 */
export const ENGLISH_WORD = [0, 1, 1, 1.05, 1.06, 1.1, 1.15, 1.15, 1.2, 1.22, 1.3, 1.33, 1.42, 1.5, 1.55, 1.6];
/** The same for other Latin-script languages (French, Spanish, Polish…), whose words split sooner. */
export const EUROPEAN_WORD = [0, 1, 1, 1.02, 1.05, 1.3, 1.5, 1.6, 1.9, 2.1, 2.4, 2.6, 2.8, 3, 3.2, 3.4];
/** Tokens per extra letter beyond the tables. */
export const LONG_WORD_STEP = 0.3;
/**
 * Share of accented letters among Latin letters at which a text counts as fully "European": one
 * letter in 50 or more is typical of French, German or Spanish. English has almost none; below
 * one in 300 (a name, a borrowed "café") a text still counts as English.
 */
export const EUROPEAN_ACCENT_FULL = 1 / 50;
export const EUROPEAN_ACCENT_START = 1 / 300;
/**
 * Ukrainian, Serbian and other non-Russian Cyrillic split more finely than Russian. Their own
 * letters (і, ї, є, ј, љ…) are one in 25 or more of their Cyrillic letters; then every Cyrillic
 * letter costs more.
 */
export const CYRILLIC_EXT_SHARE = 1 / 25;
export const CYRILLIC_EXT_EXTRA = 0.09;

/** Tokens per letter, by script (Latin letters are priced by the word tables above). */
export const PER_LETTER = new Float64Array(LAST_LETTER + 1);
PER_LETTER[LATIN] = 0.1; // accented letters sometimes become tokens of their own
PER_LETTER[LATIN_EXT] = 0.85; // and the rarer ones usually do
PER_LETTER[CYRILLIC] = 0.2;
PER_LETTER[CYRILLIC_EXT] = 0.2;
PER_LETTER[CYRILLIC_RARE] = 0.8;
PER_LETTER[GREEK] = 0.37;
PER_LETTER[ARABIC] = 0.28;
PER_LETTER[HEBREW] = 0.45;
PER_LETTER[INDIC] = 0.3;
PER_LETTER[INDIC_RARE] = 0.6;
PER_LETTER[INDIC_SOUTH] = 0.22;
PER_LETTER[THAI] = 0.42;
PER_LETTER[SOUTHEAST_ASIAN] = 0.5;
PER_LETTER[CJK] = 0.75; // Chinese; Japanese kanji cost more, see KANJI_EXTRA
PER_LETTER[KANA] = 0.7;
PER_LETTER[HANGUL] = 0.7;
PER_LETTER[CAUCASIAN] = 0.3;
PER_LETTER[FULLWIDTH] = 1.3;
PER_LETTER[ORIYA] = 1.2;
// Scripts o200k barely learned fall back to UTF-8 bytes: up to two tokens per letter below U+0800,
// three above, four beyond the BMP.
PER_LETTER[SPARSE_SCRIPT] = 2.0;
PER_LETTER[OTHER_LETTER] = 2.8;
PER_LETTER[MARK] = 0.3;
PER_LETTER[ASTRAL_LETTER] = 2.7;
PER_LETTER[ASTRAL_HAN] = 3.5;
PER_LETTER[ASTRAL_OTHER] = 4;

/** Fixed part of a word's cost, by the script of its first letter. */
export const WORD_BASE = new Float64Array(LAST_LETTER + 1);
WORD_BASE[ASCII_UPPER] = 0.05; // a capitalised word splits a little more often
WORD_BASE[CYRILLIC] = 0.4;
WORD_BASE[CYRILLIC_EXT] = 0.4;
WORD_BASE[CYRILLIC_RARE] = 0.4;
WORD_BASE[GREEK] = 0.2;
WORD_BASE[ARABIC] = 0.4;
WORD_BASE[INDIC] = 0.3;
WORD_BASE[INDIC_SOUTH] = 0.3;
WORD_BASE[CJK] = 0.3; // the space before CJK text is usually a token of its own
WORD_BASE[KANA] = 0.3;
WORD_BASE[INDIC_RARE] = 0.3;
WORD_BASE[SOUTHEAST_ASIAN] = 0.3;
WORD_BASE[CAUCASIAN] = 0.3;
WORD_BASE[FULLWIDTH] = 0.3;
WORD_BASE[ORIYA] = 0.3;
WORD_BASE[SPARSE_SCRIPT] = 0.3;
WORD_BASE[OTHER_LETTER] = 0.3;

/** Extra per capital after the first: all-caps words are rare in the vocabulary. */
export const CAPS_EXTRA = new Float64Array(LAST_LETTER + 1);
CAPS_EXTRA[ASCII_UPPER] = 0.04;
CAPS_EXTRA[LATIN] = 0.3;
CAPS_EXTRA[LATIN_EXT] = 0.3;
CAPS_EXTRA[CYRILLIC] = 0.6;
CAPS_EXTRA[CYRILLIC_EXT] = 0.6;
CAPS_EXTRA[CYRILLIC_RARE] = 0.3;
CAPS_EXTRA[GREEK] = 0.6;
/**
 * Han characters in a text with kana are Japanese, which o200k splits more finely than Chinese.
 * Japanese prose is about half kana; a fifth is plenty to tell it from Chinese.
 */
export const KANJI_EXTRA = 0.15;
export const KANA_SHARE = 0.2;

/** Punctuation run: the first mark is a token; common combinations ("();", "=>") merge. */
export const PUNCT_NEXT = 0.15;
export const SYMBOL_WEIGHT = 1.0;
/** Arrows, mathematical operators and the like: three UTF-8 bytes that seldom merge. */
export const SYMBOL_RARE_WEIGHT = 1.8;
/** Braille and enclosed alphanumerics: three bytes, hardly ever merged. */
export const SYMBOL_BYTES_WEIGHT = 2.8;
export const EMOJI_WEIGHT = 2.0;
export const JOINER_WEIGHT = 1.0;
/** A lone mark glued to the word after it ("(foo", ".com", "'t", "，而") often merges with it. */
export const PUNCT_PREFIX = 0.3;
export const SYMBOL_PREFIX = 0.6;
/** Newlines right after punctuation (";\n") usually merge into its token. */
export const NEWLINE_AFTER_PUNCT = 0.05;
/** Blank lines beyond this many in a row start to cost extra. */
export const NEWLINES_FREE = 4;
export const NEWLINE_EXTRA = 0.25;
/** A tab (or other blank) before a word merges with it only for common words. */
export const TAB_PREFIX = 0.5;
/** Blank runs take a token per this many spaces, or per this many tabs. */
export const SPACE_RUN_TOKEN_CHARS = 64;
export const TAB_RUN_TOKEN_CHARS = 16;
/**
 * Random mixed-case text (base64, keys, ids) defeats BPE merges: at least this long without a
 * blank, and it costs about this many tokens per character.
 */
export const RANDOM_RUN_MIN = 24;
export const RANDOM_RUN_TOKENS_PER_CHAR = 0.74;

/**
 * Whether a blank-free run of `len` code units looks random (base64, keys): upper and lower case
 * each at least a quarter of it, digits sprinkled in. Such a run costs RANDOM_RUN_TOKENS_PER_CHAR.
 */
export function isRandomRun(len: number, upper: number, lower: number, digits: number): boolean {
	return len >= RANDOM_RUN_MIN && upper * 4 >= len && lower * 4 >= len && digits * 25 >= len;
}

/** Cost of a Latin word of `letters` letters under one of the word tables. */
export function latinWordCost(table: readonly number[], letters: number): number {
	const last = table.length - 1;
	if (letters <= last) return table[letters] ?? 0;
	return (table[last] ?? 0) + (letters - last) * LONG_WORD_STEP;
}

// The same costs in fixed point (hundredths of a token), as the scan uses them: it adds small
// integers, which V8 keeps in 32-bit registers, instead of doubles, whose additions form a slower
// dependency chain and whose sums drift off exact values.
export const SCALE = 100;
const fixed = (tokens: number): number => Math.round(tokens * SCALE);
const fixedTable = (values: ArrayLike<number>): Int32Array => Int32Array.from(Array.from(values, fixed));

/** Latin word costs by length, precomputed for the common lengths. */
export const WORD_TABLE_SIZE = 40;
export const ENGLISH_COST = fixedTable(Array.from({ length: WORD_TABLE_SIZE }, (_, k) => latinWordCost(ENGLISH_WORD, k)));
export const EUROPEAN_COST = fixedTable(Array.from({ length: WORD_TABLE_SIZE }, (_, k) => latinWordCost(EUROPEAN_WORD, k)));
export const LONG_STEP = fixed(LONG_WORD_STEP);
export const LETTER_COST = fixedTable(PER_LETTER);
export const BASE_COST = fixedTable(WORD_BASE);
export const CAPS_COST = fixedTable(CAPS_EXTRA);
export const CAPS_ASCII = CAPS_COST[ASCII_UPPER] ?? 0;
export const ONE = SCALE;
export const PUNCT_PREFIX_COST = fixed(PUNCT_PREFIX);
export const SYMBOL_PREFIX_COST = fixed(SYMBOL_PREFIX);
export const TAB_PREFIX_COST = fixed(TAB_PREFIX);
export const NEWLINE_AFTER_PUNCT_COST = fixed(NEWLINE_AFTER_PUNCT);
export const NEWLINE_EXTRA_COST = fixed(NEWLINE_EXTRA);
export const RANDOM_RUN_COST = fixed(RANDOM_RUN_TOKENS_PER_CHAR);
export const KANJI_EXTRA_COST = KANJI_EXTRA * SCALE;
export const CYRILLIC_EXT_EXTRA_COST = CYRILLIC_EXT_EXTRA * SCALE;
export const EUROPEAN_ACCENT_RAMP = EUROPEAN_ACCENT_FULL - EUROPEAN_ACCENT_START;
/**
 * Cost of each character of a punctuation piece, by class: the low half after anything but ASCII
 * punctuation, the high half (index + 64) right after it, where runs like "();" merge.
 */
export const GROUP_COST = new Int32Array(128);
for (let c = 0; c < 64; c++) {
	const weight =
		c === PUNCT ? 1 : c === SYMBOL ? SYMBOL_WEIGHT : c === SYMBOL_RARE ? SYMBOL_RARE_WEIGHT : c === SYMBOL_BYTES ? SYMBOL_BYTES_WEIGHT : c === EMOJI ? EMOJI_WEIGHT : JOINER_WEIGHT;
	GROUP_COST[c] = fixed(weight);
	GROUP_COST[c + 64] = c === PUNCT ? fixed(PUNCT_NEXT) : fixed(weight);
}
export const PUNCT_AFTER = 64;
