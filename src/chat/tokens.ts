// Token estimation without a tokenizer: a single pass that mimics the pre-tokenizer of BPE
// encodings such as o200k (words, 1-3 digit groups, punctuation runs, whitespace) and prices each
// piece by its script. Tuned against exact o200k counts; it leans towards overestimating because
// an undercount is what overflows a prompt.

import type { PromptMessage } from "./types";

import * as classes from "./tokenClasses";
import * as costs from "./tokenCosts";

// Local copies of everything the hot loop touches. Under CommonJS transforms (tsx, vitest) each
// read of an imported binding goes through a getter, which made the loop ten times slower.
const {
	ASCII_LOWER,
	ASCII_UPPER,
	ASTRAL_FLAG,
	CJK,
	CLASS_MASK,
	CYRILLIC,
	CYRILLIC_EXT,
	DIGIT,
	EMOJI,
	KANA,
	LAST_LETTER,
	LATIN,
	LATIN_EXT,
	LOWER_FLAG,
	NEWLINE,
	PUNCT,
	SPACE,
	SYMBOL,
	UPPER_FLAG,
	entryAt,
} = classes;
const {
	CAPS_EXTRA,
	CYRILLIC_EXT_EXTRA,
	CYRILLIC_EXT_SHARE,
	EMOJI_WEIGHT,
	ENGLISH_WORD,
	EUROPEAN_ACCENT_FULL,
	EUROPEAN_ACCENT_START,
	EUROPEAN_WORD,
	JOINER_WEIGHT,
	KANA_SHARE,
	KANJI_EXTRA,
	NEWLINES_FREE,
	NEWLINE_AFTER_PUNCT,
	NEWLINE_EXTRA,
	PER_LETTER,
	PUNCT_NEXT,
	PUNCT_PREFIX,
	RANDOM_RUN_MIN,
	SPACE_RUN_TOKEN_CHARS,
	SYMBOL_PREFIX,
	SYMBOL_WEIGHT,
	TAB_PREFIX,
	WORD_BASE,
	latinWordCost,
	randomRunTopUp,
} = costs;

/** Scratch counts for fractionalTokens, reused to keep the call allocation-free. */
const LETTER_COUNTS = new Float64Array(LAST_LETTER + 1);
/** Latin word costs by length, precomputed for the common lengths. */
const WORD_TABLE_SIZE = 40;
const ENGLISH_COST = Float64Array.from({ length: WORD_TABLE_SIZE }, (_, k) => latinWordCost(ENGLISH_WORD, k));
const EUROPEAN_COST = Float64Array.from({ length: WORD_TABLE_SIZE }, (_, k) => latinWordCost(EUROPEAN_WORD, k));
const CAPS_EXTRA_ASCII = CAPS_EXTRA[ASCII_UPPER] ?? 0;

/**
 * Estimated o200k-style token count of `text`: one pass over char codes, no allocation.
 * Always ≥ 0, 0 for "", never NaN.
 */
export function estimateTokens(text: string): number {
	return Math.ceil(fractionalTokens(text));
}

/**
 * The estimate before rounding; exported for the estimator's own tuning benchmark.
 *
 * Each branch consumes one pre-token and leaves `e` holding the entry of the character at `i`, so
 * every code unit is classified once.
 */
