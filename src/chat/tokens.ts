// Token estimation without a tokenizer: a single pass that mimics the pre-tokenizer of BPE
// encodings such as o200k (words, 1-3 digit groups, punctuation runs, whitespace) and prices each
// piece by its script. Tuned against exact o200k counts; it leans towards overestimating because
// an undercount is what overflows a prompt.

import type { PromptMessage } from "./types";

// Character classes. Letters first, so `cls <= LAST_LETTER` tests "is a letter".
const ASCII_LOWER = 0;
const ASCII_UPPER = 1;
const LATIN = 2; // accented and extended Latin letters
const CYRILLIC = 3;
const GREEK = 4;
const ARABIC = 5; // Arabic, Persian, Urdu
const HEBREW = 6;
const INDIC = 7; // Devanagari and the other Brahmic scripts of India
const THAI = 8; // Thai, Lao, Khmer, Myanmar
const CJK = 9; // Han ideographs (Chinese, Japanese kanji)
const KANA = 10;
const HANGUL = 11;
const OTHER_LETTER = 12;
const MARK = 13; // combining marks continue the letter run they follow
const ASTRAL_LETTER = 14; // rare ideographs, math letters beyond the BMP
const LAST_LETTER = 14;
const DIGIT = 15;
const SPACE = 16;
const NEWLINE = 17;
const PUNCT = 18; // ASCII punctuation and symbols
const SYMBOL = 19; // other BMP punctuation and symbols (dashes, arrows, CJK punctuation)
const EMOJI = 20; // emoji and other astral symbols
const JOINER = 21; // zero-width joiner, variation selectors: glue inside emoji sequences
const SURROGATE = 22; // resolved to a pair's class (or SYMBOL when lone) during the scan

const CLASS_MASK = 31;
const UPPER_FLAG = 32;
const LOWER_FLAG = 64;
const ASTRAL_FLAG = 128; // set by entryAt on a surrogate pair: the character is two code units

/**
 * Tokens per letter in a word, by script. A word costs `1 + max(0, Σ weight − free)`: short words
 * are one token, long ones grow with their letters.
 */
const LETTER_WEIGHT = new Float64Array(LAST_LETTER + 1);
LETTER_WEIGHT[ASCII_LOWER] = 0.2;
LETTER_WEIGHT[ASCII_UPPER] = 0.25;
LETTER_WEIGHT[LATIN] = 0.55;
LETTER_WEIGHT[CYRILLIC] = 0.3;
LETTER_WEIGHT[GREEK] = 0.45;
LETTER_WEIGHT[ARABIC] = 0.4;
LETTER_WEIGHT[HEBREW] = 0.5;
LETTER_WEIGHT[INDIC] = 0.4;
LETTER_WEIGHT[THAI] = 0.35;
LETTER_WEIGHT[CJK] = 0.85;
LETTER_WEIGHT[KANA] = 0.7;
LETTER_WEIGHT[HANGUL] = 0.7;
LETTER_WEIGHT[OTHER_LETTER] = 0.7;
LETTER_WEIGHT[MARK] = 0.3;
LETTER_WEIGHT[ASTRAL_LETTER] = 1.5;

/** Weight a word gets for free, by the script of its first letter. */
const FREE_WEIGHT = new Float64Array(LAST_LETTER + 1);
FREE_WEIGHT[ASCII_LOWER] = 1.2;
FREE_WEIGHT[ASCII_UPPER] = 1.2;
FREE_WEIGHT[LATIN] = 1.2;
FREE_WEIGHT[CYRILLIC] = 1.0;
FREE_WEIGHT[GREEK] = 0.6;
FREE_WEIGHT[ARABIC] = 0.8;
FREE_WEIGHT[HEBREW] = 0.6;
FREE_WEIGHT[INDIC] = 0.6;
FREE_WEIGHT[THAI] = 0.4;
FREE_WEIGHT[CJK] = 0.85;
FREE_WEIGHT[KANA] = 0.7;
FREE_WEIGHT[HANGUL] = 0.7;
FREE_WEIGHT[OTHER_LETTER] = 0.5;
FREE_WEIGHT[MARK] = 0;
FREE_WEIGHT[ASTRAL_LETTER] = 0;

