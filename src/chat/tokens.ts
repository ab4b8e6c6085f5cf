// Token estimation without a tokenizer: a single pass that mimics the pre-tokenizer of BPE
// encodings such as o200k (words, 1-3 digit groups, punctuation runs, whitespace) and prices each
// piece by its script. Tuned against exact o200k counts; it leans towards overestimating because
// an undercount is what overflows a prompt.

import type { PromptMessage } from "./types";

import {
	ASCII_LOWER,
	ASCII_UPPER,
	ASTRAL_FLAG,
	ASTRAL_LETTER,
	ARABIC,
	CJK,
	CLASS_MASK,
	CYRILLIC,
	CYRILLIC_EXT,
	DIGIT,
	EMOJI,
	GREEK,
	HANGUL,
	HEBREW,
	INDIC,
	KANA,
	LAST_LETTER,
	LATIN,
	LATIN_EXT,
	LOWER_FLAG,
	MARK,
	NEWLINE,
	OTHER_LETTER,
	PUNCT,
	SPACE,
	SYMBOL,
	THAI,
	UPPER_FLAG,
	entryAt,
} from "./tokenClasses";

// Costs in o200k tokens, read off exact counts of each pre-token kind over the dev corpus and the
// other-script samples (see bench/tokens.ts), rounded up where the data scattered.

/**
 * A word of mostly unaccented Latin letters, by length: English keeps words up to ~9 letters whole,
 * then splits into pieces of 3-4 letters.
 */
const ENGLISH_WORD = [0, 1, 1, 1.05, 1.06, 1.1, 1.15, 1.15, 1.2, 1.22, 1.3, 1.33, 1.42, 1.5, 1.55, 1.6];
/** The same for other Latin-script languages (French, Spanish, Polish…), whose words split sooner. */
const EUROPEAN_WORD = [0, 1, 1, 1.02, 1.05, 1.3, 1.5, 1.6, 1.9, 2.1, 2.4, 2.6, 2.8, 3, 3.2, 3.4];
/** Tokens per extra letter beyond the tables. */
const LONG_WORD_STEP = 0.3;
/**
 * Share of accented letters among Latin letters at which a text counts as fully "European": one
 * letter in 50 or more is typical of French, German or Spanish; English has almost none.
 */
const EUROPEAN_ACCENT_SHARE = 1 / 50;
/**
 * Ukrainian (and other non-Russian Cyrillic) splits more finely than Russian. Its own letters
 * (і, ї, є…) are one in 25 or more of its Cyrillic letters; then every Cyrillic letter costs more.
 */
const CYRILLIC_EXT_SHARE = 1 / 25;
const CYRILLIC_EXT_EXTRA = 0.1;

/** Tokens per letter, by script (Latin letters are priced by the word tables above). */
const PER_LETTER = new Float64Array(LAST_LETTER + 1);
PER_LETTER[LATIN] = 0.1; // accented letters sometimes become tokens of their own
PER_LETTER[LATIN_EXT] = 0.7; // and the rarer ones usually do
PER_LETTER[CYRILLIC] = 0.2;
PER_LETTER[CYRILLIC_EXT] = 0.2;
PER_LETTER[GREEK] = 0.37;
PER_LETTER[ARABIC] = 0.28;
PER_LETTER[HEBREW] = 0.45;
PER_LETTER[INDIC] = 0.3;
PER_LETTER[THAI] = 0.42;
PER_LETTER[CJK] = 0.7; // Chinese; Japanese kanji cost more, see KANJI_EXTRA
PER_LETTER[KANA] = 0.7;
PER_LETTER[HANGUL] = 0.7;
PER_LETTER[OTHER_LETTER] = 0.6;
PER_LETTER[MARK] = 0.3;
PER_LETTER[ASTRAL_LETTER] = 1.5;

/** Fixed part of a word's cost, by the script of its first letter. */
const WORD_BASE = new Float64Array(LAST_LETTER + 1);
WORD_BASE[ASCII_UPPER] = 0.05; // a capitalised word splits a little more often
WORD_BASE[CYRILLIC] = 0.4;
WORD_BASE[CYRILLIC_EXT] = 0.4;
WORD_BASE[GREEK] = 0.2;
WORD_BASE[ARABIC] = 0.4;
WORD_BASE[INDIC] = 0.3;
WORD_BASE[CJK] = 0.3; // the space before CJK text is usually a token of its own
WORD_BASE[KANA] = 0.3;
WORD_BASE[OTHER_LETTER] = 0.3;

