import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import * as C from "../../src/chat/tokenClassTable";
import { PAIR_FEATURES, RUN_FEATURES, countFeatures, estimateFromFeatures, modelTokens } from "../../src/chat/tokenFast";

const classOf = (ch: string): number => C.CLASS_TABLE[ch.charCodeAt(0)] ?? -1;

describe("token classes", () => {
	it("puts a letter of each script in that script's class, not a fallback", () => {
		const expected: [string, number][] = [
			["a", C.LOWER], ["Q", C.UPPER], ["7", C.DIGIT], [" ", C.SPACE], ["\n", C.NEWLINE], ["\t", C.TAB],
			[".", C.PUNCT], ["{", C.BRACKET], ["=", C.OPERATOR], ["\u0001", C.CONTROL], ["é", C.LATIN], ["ệ", C.LATIN],
			["ł", C.LATIN_EXT], ["ж", C.CYRILLIC], ["Ж", C.CYRILLIC_UPPER], ["ї", C.CYRILLIC_EXT], ["ј", C.CYRILLIC_EXT],
			["λ", C.GREEK], ["ب", C.ARABIC], ["ی", C.ARABIC], ["ש", C.HEBREW], ["क", C.INDIC], ["ক", C.INDIC],
			["த", C.INDIC], ["క", C.INDIC_SOUTH], ["ക", C.INDIC_SOUTH], ["ਕ", C.INDIC_RARE], ["ක", C.INDIC_RARE],
			["ଓ", C.ORIYA], ["ก", C.THAI], ["က", C.SOUTHEAST_ASIAN], ["ក", C.SOUTHEAST_ASIAN], ["한", C.HANGUL],
			["中", C.HAN], ["あ", C.KANA], ["カ", C.KANA], ["ｶ", C.KANA], ["ա", C.CAUCASIAN], ["ა", C.CAUCASIAN],
			["ܐ", C.SCRIPT_2B], ["ދ", C.SCRIPT_2B], ["ວ", C.SCRIPT_3B], ["ཀ", C.SCRIPT_3B], ["አ", C.SCRIPT_3B],
			["ㄅ", C.SCRIPT_3B], ["Ꭰ", C.SCRIPT_BYTES], ["ᐃ", C.SCRIPT_BYTES], ["ꀀ", C.SCRIPT_BYTES],
			["\u0301", C.MARK], ["\u200d", C.JOINER], ["\ufe0f", C.JOINER], ["—", C.PUNCT_U], ["。", C.PUNCT_U],
			["€", C.PUNCT_U], ["→", C.SYMBOL_U], ["─", C.BOX_RULE], ["═", C.BOX_RULE], ["│", C.SYMBOL_U], ["┌", C.SYMBOL_BYTES], ["⠓", C.SYMBOL_BYTES], ["①", C.SYMBOL_BYTES],
			["☕", C.EMOJI_BMP], ["\u3000", C.SPACE], ["\u00a0", C.SPACE],
			["😀", C.HIGH_EMOJI], ["𠀀", C.HIGH_HAN], ["𝐀", C.HIGH_OTHER], ["𓀀", C.HIGH_OTHER], ["\udc00", C.LOW_SURROGATE],
		];
		for (const [ch, cls] of expected) expect({ ch, cls: classOf(ch) }).toEqual({ ch, cls });
	});

	it("gives every code unit a class below CLASS_COUNT, within CLASS_BITS", () => {
		expect(C.CLASS_COUNT).toBeLessThanOrEqual(1 << C.CLASS_BITS);
		expect(Math.max(...C.CLASS_TABLE)).toBe(C.CLASS_COUNT - 1);
	});
});

describe("token model", () => {
	const anyText = fc.oneof(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }), fc.string({ unit: "grapheme" }), fc.string());

	it("estimates exactly what its counted features say (the fitting script uses the features)", () => {
		fc.assert(
			fc.property(anyText, (text) => {
				const pairs = new Float64Array(PAIR_FEATURES);
				const runs = new Float64Array(RUN_FEATURES);
				countFeatures(text, pairs, runs);
				expect(estimateFromFeatures(pairs, runs)).toBe(modelTokens(text));
			}),
			{ numRuns: 500 },
		);
	});

	it("charges the cut marker \"…\" the same after any text, and text after it as after a line break", () => {
		// textFit.ts cuts texts with "…" and relies on a shorter cut never costing more.
		const marker = modelTokens("…");
		fc.assert(
			fc.property(anyText, (text) => {
				expect(modelTokens(`${text}…`) - modelTokens(text)).toBeCloseTo(marker, 9);
				expect(modelTokens(`…${text}`) - modelTokens(text)).toBeCloseTo(marker, 9);
			}),
			{ numRuns: 500 },
		);
	});

	it("prices scripts the fitted data lacks near their real cost, never far below", () => {
		// Seeded words of random letters (a worst case for merges) in scripts absent from the
		// fixtures: Yi, Vai, Ol Chiki, Samaritan, Javanese, Balinese, Runic, Ogham, Mongolian, N'Ko,
		// Tifinagh, Gothic.
		const ranges: [number, number][] = [
			[0xa000, 0xa48c], [0xa500, 0xa62b], [0x1c5a, 0x1c77], [0x800, 0x815], [0xa984, 0xa9b2], [0x1b05, 0x1b33],
			[0x16a0, 0x16ea], [0x1681, 0x169a], [0x1820, 0x1877], [0x7ca, 0x7ea], [0x2d30, 0x2d67], [0x10330, 0x1034a],
		];
		fc.assert(
			fc.property(
				fc.constantFrom(...ranges).chain(([from, to]) =>
					fc.array(fc.array(fc.integer({ min: from, max: to }), { minLength: 1, maxLength: 7 }), { minLength: 1, maxLength: 10 }),
				),
				(words) => {
					const text = words.map((w) => String.fromCodePoint(...w)).join(" ");
					const estimate = Math.ceil(modelTokens(text));
					expect(estimate).toBeGreaterThanOrEqual(0.8 * countTokens(text));
					expect(estimate).toBeLessThanOrEqual(1.5 * countTokens(text) + 2);
				},
			),
			{ numRuns: 300, seed: 2026 },
		);
	});
});