/** Punctuation run: the first mark is one token, later ones merge often but not always. */
const PUNCT_NEXT = 0.5;
const SYMBOL_WEIGHT = 1.0;
const EMOJI_WEIGHT = 2.0;
const JOINER_WEIGHT = 0.6;
/** A lone punctuation mark glued to the word after it ("(foo", ".com", "'t"). */
const PUNCT_PREFIX = 0.5;
/** Newlines right after punctuation (";\n") usually merge into its token. */
const NEWLINE_AFTER_PUNCT = 0.3;
/** Newline runs: one token, plus a little for long blank stretches. */
const NEWLINE_EXTRA = 0.25;
/** Space runs of this many characters or more take an extra token. */
const SPACE_RUN_TOKEN_CHARS = 64;

const TABLE = buildTable();

function setRange(table: Uint8Array, from: number, to: number, value: number): void {
	table.fill(value, from, to + 1);
}

/** Class and case of every BMP code unit. Surrogates are resolved in the scan. */
function buildTable(): Uint8Array {
	const t = new Uint8Array(0x10000);
	setRange(t, 0, 0xffff, OTHER_LETTER);
	setRange(t, 0, 0x7f, PUNCT);
	setRange(t, 0x61, 0x7a, ASCII_LOWER | LOWER_FLAG);
	setRange(t, 0x41, 0x5a, ASCII_UPPER | UPPER_FLAG);
	setRange(t, 0x30, 0x39, DIGIT);
	for (const c of [0x09, 0x0b, 0x0c, 0x20, 0xa0]) t[c] = SPACE;
	t[0x0a] = NEWLINE;
	t[0x0d] = NEWLINE;
	setRange(t, 0, 0x08, SYMBOL);
	setRange(t, 0x0e, 0x1f, SYMBOL);
	setRange(t, 0x80, 0xbf, SYMBOL);
	t[0xa0] = SPACE;
	setRange(t, 0xc0, 0xde, LATIN | UPPER_FLAG);
	setRange(t, 0xdf, 0xff, LATIN | LOWER_FLAG);
	t[0xd7] = SYMBOL;
	t[0xf7] = SYMBOL;
	// Latin Extended-A/B alternate upper/lower case; close enough for camel-case splitting.
	for (let c = 0x100; c <= 0x24f; c++) t[c] = LATIN | (c % 2 === 0 ? UPPER_FLAG : LOWER_FLAG);
	setRange(t, 0x250, 0x2af, LATIN | LOWER_FLAG);
	setRange(t, 0x2b0, 0x2ff, SYMBOL);
	setRange(t, 0x300, 0x36f, MARK);
	setRange(t, 0x370, 0x3ff, GREEK | LOWER_FLAG);
	setRange(t, 0x391, 0x3a9, GREEK | UPPER_FLAG);
	setRange(t, 0x400, 0x42f, CYRILLIC | UPPER_FLAG);
	setRange(t, 0x430, 0x45f, CYRILLIC | LOWER_FLAG);
	for (let c = 0x460; c <= 0x52f; c++) t[c] = CYRILLIC | (c % 2 === 0 ? UPPER_FLAG : LOWER_FLAG);
	setRange(t, 0x483, 0x489, MARK);
	setRange(t, 0x590, 0x5ff, HEBREW);
	setRange(t, 0x591, 0x5c7, MARK);
	setRange(t, 0x600, 0x6ff, ARABIC);
	setRange(t, 0x64b, 0x65f, MARK);
	setRange(t, 0x660, 0x669, DIGIT);
	setRange(t, 0x6f0, 0x6f9, DIGIT);
	setRange(t, 0x700, 0x8ff, ARABIC);
	setRange(t, 0x900, 0xdff, INDIC);
	setRange(t, 0xe00, 0xeff, THAI);
	setRange(t, 0x1000, 0x109f, THAI);
	setRange(t, 0x1100, 0x11ff, HANGUL);
	setRange(t, 0x1780, 0x17ff, THAI);
	setRange(t, 0x1ab0, 0x1aff, MARK);
	setRange(t, 0x1dc0, 0x1dff, MARK);
	setRange(t, 0x1e00, 0x1eff, LATIN | LOWER_FLAG);
	setRange(t, 0x1f00, 0x1fff, GREEK | LOWER_FLAG);
	setRange(t, 0x2000, 0x2bff, SYMBOL);
	setRange(t, 0x2000, 0x200a, SPACE);
	t[0x200b] = JOINER;
	t[0x200c] = JOINER;
	t[0x200d] = JOINER;
	t[0x2028] = NEWLINE;
	t[0x2029] = NEWLINE;
	setRange(t, 0x20d0, 0x20ff, MARK);
	setRange(t, 0x2e00, 0x2e7f, SYMBOL);
	setRange(t, 0x2e80, 0x2fdf, CJK);
	setRange(t, 0x3000, 0x303f, SYMBOL);
	t[0x3000] = SPACE;
	setRange(t, 0x3040, 0x30ff, KANA);
	setRange(t, 0x3130, 0x318f, HANGUL);
	setRange(t, 0x31f0, 0x31ff, KANA);
	setRange(t, 0x3200, 0x33ff, SYMBOL);
	setRange(t, 0x3400, 0x4dbf, CJK);
	setRange(t, 0x4dc0, 0x4dff, SYMBOL);
	setRange(t, 0x4e00, 0x9fff, CJK);
	setRange(t, 0xa960, 0xa97f, HANGUL);
	setRange(t, 0xac00, 0xd7ff, HANGUL);
	setRange(t, 0xd800, 0xdfff, SURROGATE);
	setRange(t, 0xe000, 0xf8ff, SYMBOL);
	setRange(t, 0xf900, 0xfaff, CJK);
	setRange(t, 0xfb1d, 0xfb4f, HEBREW);
	setRange(t, 0xfb50, 0xfdff, ARABIC);
	setRange(t, 0xfe00, 0xfe0f, JOINER);
	setRange(t, 0xfe10, 0xfe6f, SYMBOL);
	setRange(t, 0xfe70, 0xfeff, ARABIC);
	setRange(t, 0xff00, 0xff65, SYMBOL);
	setRange(t, 0xff10, 0xff19, DIGIT);
	setRange(t, 0xff21, 0xff3a, LATIN | UPPER_FLAG);
	setRange(t, 0xff41, 0xff5a, LATIN | LOWER_FLAG);
	setRange(t, 0xff66, 0xff9f, KANA);
	setRange(t, 0xffa0, 0xffdc, HANGUL);
	setRange(t, 0xffe0, 0xffff, SYMBOL);
	return t;
}