/** Extra per capital after the first: all-caps words are rare in the vocabulary. */
const CAPS_EXTRA = new Float64Array(LAST_LETTER + 1);
CAPS_EXTRA[ASCII_UPPER] = 0.08;
CAPS_EXTRA[LATIN] = 0.3;
CAPS_EXTRA[LATIN_EXT] = 0.3;
CAPS_EXTRA[CYRILLIC] = 0.6;
CAPS_EXTRA[CYRILLIC_EXT] = 0.6;
CAPS_EXTRA[GREEK] = 0.6;
/** Han characters next to kana are Japanese, which o200k splits more finely than Chinese. */
const KANJI_EXTRA = 0.15;

/** Punctuation run: the first mark is a token; common combinations ("();", "=>") merge. */
const PUNCT_NEXT = 0.15;
const SYMBOL_WEIGHT = 1.0;
const EMOJI_WEIGHT = 2.0;
const JOINER_WEIGHT = 1.0;
/** A lone mark glued to the word after it ("(foo", ".com", "'t", "，而") often merges with it. */
const PUNCT_PREFIX = 0.35;
const SYMBOL_PREFIX = 0.6;
/** Newlines right after punctuation (";\n") usually merge into its token. */
const NEWLINE_AFTER_PUNCT = 0.05;
/** Blank lines beyond this many in a row start to cost extra. */
const NEWLINES_FREE = 4;
const NEWLINE_EXTRA = 0.25;
/** A tab (or other blank) before a word merges with it only for common words. */
const TAB_PREFIX = 0.5;
/** Space runs of this many characters or more take an extra token. */
const SPACE_RUN_TOKEN_CHARS = 64;
/**
 * Random mixed-case text (base64, keys, ids) defeats BPE merges: at least this long without a
 * blank, and it costs about this many tokens per character.
 */
const RANDOM_RUN_MIN = 24;
const RANDOM_RUN_TOKENS_PER_CHAR = 0.74;

/**
 * Extra tokens for the blank-free run text[start, end) if it looks random (base64): upper and
 * lower case each at least a quarter of it, digits sprinkled in. `spent` is what the run's pieces
 * already cost.
 */
function randomRunTopUp(text: string, start: number, end: number, spent: number): number {
	let upper = 0;
	let lower = 0;
	let digits = 0;
	for (let j = start; j < end; j++) {
		const c = text.charCodeAt(j);
		if (c >= 0x61 && c <= 0x7a) lower++;
		else if (c >= 0x41 && c <= 0x5a) upper++;
		else if (c >= 0x30 && c <= 0x39) digits++;
	}
	const len = end - start;
	if (upper * 4 < len || lower * 4 < len || digits * 25 < len) return 0;
	const expected = len * RANDOM_RUN_TOKENS_PER_CHAR;
	return expected > spent ? expected - spent : 0;
}

function latinWordCost(table: readonly number[], letters: number): number {
	const last = table.length - 1;
	if (letters <= last) return table[letters] ?? 0;
	return (table[last] ?? 0) + (letters - last) * LONG_WORD_STEP;
}

/**
 * Estimated o200k-style token count of `text`: one pass over char codes, no allocation.
 * Always ≥ 0, 0 for "", never NaN.
 */
export function estimateTokens(text: string): number {
	return Math.ceil(fractionalTokens(text));
}

