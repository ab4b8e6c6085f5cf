// Character classes for the token estimator: the script or kind of every UTF-16 code unit, in a
// 64 KB table built from Unicode ranges (not shipped as data) on the first estimate, not at load. Classes group characters
// that o200k treats alike; a script the fitted data lacks still lands in a class whose weight is
// set by principle (rare scripts cost about their UTF-8 bytes).

import { HANGUL_SINGLE_TOKEN_SYLLABLES } from "./tokenHangul";

let next = 0;
const cls = (): number => next++;

export const LOWER = cls(); // a-z
export const UPPER = cls(); // A-Z
export const DIGIT = cls(); // 0-9
export const SPACE = cls(); // space, no-break space, the Unicode spaces
export const NEWLINE = cls(); // \n, \r, line and paragraph separators
export const TAB = cls(); // \t, vertical tab, form feed
export const PUNCT = cls(); // . , ; : ! ? ' " `
export const BRACKET = cls(); // ( ) [ ] { } < >
export const OPERATOR = cls(); // # $ % & * + - / = @ \ ^ _ | ~
export const CONTROL = cls(); // other C0 and C1 controls, DEL: byte tokens
export const LATIN = cls(); // Latin-1 letters (é, ü, ñ) and Latin Extended Additional (Vietnamese)
export const LATIN_EXT = cls(); // Latin Extended-A/B and IPA (č, ł, ş, ő)
export const CYRILLIC = cls(); // the Russian alphabet, lower case
export const CYRILLIC_UPPER = cls(); // the Russian alphabet, upper case: fewer merges
export const CYRILLIC_EXT = cls(); // other Cyrillic (Ukrainian і ї є ґ, Serbian ђ ј, Kazakh қ ә)
export const GREEK = cls();
export const ARABIC = cls(); // Arabic, Persian, Urdu
export const HEBREW = cls();
export const INDIC = cls(); // Devanagari, Bengali, Gujarati, Tamil
export const INDIC_SOUTH = cls(); // Telugu, Kannada, Malayalam
export const INDIC_RARE = cls(); // Gurmukhi, Sinhala: few merges
export const ORIYA = cls(); // fewer still
export const THAI = cls();
export const SOUTHEAST_ASIAN = cls(); // Myanmar, Khmer
export const HANGUL = cls();
export const HAN = cls(); // CJK ideographs and radicals
export const KANA = cls(); // hiragana, katakana, halfwidth katakana
export const CAUCASIAN = cls(); // Armenian, Georgian
export const SCRIPT_2B = cls(); // other letters below U+0800 (Syriac, Thaana, NKo): two UTF-8 bytes
export const SCRIPT_3B = cls(); // Lao, Tibetan, Ethiopic, Bopomofo: three bytes, some merges
export const SCRIPT_BYTES = cls(); // every other BMP script (Cherokee, syllabics, Yi…): about its bytes
export const MARK = cls(); // combining marks
export const JOINER = cls(); // zero-width (non-)joiner, variation selectors, direction marks
// "…" marks where the engine cut a text (textFit.ts). It costs the same after any character and
// the text after it costs as after a line break, so a cut text never costs more than a longer cut.
export const ELLIPSIS = cls();
export const PUNCT_U = cls(); // common non-ASCII punctuation: quotes, dashes, CJK punctuation, currency
export const SYMBOL_U = cls(); // arrows, mathematical operators, box drawing, fullwidth forms
export const SYMBOL_BYTES = cls(); // Braille, enclosed alphanumerics, private use: byte tokens
export const EMOJI_BMP = cls(); // pictographs and dingbats in the BMP (☕, ✅, ★)
export const HIGH_EMOJI = cls(); // high surrogate of an emoji (U+1F000-1FFFF)
export const HIGH_HAN = cls(); // high surrogate of a CJK extension ideograph (planes 2-3)
export const HIGH_OTHER = cls(); // high surrogate of anything else beyond the BMP
export const LOW_SURROGATE = cls();
// Decimal digits of other scripts (Arabic-Indic, Persian, Devanagari, Bengali): o200k has few merges
// for them, so a number in them costs about a token a digit, not one per three.
export const DIGIT_NATIVE = cls();
// Hangul syllables that are not one o200k token on their own (tokenHangul.ts): rare, two or three
// tokens each. A Korean text's cost depends mostly on how many it has.
export const HANGUL_RARE = cls();
// The box-drawing rules ─ ━ ═: o200k merges a run of them (eight ─ to a token), where other box
// drawing costs a token or two a character. A table drawn with them was overcounted by up to 50%.
export const BOX_RULE = cls();