export function fractionalTokens(text: string): number {
	const n = text.length;
	let total = 0;
	// Latin words are priced under both word tables; the text's share of accented letters picks
	// the blend at the end, so English is not charged like French nor French like English.
	let english = 0;
	let european = 0;
	// Letters per class over the whole text, for the text-level blends at the end. ASCII letters,
	// the bulk of most texts, are counted in locals.
	const letters = LETTER_COUNTS;
	letters.fill(0);
	let lowerCount = 0;
	let upperCount = 0;
	let digitCount = 0;
	// A single space glues onto the word or punctuation after it (" the", " (").
	let spaceBefore = false;
	// Newlines right after punctuation join its piece (";\n").
	let punctBefore = false;
	// Text-level blends are computed per line, so one French line does not reprice an English page.
	let lineLower = 0;
	let lineUpper = 0;
	// The current blank-free run, checked for randomness (base64) when it ends.
	let runStart = 0;
	let runSpent = 0;
	let runUpper = 0;
	let runLower = 0;
	let runDigits = 0;
	let i = 0;
	let e = n > 0 ? entryAt(text, 0) : 0;
	while (i < n) {
		const cls = e & CLASS_MASK;
		if (cls <= LAST_LETTER) {
			// One word, up to a non-letter or a lower-to-upper case change ("camel|Case").
			let latin = 0;
			let cost = WORD_BASE[cls] ?? 0;
			let prevLower = false;
			let first = true;
			for (;;) {
				const c = e & CLASS_MASK;
				if (c === ASCII_LOWER) {
					// Fast path for the commonest case: a run of ASCII lower case.
					const start = i;
					i++;
					while (i < n) {
						const code = text.charCodeAt(i);
						if (code < 0x61 || code > 0x7a) break;
						i++;
					}
					latin += i - start;
					lowerCount += i - start;
					prevLower = true;
				} else if (c === ASCII_UPPER) {
					latin++;
					upperCount++;
					if (!first) cost += CAPS_EXTRA_ASCII;
					prevLower = false;
					i++;
				} else {
					if (c <= LATIN_EXT) latin++;
					letters[c] = (letters[c] ?? 0) + 1;
					cost += PER_LETTER[c] ?? 0;
					if (!first && (e & UPPER_FLAG) !== 0) cost += CAPS_EXTRA[c] ?? 0;
					prevLower = (e & LOWER_FLAG) !== 0;
					i += (e & ASTRAL_FLAG) !== 0 ? 2 : 1;
				}
				first = false;
				if (i >= n) break;
				e = entryAt(text, i);
				if ((e & CLASS_MASK) > LAST_LETTER || (prevLower && (e & UPPER_FLAG) !== 0)) break;
			}
			if (latin > 0) {
				if (latin < WORD_TABLE_SIZE) {
					english += ENGLISH_COST[latin] ?? 0;
					european += EUROPEAN_COST[latin] ?? 0;
				} else {
					english += latinWordCost(ENGLISH_WORD, latin);
					european += latinWordCost(EUROPEAN_WORD, latin);
				}
				total += cost;
			} else total += cost > 1 ? cost : 1;
			spaceBefore = false;
			punctBefore = false;
		} else if (cls === SPACE) {
			if (i - runStart >= RANDOM_RUN_MIN) {
				total += randomRunTopUp(i - runStart, upperCount - runUpper, lowerCount - runLower, digitCount - runDigits, total + english - runSpent);
			}
			spaceBefore = false;
			let len = 0;
			do {
				len++;
				i++;
				e = i < n ? entryAt(text, i) : 0;
			} while (i < n && (e & CLASS_MASK) === SPACE);
			const next = i < n ? e & CLASS_MASK : -1;
			const long = len >= SPACE_RUN_TOKEN_CHARS ? Math.floor(len / SPACE_RUN_TOKEN_CHARS) : 0;
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
			}
			punctBefore = false;
			runStart = i;
			runSpent = total + english;
			runUpper = upperCount;
			runLower = lowerCount;
			runDigits = digitCount;
		} else if (cls === NEWLINE) {
			if (i - runStart >= RANDOM_RUN_MIN) {
				total += randomRunTopUp(i - runStart, upperCount - runUpper, lowerCount - runLower, digitCount - runDigits, total + english - runSpent);
			}
			spaceBefore = false;
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
			total += (punctBefore ? NEWLINE_AFTER_PUNCT : 1) + (newlines > NEWLINES_FREE ? (newlines - NEWLINES_FREE) * NEWLINE_EXTRA : 0);
			punctBefore = false;
			if (i < n) e = entryAt(text, i);
			total += lineLevelCost(letters, lowerCount - lineLower, upperCount - lineUpper, english, european);
			letters.fill(0);
			english = 0;
			european = 0;
			lineLower = lowerCount;
			lineUpper = upperCount;
			runStart = i;
			runSpent = total + english;
			runUpper = upperCount;
			runLower = lowerCount;
			runDigits = digitCount;
		} else if (cls === DIGIT) {
			// Numbers split into groups of at most three digits.
			let len = 0;
			do {
				len++;
				i++;
				e = i < n ? entryAt(text, i) : 0;
			} while (i < n && (e & CLASS_MASK) === DIGIT);
			digitCount += len;
			total += Math.ceil(len / 3);
			spaceBefore = false;
			punctBefore = false;
		} else {
			// Punctuation, symbols and emoji group into one piece, then split by BPE.
			let cost = 0;
			let count = 0;
			let lastWasPunct = false;
			let c = cls;
			for (;;) {
				if (c === PUNCT) cost += lastWasPunct ? PUNCT_NEXT : 1;
				else if (c === SYMBOL) cost += SYMBOL_WEIGHT;
				else if (c === EMOJI) cost += EMOJI_WEIGHT;
				else cost += JOINER_WEIGHT;
				lastWasPunct = c === PUNCT;
				count++;
				i += (e & ASTRAL_FLAG) !== 0 ? 2 : 1;
				if (i >= n) break;
				e = entryAt(text, i);
				c = e & CLASS_MASK;
				if (c <= DIGIT || c === SPACE || c === NEWLINE) break;
			}
			const next = i < n ? e & CLASS_MASK : -1;
			if (count === 1 && !spaceBefore && next >= 0 && next <= LAST_LETTER && (cls === PUNCT || cls === SYMBOL)) {
				cost = cls === PUNCT ? PUNCT_PREFIX : SYMBOL_PREFIX;
			}
			total += cost;
			spaceBefore = false;
			punctBefore = true;
		}
	}
	if (n - runStart >= RANDOM_RUN_MIN) {
		total += randomRunTopUp(n - runStart, upperCount - runUpper, lowerCount - runLower, digitCount - runDigits, total + english - runSpent);
	}
	return total + lineLevelCost(letters, lowerCount - lineLower, upperCount - lineUpper, english, european);
}

