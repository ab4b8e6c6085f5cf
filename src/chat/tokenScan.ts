// The token estimator's single pass: mimics the pre-tokenizer of BPE encodings such as o200k
// (words, 1-3 digit groups, punctuation runs, whitespace) and prices each piece by its script with
// the fixed-point costs in tokenCosts.ts. Written as one hand-inlined loop because it runs on every
// prompt; its cost is mostly the one unpredictable branch where each piece ends.

import * as classes from "./tokenClasses";
import * as costs from "./tokenCosts";

// Local copies of everything the hot loop touches. Under CommonJS transforms (tsx, vitest) each
// read of an imported binding goes through a getter, which made the loop ten times slower.
const {
	ASCII_LOWER,
	ASCII_UPPER,
	ASTRAL_FLAG,
	CASELESS_FLAG,
	HAN_SHIFT,
	KANA_SHIFT,
	CLASS_MASK,
	CYRILLIC,
	CYRILLIC_RARE,
	DIGIT,
	LAST_LETTER,
	LATIN_EXT,
	LOWER_FLAG,
	NEWLINE,
	PUNCT,
	SPACE,
	SYMBOL,
	SURROGATE,
	TABLE,
	UPPER_FLAG,
	entryAt,
} = classes;
const {
	BASE_COST,
	CAPS_ASCII,
	CAPS_COST,
	CYRILLIC_EXT_EXTRA_COST,
	CYRILLIC_EXT_SHARE,
	ENGLISH_COST,
	EUROPEAN_ACCENT_RAMP,
	EUROPEAN_ACCENT_START,
	EUROPEAN_COST,
	GROUP_COST,
	KANA_SHARE,
	KANJI_EXTRA_COST,
	LETTER_COST,
	LONG_STEP,
	NEWLINES_FREE,
	NEWLINE_AFTER_PUNCT_COST,
	NEWLINE_EXTRA_COST,
	ONE,
	PUNCT_AFTER,
	PUNCT_PREFIX_COST,
	RANDOM_RUN_COST,
	RANDOM_RUN_MIN,
	SCALE,
	SPACE_RUN_TOKEN_CHARS,
	SYMBOL_PREFIX_COST,
	TAB_PREFIX_COST,
	TAB_RUN_TOKEN_CHARS,
	WORD_TABLE_SIZE,
	isRandomRun,
} = costs;

/**
 * The estimate before rounding; exported for the estimator's own tuning benchmark.
 *
 * Each branch consumes one pre-token and leaves `e` holding the entry of the character at `i`, so
 * every code unit is classified once.
 */
