// Character classes for the token estimator: one table lookup per UTF-16 code unit, with
// surrogate pairs resolved to their code point's class. No regex and no allocation per character.
// Scripts are grouped by how o200k treats them, measured on samples (see bench/tokens.ts).

// Letters first, so `cls <= LAST_LETTER` tests "is a letter".
export const ASCII_LOWER = 0;
export const ASCII_UPPER = 1;
export const LATIN = 2; // Latin-1 accented letters (French, German, Spanish) and Vietnamese
export const LATIN_EXT = 3; // rarer Latin letters: Czech, Polish, Turkish, Icelandic… (č, ł, ş, þ)
export const CYRILLIC = 4;
export const CYRILLIC_EXT = 5; // Cyrillic letters Russian lacks (Ukrainian і ї є ґ, Kazakh қ ә…)
export const CYRILLIC_RARE = 6; // Serbian and Macedonian ђ ј љ њ ћ џ: o200k splits them off
export const GREEK = 7;
export const ARABIC = 8; // Arabic, Persian, Urdu
export const HEBREW = 9;
export const INDIC = 10; // Devanagari, Bengali, Gujarati, Tamil
export const INDIC_SOUTH = 11; // Telugu, Kannada, Malayalam: merged more than Devanagari
export const INDIC_RARE = 12; // Gurmukhi, Sinhala: far fewer merges
export const ORIYA = 13; // fewer still
export const THAI = 14;
export const SOUTHEAST_ASIAN = 15; // Khmer, Myanmar
export const CJK = 16; // Han ideographs (Chinese, Japanese kanji)
export const KANA = 17;
export const HANGUL = 18;
export const CAUCASIAN = 19; // Armenian, Georgian
export const FULLWIDTH = 20; // fullwidth Latin letters and digits
export const SPARSE_SCRIPT = 21; // Ethiopic, Lao, Tibetan, and unknown two-byte scripts: near bytes
export const OTHER_LETTER = 22; // every other script (Cherokee, syllabics…): byte tokens
export const MARK = 23; // combining marks continue the letter run they follow
export const ASTRAL_LETTER = 24; // mathematical letters beyond the BMP
export const ASTRAL_HAN = 25; // CJK extension ideographs beyond the BMP
export const ASTRAL_OTHER = 26; // anything else beyond the BMP but emoji: up to four byte tokens
export const LAST_LETTER = 26;
export const DIGIT = 27;
export const SPACE = 28;
export const NEWLINE = 29;
export const PUNCT = 30; // ASCII punctuation and symbols
export const SYMBOL = 31; // common non-ASCII punctuation and symbols (dashes, quotes, €, CJK punctuation)
export const SYMBOL_RARE = 32; // arrows, mathematical operators, geometric shapes…
export const SYMBOL_BYTES = 33; // Braille, enclosed alphanumerics: mostly byte tokens
export const EMOJI = 34; // emoji, dingbats and other pictographs
export const JOINER = 35; // zero-width joiner, variation selectors: glue inside emoji sequences
export const SURROGATE = 36; // resolved to a pair's class (or SYMBOL when lone) during the scan

export const CLASS_MASK = 63;
export const UPPER_FLAG = 64;
export const LOWER_FLAG = 128;
export const ASTRAL_FLAG = 256; // set by entryAt on a surrogate pair: the character is two code units
/** A BMP letter without case (Han, kana, Arabic, Indic…): the scan prices runs of them in one tight loop. */
export const CASELESS_FLAG = 512;
/** Kana and Han letters, counted per line to tell Japanese from Chinese. */
export const KANA_FLAG = 1024;
export const HAN_FLAG = 2048;
/** Bit positions of KANA_FLAG and HAN_FLAG, to count them without a branch. */
export const KANA_SHIFT = 10;
export const HAN_SHIFT = 11;

/** Entry (class | case flags) of every BMP code unit; surrogates read SURROGATE. */
export const TABLE = buildTable();

function setRange(table: Uint16Array, from: number, to: number, value: number): void {
	table.fill(value, from, to + 1);
}