/**
 * Costs that depend on a line's mix of letters: its Latin words priced between the English and
 * European tables, the extra cost of non-Russian Cyrillic, and of Japanese kanji. `letters` holds
 * the line's non-ASCII letters by class; `lower` and `upper` its ASCII ones.
 */
function lineLevelCost(letters: Float64Array, lower: number, upper: number, english: number, european: number): number {
	let extra = 0;
	const accented = (letters[LATIN] ?? 0) + (letters[LATIN_EXT] ?? 0);
	const latin = accented + lower + upper;
	if (latin > 0) extra += english + blend(accented / latin - EUROPEAN_ACCENT_START, EUROPEAN_ACCENT_FULL - EUROPEAN_ACCENT_START) * (european - english);
	const cyrillicExt = letters[CYRILLIC_EXT] ?? 0;
	const cyrillic = cyrillicExt + (letters[CYRILLIC] ?? 0);
	if (cyrillicExt > 0) extra += blend(cyrillicExt / cyrillic, CYRILLIC_EXT_SHARE) * cyrillic * CYRILLIC_EXT_EXTRA;
	const kana = letters[KANA] ?? 0;
	const han = letters[CJK] ?? 0;
	if (kana > 0 && han > 0) extra += blend(kana / (kana + han), KANA_SHARE) * han * KANJI_EXTRA;
	return extra;
}

/** 0 up to a `share` of 0, rising linearly to 1 at `full` and staying there. */
function blend(share: number, full: number): number {
	return share <= 0 ? 0 : share >= full ? 1 : share / full;
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