export function fractionalTokens(text: string): number {
	const n = text.length;
	// Fixed-point integer total; the line blends below add fractions to `fraction`.
	let total = 0;
	let fraction = 0;
	// Latin words are priced under both word tables; the line's share of accented letters picks
	// the blend when the line ends, so English is not charged like French nor French like English.
	let english = 0;
	let european = 0;
	// Letters of the current line that its blends below depend on.
	let lineMixed = false;
	let accented = 0;
	let cyrillic = 0;
	let cyrillicExt = 0;
	let kana = 0;
	let han = 0;
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
				let cost = BASE_COST[cls] ?? 0;
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
							if (((code - 0x61) >>> 0) > 25) break;
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
						if (!first) cost += CAPS_ASCII;
						prevLower = false;
						i++;
					} else if ((e & CASELESS_FLAG) !== 0) {
						// Letters without case (Han, kana, Arabic, Indic…), mixed freely: no case
						// split can happen inside, so one branch-light loop prices them all.
						lineMixed = true;
						for (;;) {
							cost += LETTER_COST[e & CLASS_MASK] ?? 0;
							kana += (e >> KANA_SHIFT) & 1;
							han += (e >> HAN_SHIFT) & 1;
							i++;
							if (i >= n) break;
							e = TABLE[text.charCodeAt(i)] ?? 0;
							if ((e & CASELESS_FLAG) === 0) break;
						}
						if (i >= n) break;
						if (e === SURROGATE) e = entryAt(text, i);
						if ((e & CLASS_MASK) > LAST_LETTER) break;
						prevLower = false;
						first = false;
						continue;
					} else {
						// A stretch of letters with the same class and case (a Cyrillic word).
						const start = i;
						if ((e & ASTRAL_FLAG) !== 0) i += 2;
						else {
							i++;
							while (i < n && TABLE[text.charCodeAt(i)] === e) i++;
						}
						const k = (e & ASTRAL_FLAG) !== 0 ? 1 : i - start;
						if (c <= LATIN_EXT) {
							latin += k;
							accented += k;
						} else if (c <= CYRILLIC_RARE) {
							cyrillic += k;
							if (c !== CYRILLIC) cyrillicExt += k;
						}
						lineMixed = true;
						cost += k * (LETTER_COST[c] ?? 0);
						if ((e & UPPER_FLAG) !== 0) cost += (first ? k - 1 : k) * (CAPS_COST[c] ?? 0);
						prevLower = (e & LOWER_FLAG) !== 0;
					}
					first = false;
					if (i >= n) break;
					e = entryAt(text, i);
					if ((e & CLASS_MASK) > LAST_LETTER || (prevLower && (e & UPPER_FLAG) !== 0)) break;
				}
				if (latin > 0) {
					const l = latin < WORD_TABLE_SIZE ? latin : WORD_TABLE_SIZE - 1;
					const long = (latin - l) * LONG_STEP;
					english += (ENGLISH_COST[l] ?? 0) + long;
					european += (EUROPEAN_COST[l] ?? 0) + long;
					total += cost;
				} else total += cost > ONE ? cost : ONE;
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
					const extra = runLength * RANDOM_RUN_COST - (total + english - runSpent);
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
				const long =
					len >= TAB_RUN_TOKEN_CHARS ? (((len - tabs) / SPACE_RUN_TOKEN_CHARS) | 0) + ((tabs / TAB_RUN_TOKEN_CHARS) | 0) : 0;
				spaceBefore = false;
				if (next === NEWLINE) {
					// Trailing spaces join the newline token.
					total += long * ONE;
				} else if (next === -1 || next === DIGIT) {
					// Digits take no prefix.
					total += (1 + long) * ONE;
				} else {
					// All but the last blank form one token; the last joins what follows — always when
					// it is a space, about half the time when it is a tab ("\tif" but "\t|ж").
					total += ((len > 1 ? 1 : 0) + long) * ONE + (text.charCodeAt(i - 1) === 0x20 ? 0 : TAB_PREFIX_COST);
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
				total += (((len + 2) / 3) | 0) * ONE;
				spaceBefore = false;
				punctBefore = false;
				continue;
			}
			if (cls !== NEWLINE) {
				// Punctuation, symbols and emoji group into one piece, then split by BPE.
				let cost = 0;
				let count = 0;
				let after = 0;
				let c = cls;
				for (;;) {
					cost += GROUP_COST[c | after] ?? 0;
					after = c === PUNCT ? PUNCT_AFTER : 0;
					count++;
					i += (e & ASTRAL_FLAG) !== 0 ? 2 : 1;
					if (i >= n) break;
					e = entryAt(text, i);
					c = e & CLASS_MASK;
					if (c <= DIGIT || c === SPACE || c === NEWLINE) break;
				}
				if (count === 1 && !spaceBefore && i < n && (e & CLASS_MASK) <= LAST_LETTER && (cls === PUNCT || cls === SYMBOL)) {
					cost = cls === PUNCT ? PUNCT_PREFIX_COST : SYMBOL_PREFIX_COST;
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
			total += punctBefore ? NEWLINE_AFTER_PUNCT_COST : ONE;
			if (newlines > NEWLINES_FREE) total += (newlines - NEWLINES_FREE) * NEWLINE_EXTRA_COST;
			spaceBefore = false;
			punctBefore = false;
		}
		// A line (or the text) ends here: settle the run that ends with it…
		const runLength = i - runStart;
		if (isRandomRun(runLength, upperCount - runUpper, lowerCount - runLower, digitCount - runDigits)) {
			const spent = (i < n ? beforeNewline : total + english) - runSpent;
			const extra = runLength * RANDOM_RUN_COST - spent;
			if (extra > 0) total += extra;
		}
		// …and price the line's Latin words by its accents, adding what non-Russian Cyrillic and
		// Japanese kanji cost beyond their letters.
		total += english;
		if (lineMixed) {
			let share = 0;
			// Without accented letters the line is priced as English: no divisions needed.
			if (accented > 0) {
				const latin = accented + lowerCount - lineLower + upperCount - lineUpper;
				share = (accented / latin - EUROPEAN_ACCENT_START) / EUROPEAN_ACCENT_RAMP;
				share = share < 0 ? 0 : share > 1 ? 1 : share;
				fraction += share * (european - english);
			}
			if (cyrillicExt > 0) {
				share = cyrillicExt / cyrillic / CYRILLIC_EXT_SHARE;
				fraction += (share > 1 ? 1 : share) * cyrillic * CYRILLIC_EXT_EXTRA_COST;
			}
			if (kana > 0 && han > 0) {
				share = kana / (kana + han) / KANA_SHARE;
				fraction += (share > 1 ? 1 : share) * han * KANJI_EXTRA_COST;
			}
			accented = 0;
			cyrillic = 0;
			cyrillicExt = 0;
			kana = 0;
			han = 0;
			lineMixed = false;
		}
		if (i >= n) return (total + fraction) / SCALE;
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