/** The estimate before rounding; exported for the estimator's own tuning benchmark. */
export function fractionalTokens(text: string): number {
	const n = text.length;
	let total = 0;
	// Latin words are priced under both word tables; the text's share of accented letters picks
	// the blend at the end, so English is not charged like French and French not like English.
	let english = 0;
	let european = 0;
	let plainLetters = 0;
	let accentedLetters = 0;
	let cyrillicLetters = 0;
	let cyrillicExtLetters = 0;
	// A single space glues onto the word or punctuation after it (" the", " (").
	let spaceBefore = false;
	// The current blank-free run, checked for randomness when it ends.
	let runStart = 0;
	let runSpent = 0;
	let i = 0;
	while (i < n) {
		const entry = entryAt(text, i);
		const cls = entry & CLASS_MASK;
		if (cls <= LAST_LETTER) {
			// One word, up to a non-letter or a lower-to-upper case change ("camel|Case").
			let latin = 0;
			let cjk = 0;
			let kana = false;
			let cost = WORD_BASE[cls] ?? 0;
			let prevLower = false;
			let first = true;
			while (i < n) {
				const e = entryAt(text, i);
				const c = e & CLASS_MASK;
				if (c > LAST_LETTER || (prevLower && (e & UPPER_FLAG) !== 0)) break;
				if (c === ASCII_LOWER || c === ASCII_UPPER) {
					latin++;
					plainLetters++;
				} else {
					if (c === LATIN || c === LATIN_EXT) {
						latin++;
						accentedLetters++;
					} else if (c === CJK) cjk++;
					else if (c === KANA) kana = true;
					else if (c === CYRILLIC) cyrillicLetters++;
					else if (c === CYRILLIC_EXT) cyrillicExtLetters++;
					cost += PER_LETTER[c] ?? 0;
				}
				if (!first && (e & UPPER_FLAG) !== 0) cost += CAPS_EXTRA[c] ?? 0;
				prevLower = (e & LOWER_FLAG) !== 0;
				first = false;
				i += (e & ASTRAL_FLAG) !== 0 ? 2 : 1;
			}
			if (kana) cost += cjk * KANJI_EXTRA;
			if (latin > 0) {
				english += latinWordCost(ENGLISH_WORD, latin);
				european += latinWordCost(EUROPEAN_WORD, latin);
				total += cost;
			} else total += cost > 1 ? cost : 1;
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
			if (i - runStart >= RANDOM_RUN_MIN) total += randomRunTopUp(text, runStart, i, total + english - runSpent);
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
				// Digits take no prefix.
				total += 1 + long;
			} else {
				// All but the last blank form one token; the last joins what follows — always when
				// it is a space, about half the time when it is a tab ("\tif" but "\t|ж").
				total += (len > 1 ? 1 : 0) + long + (text.charCodeAt(i - 1) === 0x20 ? 0 : TAB_PREFIX);
				spaceBefore = true;
				runStart = i;
				runSpent = total + english;
				continue;
			}
			spaceBefore = false;
			runStart = i;
			runSpent = total + english;
		} else if (cls === NEWLINE) {
			if (i - runStart >= RANDOM_RUN_MIN) total += randomRunTopUp(text, runStart, i, total + english - runSpent);
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
			total += 1 + (newlines > NEWLINES_FREE ? (newlines - NEWLINES_FREE) * NEWLINE_EXTRA : 0);
			spaceBefore = false;
			runStart = i;
			runSpent = total + english;
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
			if (count === 1 && !spaceBefore && next >= 0 && next <= LAST_LETTER && (cls === PUNCT || cls === SYMBOL)) {
				cost = cls === PUNCT ? PUNCT_PREFIX : SYMBOL_PREFIX;
			} else if (next === NEWLINE) {
				while (i < n && (entryAt(text, i) & CLASS_MASK) === NEWLINE) i++;
				cost += NEWLINE_AFTER_PUNCT;
			}
			total += cost;
			spaceBefore = false;
		}
	}
	if (n - runStart >= RANDOM_RUN_MIN) total += randomRunTopUp(text, runStart, n, total + english - runSpent);
	const latinLetters = plainLetters + accentedLetters;
	if (latinLetters > 0) {
		const share = accentedLetters / latinLetters / EUROPEAN_ACCENT_SHARE;
		total += english + (share >= 1 ? 1 : share) * (european - english);
	}
	const cyrillic = cyrillicLetters + cyrillicExtLetters;
	if (cyrillicExtLetters > 0) {
		const share = cyrillicExtLetters / cyrillic / CYRILLIC_EXT_SHARE;
		total += (share >= 1 ? 1 : share) * cyrillic * CYRILLIC_EXT_EXTRA;
	}
	return total;
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
