// The estimator on texts dense in digits, escapes and punctuation runs (troff, dumps, number tables,
// minified code and JSON, LaTeX, escaped strings, ASCII tables) in nine scripts, and on Korean and
// Persian prose: tests/fixtures/tokens/dense.jsonl, with its held-out split the fit never sees.
import { describe, expect, it } from "vitest";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { loadDenseSamples, type DenseSample } from "../fixtures/tokens/samples";
import { DENSE_CATEGORIES } from "../fixtures/tokens/dense/denseTexts";
import { SCRIPTS } from "../fixtures/tokens/dense/vocabulary";
import { ESTIMATOR_WORST_RATIO, estimateTokens } from "../../src/chat/tokens";

const dense = loadDenseSamples();

function ratioBy(samples: readonly DenseSample[], key: (s: DenseSample) => string): Map<string, number> {
	const sums = new Map<string, { estimate: number; exact: number }>();
	for (const s of samples) {
		const t = sums.get(key(s)) ?? { estimate: 0, exact: 0 };
		t.estimate += estimateTokens(s.text);
		t.exact += s.o200k;
		sums.set(key(s), t);
	}
	return new Map([...sums].map(([k, t]) => [k, t.estimate / t.exact]));
}

/** Groups whose total estimate is more than 10% off their o200k total, for a readable failure. */
function outside(ratios: Map<string, number>): string[] {
	return [...ratios].filter(([, r]) => r < 0.9 || r > 1.1).map(([g, r]) => `${g}: ${r.toFixed(3)}`);
}

describe("estimateTokens on dense texts", () => {
	it("has every category in every script, and both splits", () => {
		for (const category of DENSE_CATEGORIES) {
			for (const script of SCRIPTS) expect({ category, script, n: dense.filter((s) => s.group === category && s.script === script).length }).toMatchObject({ n: 4 });
		}
		expect(dense.filter((s) => s.group === "prose" && s.script === "ko").length).toBeGreaterThanOrEqual(10);
		expect(dense.filter((s) => s.group === "prose" && s.script === "fa").length).toBeGreaterThanOrEqual(10);
		expect(dense.filter((s) => s.split === "held-out").length).toBeGreaterThanOrEqual(80);
	});

	it("records the exact o200k count of every text", () => {
		const wrong = dense.filter((s) => countTokens(s.text) !== s.o200k).map((s) => s.text.slice(0, 40));
		expect(wrong).toEqual([]);
	});

	it("never estimates a dense text below 0.85× (ESTIMATOR_WORST_RATIO) its o200k count", () => {
		const low = dense
			.filter((s) => estimateTokens(s.text) < ESTIMATOR_WORST_RATIO * s.o200k)
			.map((s) => `${s.group}/${s.script}/${s.split}: ${estimateTokens(s.text)} < ${ESTIMATOR_WORST_RATIO} × ${s.o200k}`);
		expect(low).toEqual([]);
	});

	it("keeps every category's total within ±10% on the training split", () => {
		expect(outside(ratioBy(dense.filter((s) => s.split === "train"), (s) => s.group))).toEqual([]);
	});

	it("keeps every category's total within ±10% on the held-out split", () => {
		expect(outside(ratioBy(dense.filter((s) => s.split === "held-out"), (s) => s.group))).toEqual([]);
	});

	it("prices a table drawn with box rules (─ ═) near its o200k count: a run of rules merges", () => {
		// o200k has a token for eight ─ in a row; priced as other symbols, such tables were 1.12-1.5×.
		const boxTables = dense.filter((s) => s.group === "ascii-table" && s.text.includes("──"));
		expect(boxTables.length).toBeGreaterThanOrEqual(6);
		const over = boxTables.filter((s) => estimateTokens(s.text) > 1.15 * s.o200k).map((s) => `${s.script}/${s.split}: ${estimateTokens(s.text)} > 1.15 × ${s.o200k}`);
		expect(over).toEqual([]);
	});

	it("keeps every script's total within ±10% across the dense texts", () => {
		expect(outside(ratioBy(dense, (s) => s.script))).toEqual([]);
	});

	it("keeps Korean and Persian prose within ±10% (they were overcounted)", () => {
		expect(outside(ratioBy(dense.filter((s) => s.group === "prose"), (s) => `prose-${s.script}`))).toEqual([]);
	});

	it("prices digits of Arabic and Persian script at about a token each, not one per three", () => {
		for (const digits of ["۱۲۳۴۵۶۷۸۹۰۱۲", "١٢٣٤٥٦٧٨٩٠١٢"]) expect(estimateTokens(digits)).toBeGreaterThanOrEqual(0.85 * countTokens(digits));
	});

	it("prices rare Hangul syllables above common ones", () => {
		// 가 and 나 are one o200k token each; 쬔 and 벚 are not.
		expect(estimateTokens("쬔벚쬔벚쬔벚")).toBeGreaterThan(estimateTokens("가나가나가나"));
	});
});