/** Class of an astral code point (0x10000 and up). */
function astralClass(cp: number): number {
	if (cp >= 0x20000 && cp <= 0x3ffff) return ASTRAL_LETTER; // CJK extensions B-H
	if (cp >= 0x1d400 && cp <= 0x1d7ff) return ASTRAL_LETTER; // mathematical letters
	if (cp >= 0xe0000 && cp <= 0xe007f) return JOINER; // tag characters in flag sequences
	if (cp >= 0x1f3fb && cp <= 0x1f3ff) return JOINER; // skin tone modifiers
	return EMOJI;
}

/**
 * Table entry (class | case flags) of the character at `i`. A valid surrogate pair gets
 * ASTRAL_FLAG so the caller steps over two code units; a lone surrogate counts as a symbol.
 */
function entryAt(text: string, i: number): number {
	const code = text.charCodeAt(i);
	const entry = TABLE[code] ?? SYMBOL;
	if (entry !== SURROGATE) return entry;
	if (code <= 0xdbff && i + 1 < text.length) {
		const low = text.charCodeAt(i + 1);
		if (low >= 0xdc00 && low <= 0xdfff) {
			return astralClass(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000) | ASTRAL_FLAG;
		}
	}
	return SYMBOL;
}

function wordCost(firstClass: number, weight: number): number {
	const extra = weight - (FREE_WEIGHT[firstClass] ?? 0);
	return extra > 0 ? 1 + extra : 1;
}

/**
 * Estimated o200k-style token count of `text`: one pass over char codes, no allocation.
 * Always ≥ 0, 0 for "", never NaN.
 */