/** Class and case of every BMP code unit. Surrogates are resolved in the scan. */
function buildTable(): Uint16Array {
	const t = new Uint16Array(0x10000);
	// Unknown scripts cost the most: two bytes per letter below U+0800, three above.
	setRange(t, 0, 0x7ff, SPARSE_SCRIPT);
	setRange(t, 0x800, 0xffff, OTHER_LETTER);
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
	// Nordic letters rare in the vocabulary: Æ Ð Ø Þ æ ð ø þ.
	for (const c of [0xc6, 0xd0, 0xd8, 0xde]) t[c] = LATIN_EXT | UPPER_FLAG;
	for (const c of [0xe6, 0xf0, 0xf8, 0xfe]) t[c] = LATIN_EXT | LOWER_FLAG;
	t[0xd7] = SYMBOL;
	t[0xf7] = SYMBOL;
	// Latin Extended-A/B alternate upper/lower case; close enough for camel-case splitting.
	for (let c = 0x100; c <= 0x24f; c++) t[c] = LATIN_EXT | (c % 2 === 0 ? UPPER_FLAG : LOWER_FLAG);
	setRange(t, 0x250, 0x2af, LATIN_EXT | LOWER_FLAG);
	setRange(t, 0x2b0, 0x2ff, SYMBOL);
	setRange(t, 0x300, 0x36f, MARK);
	setRange(t, 0x370, 0x3ff, GREEK | LOWER_FLAG);
	setRange(t, 0x391, 0x3a9, GREEK | UPPER_FLAG);
	setRange(t, 0x400, 0x40f, CYRILLIC_EXT | UPPER_FLAG);
	setRange(t, 0x410, 0x42f, CYRILLIC | UPPER_FLAG);
	setRange(t, 0x430, 0x44f, CYRILLIC | LOWER_FLAG);
	setRange(t, 0x450, 0x45f, CYRILLIC_EXT | LOWER_FLAG);
	t[0x401] = CYRILLIC | UPPER_FLAG; // Ё
	t[0x451] = CYRILLIC | LOWER_FLAG; // ё
	for (const c of [0x402, 0x403, 0x408, 0x409, 0x40a, 0x40b, 0x40c, 0x40f]) t[c] = CYRILLIC_RARE | UPPER_FLAG;
	for (const c of [0x452, 0x453, 0x458, 0x459, 0x45a, 0x45b, 0x45c, 0x45f]) t[c] = CYRILLIC_RARE | LOWER_FLAG;
	for (let c = 0x460; c <= 0x52f; c++) t[c] = CYRILLIC_EXT | (c % 2 === 0 ? UPPER_FLAG : LOWER_FLAG);
	setRange(t, 0x483, 0x489, MARK);
	setRange(t, 0x530, 0x58f, CAUCASIAN);
	setRange(t, 0x590, 0x5ff, HEBREW);
	setRange(t, 0x591, 0x5c7, MARK);
	setRange(t, 0x600, 0x6ff, ARABIC);
	setRange(t, 0x64b, 0x65f, MARK);
	setRange(t, 0x660, 0x669, DIGIT);
	setRange(t, 0x6f0, 0x6f9, DIGIT);
	setRange(t, 0x750, 0x77f, ARABIC);
	setRange(t, 0x8a0, 0x8ff, ARABIC);
	setRange(t, 0x900, 0xdff, INDIC);
	setRange(t, 0xa00, 0xa7f, INDIC_RARE);
	setRange(t, 0xb00, 0xb7f, ORIYA);
	setRange(t, 0xc00, 0xd7f, INDIC_SOUTH);
	setRange(t, 0xd80, 0xdff, INDIC_RARE);
	setRange(t, 0xe00, 0xe7f, THAI);
	setRange(t, 0xe80, 0xfff, SPARSE_SCRIPT); // Lao, Tibetan
	setRange(t, 0x1000, 0x109f, SOUTHEAST_ASIAN);
	setRange(t, 0x10a0, 0x10ff, CAUCASIAN);
	setRange(t, 0x1100, 0x11ff, HANGUL);
	setRange(t, 0x1200, 0x139f, SPARSE_SCRIPT); // Ethiopic
	setRange(t, 0x1780, 0x17ff, SOUTHEAST_ASIAN);
	setRange(t, 0x1ab0, 0x1aff, MARK);
	setRange(t, 0x1c90, 0x1cbf, CAUCASIAN);
	setRange(t, 0x1dc0, 0x1dff, MARK);
	setRange(t, 0x1e00, 0x1eff, LATIN | LOWER_FLAG);
	setRange(t, 0x1f00, 0x1fff, GREEK | LOWER_FLAG);
	setRange(t, 0x2000, 0x2bff, SYMBOL_RARE);
	setRange(t, 0x2000, 0x206f, SYMBOL); // general punctuation: dashes, quotes, bullets, ellipsis
	setRange(t, 0x200e, 0x200f, SYMBOL_RARE); // direction marks
	setRange(t, 0x202a, 0x202e, SYMBOL_RARE);
	setRange(t, 0x2066, 0x2069, SYMBOL_RARE);
	setRange(t, 0x20a0, 0x20cf, SYMBOL); // currency
	setRange(t, 0x2460, 0x24ff, SYMBOL_BYTES); // enclosed alphanumerics
	// Box drawing: horizontal lines merge into long runs like ASCII dashes ("──────"); corners and
	// junctions are rare tokens of their own.
	setRange(t, 0x2500, 0x259f, SYMBOL_RARE);
	for (const c of [0x2500, 0x2501, 0x2550]) t[c] = PUNCT;
	t[0x2502] = SYMBOL;
	// Pictographs in the BMP (☕, ✅, ⏳, ★) are emoji too.
	setRange(t, 0x231a, 0x23ff, EMOJI);
	setRange(t, 0x2600, 0x27bf, EMOJI);
	setRange(t, 0x2b00, 0x2bff, EMOJI);
	setRange(t, 0x2800, 0x28ff, SYMBOL_BYTES); // Braille
	setRange(t, 0x2000, 0x200a, SPACE);
	t[0x200b] = JOINER;
	t[0x200c] = JOINER;
	t[0x200d] = JOINER;
	t[0x2028] = NEWLINE;
	t[0x2029] = NEWLINE;
	setRange(t, 0x20d0, 0x20ff, MARK);
	setRange(t, 0x2d00, 0x2d2f, CAUCASIAN);
	setRange(t, 0x2e00, 0x2e7f, SYMBOL);
	setRange(t, 0x2e80, 0x2fdf, CJK);
	setRange(t, 0x3000, 0x303f, SYMBOL);
	t[0x3000] = SPACE;
	setRange(t, 0x3040, 0x30ff, KANA);
	setRange(t, 0x3100, 0x312f, SPARSE_SCRIPT); // Bopomofo
	setRange(t, 0x3130, 0x318f, HANGUL);
	setRange(t, 0x31f0, 0x31ff, KANA);
	setRange(t, 0x3200, 0x33ff, SYMBOL_RARE);
	setRange(t, 0x3400, 0x4dbf, CJK);
	setRange(t, 0x4dc0, 0x4dff, SYMBOL_RARE);
	setRange(t, 0x4e00, 0x9fff, CJK);
	setRange(t, 0xa960, 0xa97f, HANGUL);
	setRange(t, 0xac00, 0xd7ff, HANGUL);
	setRange(t, 0xd800, 0xdfff, SURROGATE);
	setRange(t, 0xe000, 0xf8ff, SYMBOL_RARE);
	setRange(t, 0xf900, 0xfaff, CJK);
	setRange(t, 0xfb1d, 0xfb4f, HEBREW);
	setRange(t, 0xfb50, 0xfdff, ARABIC);
	setRange(t, 0xfe00, 0xfe0f, JOINER);
	setRange(t, 0xfe10, 0xfe6f, SYMBOL);
	setRange(t, 0xfe70, 0xfeff, ARABIC);
	setRange(t, 0xff00, 0xff65, SYMBOL);
	setRange(t, 0xff10, 0xff19, FULLWIDTH);
	setRange(t, 0xff21, 0xff3a, FULLWIDTH | UPPER_FLAG);
	setRange(t, 0xff41, 0xff5a, FULLWIDTH | LOWER_FLAG);
	setRange(t, 0xff66, 0xff9f, KANA);
	setRange(t, 0xffa0, 0xffdc, HANGUL);
	setRange(t, 0xffe0, 0xffff, SYMBOL);
	for (let c = 0; c < 0x10000; c++) {
		const entry = t[c] ?? 0;
		const cls = entry & CLASS_MASK;
		if (cls >= ARABIC && cls <= MARK && (entry & (UPPER_FLAG | LOWER_FLAG)) === 0) {
			t[c] = entry | CASELESS_FLAG | (cls === KANA ? KANA_FLAG : 0) | (cls === CJK ? HAN_FLAG : 0);
		}
	}
	return t;
}

/** Class of an astral code point (0x10000 and up). */
function astralClass(cp: number): number {
	if (cp >= 0x1f3fb && cp <= 0x1f3ff) return JOINER; // skin tone modifiers
	if (cp >= 0x1f000 && cp <= 0x1faff) return EMOJI;
	if (cp >= 0x20000 && cp <= 0x3ffff) return ASTRAL_HAN; // CJK extensions B-H
	if (cp >= 0x1d400 && cp <= 0x1d7ff) return ASTRAL_LETTER; // mathematical letters
	if (cp >= 0xe0000 && cp <= 0xe007f) return JOINER; // tag characters in flag sequences
	return ASTRAL_OTHER;
}

/**
 * Table entry (class | case flags) of the character at `i`. A valid surrogate pair gets
 * ASTRAL_FLAG so the caller steps over two code units; a lone surrogate counts as a symbol.
 */
export function entryAt(text: string, i: number): number {
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