/** Classes fit in CLASS_BITS bits, so a pair of classes indexes a flat table. */
export const CLASS_COUNT = next;
export const CLASS_BITS = 6;
/** Positions inside a run of one class that get their own weight; later ones share the last. */
export const RUN_BITS = 4;
export const RUN_BUCKETS = 1 << RUN_BITS;

let table: Uint8Array | undefined;

/** Class of every UTF-16 code unit: built on first use (the plugin's load must not pay for it), then kept. */
export function classTable(): Uint8Array {
	return (table ??= buildTable());
}

function buildTable(): Uint8Array {
	const t = new Uint8Array(0x10000);
	const set = (from: number, to: number, value: number): void => {
		t.fill(value, from, to + 1);
	};
	const each = (chars: string, value: number): void => {
		for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)] = value;
	};
	// Unknown scripts cost about their bytes: two below U+0800, three above.
	set(0x80, 0x7ff, SCRIPT_2B);
	set(0x800, 0xffff, SCRIPT_BYTES);
	set(0, 0x7f, CONTROL);
	set(0x20, 0x7e, OPERATOR);
	set(0x61, 0x7a, LOWER);
	set(0x41, 0x5a, UPPER);
	set(0x30, 0x39, DIGIT);
	each(" ", SPACE);
	each("\n\r", NEWLINE);
	each("\t\v\f", TAB);
	each(".,;:!?'\"`", PUNCT);
	each("()[]{}<>", BRACKET);
	set(0x80, 0x9f, CONTROL);
	set(0xa0, 0xbf, PUNCT_U);
	t[0xa0] = SPACE;
	set(0xc0, 0xff, LATIN);
	t[0xd7] = SYMBOL_U;
	t[0xf7] = SYMBOL_U;
	set(0x100, 0x2af, LATIN_EXT);
	set(0x2b0, 0x2ff, SYMBOL_U);
	set(0x300, 0x36f, MARK);
	set(0x370, 0x3ff, GREEK);
	set(0x400, 0x52f, CYRILLIC_EXT);
	set(0x410, 0x42f, CYRILLIC_UPPER);
	set(0x430, 0x44f, CYRILLIC);
	t[0x401] = CYRILLIC_UPPER;
	t[0x451] = CYRILLIC;
	set(0x483, 0x489, MARK);
	set(0x530, 0x58f, CAUCASIAN);
	set(0x590, 0x5ff, HEBREW);
	set(0x591, 0x5c7, MARK);
	set(0x600, 0x6ff, ARABIC);
	set(0x64b, 0x65f, MARK);
	set(0x660, 0x669, DIGIT_NATIVE);
	set(0x6f0, 0x6f9, DIGIT_NATIVE);
	set(0x750, 0x77f, ARABIC);
	set(0x8a0, 0x8ff, ARABIC);
	set(0x900, 0xbff, INDIC);
	set(0x966, 0x96f, DIGIT_NATIVE);
	set(0x9e6, 0x9ef, DIGIT_NATIVE);
	set(0xa00, 0xa7f, INDIC_RARE);
	set(0xb00, 0xb7f, ORIYA);
	set(0xc00, 0xd7f, INDIC_SOUTH);
	set(0xd80, 0xdff, INDIC_RARE);
	set(0xe00, 0xe7f, THAI);
	set(0x1000, 0x109f, SOUTHEAST_ASIAN);
	set(0x10a0, 0x10ff, CAUCASIAN);
	set(0xe80, 0xfff, SCRIPT_3B); // Lao, Tibetan
	set(0x1100, 0x11ff, HANGUL);
	set(0x1200, 0x139f, SCRIPT_3B); // Ethiopic
	set(0x1780, 0x17ff, SOUTHEAST_ASIAN);
	set(0x1ab0, 0x1aff, MARK);
	set(0x1c90, 0x1cbf, CAUCASIAN);
	set(0x1dc0, 0x1dff, MARK);
	set(0x1e00, 0x1eff, LATIN);
	set(0x1f00, 0x1fff, GREEK);
	set(0x2000, 0x2bff, SYMBOL_U);
	set(0x2000, 0x200a, SPACE);
	set(0x200b, 0x200f, JOINER);
	set(0x2010, 0x206f, PUNCT_U); // dashes, quotes, bullets
	t[0x2026] = ELLIPSIS;
	set(0x202a, 0x202e, JOINER);
	set(0x2066, 0x2069, JOINER);
	t[0x2028] = NEWLINE;
	t[0x2029] = NEWLINE;
	t[0x202f] = SPACE;
	set(0x20a0, 0x20cf, PUNCT_U); // currency
	set(0x20d0, 0x20ff, MARK);
	set(0x2460, 0x24ff, SYMBOL_BYTES); // enclosed alphanumerics
	// Box drawing: corners and joints are two byte tokens each; the few o200k has as tokens (│ ├ ║)
	// stay symbols; the horizontal rules merge in runs.
	set(0x2500, 0x257f, SYMBOL_BYTES);
	each("│┃├┣║╗╝", SYMBOL_U);
	each("─━═", BOX_RULE);
	set(0x231a, 0x23ff, EMOJI_BMP);
	set(0x2600, 0x27bf, EMOJI_BMP);
	set(0x2800, 0x28ff, SYMBOL_BYTES); // Braille
	set(0x2b00, 0x2bff, EMOJI_BMP);
	set(0x2d00, 0x2d2f, CAUCASIAN);
	set(0x2e00, 0x2e7f, PUNCT_U);
	set(0x2e80, 0x2fdf, HAN);
	set(0x3000, 0x303f, PUNCT_U);
	t[0x3000] = SPACE;
	set(0x3040, 0x30ff, KANA);
	set(0x31f0, 0x31ff, KANA);
	set(0x3100, 0x312f, SCRIPT_3B); // Bopomofo
	set(0x31a0, 0x31bf, SCRIPT_3B);
	set(0x3130, 0x318f, HANGUL);
	set(0x3200, 0x33ff, SYMBOL_BYTES);
	set(0x3400, 0x4dbf, HAN);
	set(0x4dc0, 0x4dff, SYMBOL_U);
	set(0x4e00, 0x9fff, HAN);
	set(0xa960, 0xa97f, HANGUL);
	set(0xac00, 0xd7ff, HANGUL);
	set(0xac00, 0xd7a3, HANGUL_RARE);
	each(HANGUL_SINGLE_TOKEN_SYLLABLES, HANGUL);
	set(0xd800, 0xdbff, HIGH_OTHER);
	set(0xd83c, 0xd83f, HIGH_EMOJI);
	set(0xd840, 0xd8bf, HIGH_HAN);
	set(0xdc00, 0xdfff, LOW_SURROGATE);
	set(0xe000, 0xf8ff, SYMBOL_BYTES);
	set(0xf900, 0xfaff, HAN);
	set(0xfb1d, 0xfb4f, HEBREW);
	set(0xfb50, 0xfdff, ARABIC);
	set(0xfe00, 0xfe0f, JOINER);
	set(0xfe10, 0xfe6f, PUNCT_U);
	set(0xfe70, 0xfefe, ARABIC);
	t[0xfeff] = JOINER;
	set(0xff00, 0xffef, SYMBOL_U); // fullwidth forms
	set(0xff61, 0xff65, PUNCT_U);
	set(0xff66, 0xff9f, KANA);
	set(0xffa0, 0xffdc, HANGUL);
	set(0xfff0, 0xffff, SYMBOL_BYTES);
	return t;
}
