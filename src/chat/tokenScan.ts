// The token estimator's single pass: mimics the pre-tokenizer of BPE encodings such as o200k
// (words, 1-3 digit groups, punctuation runs, whitespace) and prices each piece by its script with
// the costs in tokenCosts.ts. Written as one hand-inlined loop because it runs on every prompt.

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
	CYRILLIC_RARE,
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
	SYMBOL_BYTES,
	SYMBOL_RARE,
	TABLE,
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
	SPACE_RUN_TOKEN_CHARS,
	TAB_RUN_TOKEN_CHARS,
	SYMBOL_PREFIX,
	SYMBOL_BYTES_WEIGHT,
	SYMBOL_RARE_WEIGHT,
	SYMBOL_WEIGHT,
	TAB_PREFIX,
	WORD_BASE,
	LONG_WORD_STEP,
	RANDOM_RUN_MIN,
	RANDOM_RUN_TOKENS_PER_CHAR,
	isRandomRun,
	latinWordCost,
} = costs;

/** Scratch counts for fractionalTokens, reused to keep the call allocation-free. */
const LETTER_COUNTS = new Float64Array(LAST_LETTER + 1);
/** Latin word costs by length, precomputed for the common lengths. */
const WORD_TABLE_SIZE = 40;
const ENGLISH_COST = Float64Array.from({ length: WORD_TABLE_SIZE }, (_, k) => latinWordCost(ENGLISH_WORD, k));
const EUROPEAN_COST = Float64Array.from({ length: WORD_TABLE_SIZE }, (_, k) => latinWordCost(EUROPEAN_WORD, k));
const CAPS_EXTRA_ASCII = CAPS_EXTRA[ASCII_UPPER] ?? 0;
const EUROPEAN_ACCENT_RAMP = EUROPEAN_ACCENT_FULL - EUROPEAN_ACCENT_START;

/**
 * The estimate before rounding; exported for the estimator's own tuning benchmark.
 *
 * Each branch consumes one pre-token and leaves `e` holding the entry of the character at `i`, so
 * every code unit is classified once. Nothing here passes a fractional number to a function call:
 * V8 boxes such numbers on the heap, and that alone cost a fifth of the time.
 */