export function estimateTokens(text: string): number {
	const n = text.length;
	let total = 0;
	let i = 0;
	// A single space glues onto the word or punctuation after it (" the", " (").
	let spaceBefore = false;
	while (i < n) {
		const entry = entryAt(text, i);
		const cls = entry & CLASS_MASK;
		if (cls <= LAST_LETTER) {
			// A word: split where lower case turns upper ("camelCase" is two pieces).
			let first = cls;
			let weight = 0;
			let prevLower = false;
			while (i < n) {
				const e = entryAt(text, i);
				const c = e & CLASS_MASK;
				if (c > LAST_LETTER) break;
				if (prevLower && (e & UPPER_FLAG) !== 0) {
					total += wordCost(first, weight);
					first = c;
					weight = 0;
				}
				weight += LETTER_WEIGHT[c] ?? 1;
				prevLower = (e & LOWER_FLAG) !== 0;
				i += (e & ASTRAL_FLAG) !== 0 ? 2 : 1;
			}
			total += wordCost(first, weight);
			spaceBefore = false;
		} else if (cls === DIGIT) {
			// Numbers split into groups of at most three digits.
			let len = 0;
			while (i < n && (entryAt(text, i) & CLASS_MASK) === DIGIT) {
				len++;
				i++;
			}
			total += Math.ceil(len / 3);
			spaceBefore = false;
		} else if (cls === SPACE) {
			let len = 0;
			while (i < n && (entryAt(text, i) & CLASS_MASK) === SPACE) {
				len++;
				i++;
			}
			const next = i < n ? entryAt(text, i) & CLASS_MASK : -1;
			const long = Math.floor(len / SPACE_RUN_TOKEN_CHARS);
			if (next === NEWLINE) {
				// Trailing spaces join the newline token.
				total += long;
			} else if (next === -1 || next === DIGIT) {
				total += 1 + long;
			} else {
				// All but the last space form one token; the last one joins what follows.
				total += (len > 1 ? 1 : 0) + long;
				spaceBefore = true;
				continue;
			}
			spaceBefore = false;
		} else if (cls === NEWLINE) {
			// Newlines and the blanks between them are one piece up to the last newline.
			let newlines = 0;
			let end = i;
			let j = i;
			while (j < n) {
				const c = entryAt(text, j) & CLASS_MASK;
				if (c === NEWLINE) {
					newlines++;
					end = j + 1;
				} else if (c !== SPACE) break;
				j++;
			}
			i = end;
			total += 1 + (newlines > 2 ? (newlines - 2) * NEWLINE_EXTRA : 0);
			spaceBefore = false;
		} else {
			// Punctuation, symbols and emoji group into one piece, then split by BPE.
			let cost = 0;
			let count = 0;
			let lastWasPunct = false;
			while (i < n) {
				const e = entryAt(text, i);
				const c = e & CLASS_MASK;
				if (c <= DIGIT || c === SPACE || c === NEWLINE) break;
				if (c === PUNCT) cost += lastWasPunct ? PUNCT_NEXT : 1;
				else if (c === SYMBOL) cost += SYMBOL_WEIGHT;
				else if (c === EMOJI) cost += EMOJI_WEIGHT;
				else cost += JOINER_WEIGHT;
				lastWasPunct = c === PUNCT;
				count++;
				i += (e & ASTRAL_FLAG) !== 0 ? 2 : 1;
			}
			const next = i < n ? entryAt(text, i) & CLASS_MASK : -1;
			if (count === 1 && cls === PUNCT && !spaceBefore && next >= 0 && next <= LAST_LETTER) {
				cost = PUNCT_PREFIX;
			} else if (next === NEWLINE) {
				while (i < n && (entryAt(text, i) & CLASS_MASK) === NEWLINE) i++;
				cost += NEWLINE_AFTER_PUNCT;
			}
			total += cost < 1 && count > 1 ? 1 : cost;
			spaceBefore = false;
		}
	}
	return Math.ceil(total);
}

/** Tokens of role framing around each message in a chat prompt (role name, separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens that prime the assistant's reply at the end of a chat prompt. */
export const PROMPT_OVERHEAD_TOKENS = 3;

/**
 * Lowest estimate/o200k ratio measured on any sample (dev corpus and other scripts), rounded down
 * with headroom. Fitting a prompt into `budget × this` estimated tokens keeps it within `budget`
 * real tokens.
 */
export const ESTIMATOR_WORST_RATIO = 0.85;

export function estimateMessageTokens(message: PromptMessage): number {
	return estimateTokens(message.content) + MESSAGE_OVERHEAD_TOKENS;
}

export function estimatePromptTokens(messages: readonly PromptMessage[]): number {
	let total = PROMPT_OVERHEAD_TOKENS;
	for (const m of messages) total += estimateMessageTokens(m);
	return total;
}

/** The estimated-token budget that keeps a prompt within `budgetTokens` real tokens. */
export function safeBudget(budgetTokens: number): number {
	if (!Number.isFinite(budgetTokens) || budgetTokens <= 0) return 0;
	return Math.floor(budgetTokens * ESTIMATOR_WORST_RATIO);
}