export function fractionalTokens(text: string): number {
	const n = text.length;
	let total = 0;
	// Latin words are priced under both word tables; the line's share of accented letters picks
	// the blend when the line ends, so English is not charged like French nor French like English.
	let english = 0;
	let european = 0;
	// Non-ASCII letters of the current line by class; ASCII letters, the bulk, are counted in locals.
	const letters = LETTER_COUNTS;
	letters.fill(0);
	let lineMixed = false;
	let lowerCount = 0;
	let upperCount = 0;
	let digitCount = 0;
	let lineLower = 0;
	let lineUpper = 0;
	// A single space glues onto the word or punctuation after it (" the", " (").
	let spaceBefore = false;
	// Newlines right after punctuation join its piece (";\n").
	let punctBefore = false;
	// The current blank-free run, checked for randomness (base64) when it ends.
	let runStart = 0;
	let runSpent = 0;
	let runUpper = 0;
	let runLower = 0;
	let runDigits = 0;
	// Cost of the text before the newline that ends the current line.
	let beforeNewline = 0;
	let i = 0;
	let e = n > 0 ? entryAt(text, 0) : 0;
	for (;;) {
		// Where the next line starts, past the newlines that end this one.
		let nextLine = n;
		if (i < n) {
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
						let code = 0;
						i++;
						while (i < n) {
							code = text.charCodeAt(i);
							if (code < 0x61 || code > 0x7a) break;
							i++;
						}
						latin += i - start;
						lowerCount += i - start;
						if (i >= n) break;
						// An ASCII character ends the run most of the time: no need for entryAt.
						e = code < 0x80 ? (TABLE[code] ?? 0) : entryAt(text, i);
						if ((e & CLASS_MASK) > LAST_LETTER || (e & UPPER_FLAG) !== 0) break;
						prevLower = true;
						first = false;
						continue;
					} else if (c === ASCII_UPPER) {
						latin++;
						upperCount++;
						if (!first) cost += CAPS_EXTRA_ASCII;
						prevLower = false;
						i++;
					} else {
						// A stretch of letters with the same class and case (a Cyrillic word, Han text).
						const start = i;
						if ((e & ASTRAL_FLAG) !== 0) i += 2;
						else {
							i++;
							while (i < n && TABLE[text.charCodeAt(i)] === e) i++;
						}
						const k = (e & ASTRAL_FLAG) !== 0 ? 1 : i - start;
						if (c <= LATIN_EXT) latin += k;
						letters[c] = (letters[c] ?? 0) + k;
						lineMixed = true;
						cost += k * (PER_LETTER[c] ?? 0);
						if ((e & UPPER_FLAG) !== 0) cost += (first ? k - 1 : k) * (CAPS_EXTRA[c] ?? 0);
						prevLower = (e & LOWER_FLAG) !== 0;
					}
					first = false;
					if (i >= n) break;
					e = entryAt(text, i);
					if ((e & CLASS_MASK) > LAST_LETTER || (prevLower && (e & UPPER_FLAG) !== 0)) break;
				}
				if (latin > 0) {
					const l = latin < WORD_TABLE_SIZE ? latin : WORD_TABLE_SIZE - 1;
					const long = (latin - l) * LONG_WORD_STEP;
					english += (ENGLISH_COST[l] ?? 0) + long;
					european += (EUROPEAN_COST[l] ?? 0) + long;
					total += cost;
				} else total += cost > 1 ? cost : 1;
				spaceBefore = false;
				punctBefore = false;
				continue;
			}
			if (cls === SPACE) {
				// Fast path: one space before a word, which it joins (" the").
				if (i + 1 < n && text.charCodeAt(i) === 0x20) {
					const code = text.charCodeAt(i + 1);
					const next = code < 0x80 ? (TABLE[code] ?? 0) : entryAt(text, i + 1);
					if ((next & CLASS_MASK) <= LAST_LETTER && i - runStart < RANDOM_RUN_MIN) {
						i++;
						e = next;
						spaceBefore = true;
						punctBefore = false;
						runStart = i;
						runSpent = total + english;
						runUpper = upperCount;
						runLower = lowerCount;
						runDigits = digitCount;
						continue;
					}
				}
				const runLength = i - runStart;
				if (isRandomRun(runLength, upperCount - runUpper, lowerCount - runLower, digitCount - runDigits)) {
					const extra = runLength * RANDOM_RUN_TOKENS_PER_CHAR - (total + english - runSpent);
					if (extra > 0) total += extra;
				}
				let len = 0;
				let tabs = 0;
				do {
					if (text.charCodeAt(i) === 0x09) tabs++;
					len++;
					i++;
					e = i < n ? entryAt(text, i) : 0;
				} while (i < n && (e & CLASS_MASK) === SPACE);
				const next = i < n ? e & CLASS_MASK : -1;
				// Long blank runs split: spaces into tokens of up to 64, tabs of up to 16.
				const long = len >= TAB_RUN_TOKEN_CHARS ? Math.floor((len - tabs) / SPACE_RUN_TOKEN_CHARS) + Math.floor(tabs / TAB_RUN_TOKEN_CHARS) : 0;
				spaceBefore = false;
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
				continue;
			}
			if (cls === DIGIT) {
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
				continue;
			}
			if (cls !== NEWLINE) {
				// Punctuation, symbols and emoji group into one piece, then split by BPE.
				let cost = 0;
				let count = 0;
				let lastWasPunct = false;
				let c = cls;
				for (;;) {
					if (c === PUNCT) cost += lastWasPunct ? PUNCT_NEXT : 1;
					else if (c === SYMBOL) cost += SYMBOL_WEIGHT;
					else if (c === SYMBOL_RARE) cost += SYMBOL_RARE_WEIGHT;
					else if (c === SYMBOL_BYTES) cost += SYMBOL_BYTES_WEIGHT;
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
				continue;
			}
			// Newlines and the blanks between them are one piece up to the last newline.
			let newlines = 0;
			for (let j = i; j < n; j++) {
				const c = entryAt(text, j) & CLASS_MASK;
				if (c === NEWLINE) {
					newlines++;
					nextLine = j + 1;
				} else if (c !== SPACE) break;
			}
			beforeNewline = total + english;
			total += punctBefore ? NEWLINE_AFTER_PUNCT : 1;
			if (newlines > NEWLINES_FREE) total += (newlines - NEWLINES_FREE) * NEWLINE_EXTRA;
			spaceBefore = false;
			punctBefore = false;
		}
		// A line (or the text) ends here: settle the run that ends with it…
		const runLength = i - runStart;
		if (isRandomRun(runLength, upperCount - runUpper, lowerCount - runLower, digitCount - runDigits)) {
			const spent = (i < n ? beforeNewline : total + english) - runSpent;
			const extra = runLength * RANDOM_RUN_TOKENS_PER_CHAR - spent;
			if (extra > 0) total += extra;
		}
		// …and price the line's Latin words by its accents, adding what non-Russian Cyrillic and
		// Japanese kanji cost beyond their letters.
		if (lineMixed) {
			const accented = (letters[LATIN] ?? 0) + (letters[LATIN_EXT] ?? 0);
			const latin = accented + lowerCount - lineLower + upperCount - lineUpper;
			let share = latin > 0 ? (accented / latin - EUROPEAN_ACCENT_START) / EUROPEAN_ACCENT_RAMP : 0;
			share = share < 0 ? 0 : share > 1 ? 1 : share;
			total += english + share * (european - english);
			const cyrillicExt = (letters[CYRILLIC_EXT] ?? 0) + (letters[CYRILLIC_RARE] ?? 0);
			if (cyrillicExt > 0) {
				const cyrillic = cyrillicExt + (letters[CYRILLIC] ?? 0);
				share = cyrillicExt / cyrillic / CYRILLIC_EXT_SHARE;
				total += (share > 1 ? 1 : share) * cyrillic * CYRILLIC_EXT_EXTRA;
			}
			const kana = letters[KANA] ?? 0;
			const han = letters[CJK] ?? 0;
			if (kana > 0 && han > 0) {
				share = kana / (kana + han) / KANA_SHARE;
				total += (share > 1 ? 1 : share) * han * KANJI_EXTRA;
			}
			letters.fill(0);
			lineMixed = false;
		} else total += english;
		if (i >= n) return total;
		// Start the next line, and a new run, after the newline.
		english = 0;
		european = 0;
		lineLower = lowerCount;
		lineUpper = upperCount;
		i = nextLine;
		e = i < n ? entryAt(text, i) : 0;
		runStart = i;
		runSpent = total;
		runUpper = upperCount;
		runLower = lowerCount;
		runDigits = digitCount;
	}
}
