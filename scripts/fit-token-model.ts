// Fits the token estimator's weights (src/chat/tokenModel.ts) against exact o200k counts from
// gpt-tokenizer (a dev dependency; never bundled). Run: `npx tsx scripts/fit-token-model.ts`.
//
// Model: estimate = Σ over characters of base[class] + pairExtra[previous class, class]
// + runExtra[class, position in run]. Fitted by projected Adam on an asymmetric relative loss
// (an underestimate costs more than an overestimate, and one below 0.9× far more), plus a loss on
// each target group's total, with L2 regularisation: base costs are pulled towards a prior set by
// principle (about UTF-8 bytes for rare scripts), so a class the data barely covers keeps a sane
// cost; extras are pulled towards 0. Synthetic texts are split into training and held-out halves;
// the dense texts (tests/fixtures/tokens/dense.jsonl) carry their own split, and only "train" is fitted.
import { writeFileSync } from "node:fs";
import { countTokens, encode } from "gpt-tokenizer/encoding/o200k_base";
import { HANGUL_SINGLE_TOKEN_SYLLABLES } from "../src/chat/tokenHangul";
import { loadDenseSamples } from "../tests/fixtures/tokens/samples";
import { AFTER_RUN, CLASS_BITS, CLASS_COUNT, PAIR_FEATURES, RUN_BUCKETS, RUN_FEATURES, countFeatures, pairIndex } from "../src/chat/tokenFast";
import * as C from "../src/chat/tokenClassTable";
import { syntheticTexts, targetTexts, type FitText } from "./tokenTexts";

const SCALE = 4096;
const ITERATIONS = Number(process.env.FIT_ITERATIONS ?? 4000);

/** Prior cost per code unit inside a run of the class: the fit starts here and is pulled back here. */
const PRIOR: Record<number, number> = {
	[C.LOWER]: 0.22, [C.UPPER]: 0.3, [C.DIGIT]: 0.34, [C.SPACE]: 0.1, [C.NEWLINE]: 0.3, [C.TAB]: 0.3,
	[C.PUNCT]: 0.5, [C.BRACKET]: 0.5, [C.OPERATOR]: 0.5, [C.CONTROL]: 1, [C.LATIN]: 0.4, [C.LATIN_EXT]: 0.6,
	[C.CYRILLIC]: 0.3, [C.CYRILLIC_UPPER]: 0.5, [C.CYRILLIC_EXT]: 0.6, [C.GREEK]: 0.4, [C.ARABIC]: 0.35, [C.HEBREW]: 0.45,
	[C.INDIC]: 0.45, [C.INDIC_SOUTH]: 0.6, [C.INDIC_RARE]: 0.9, [C.THAI]: 0.4, [C.SOUTHEAST_ASIAN]: 0.9,
	[C.HANGUL]: 0.6, [C.HAN]: 0.75, [C.KANA]: 0.5, [C.CAUCASIAN]: 0.7, [C.SCRIPT_2B]: 1, [C.SCRIPT_3B]: 1.5, [C.SCRIPT_BYTES]: 2.6, [C.ORIYA]: 1.2,
	[C.MARK]: 0.5, [C.JOINER]: 1, [C.PUNCT_U]: 0.8, [C.ELLIPSIS]: 1, [C.SYMBOL_U]: 1, [C.SYMBOL_BYTES]: 2, [C.EMOJI_BMP]: 1.2,
	[C.HIGH_EMOJI]: 1, [C.HIGH_HAN]: 1.2, [C.HIGH_OTHER]: 1.5, [C.LOW_SURROGATE]: 0.7,
	[C.DIGIT_NATIVE]: 1, [C.HANGUL_RARE]: 2.2, [C.BOX_RULE]: 0.2,
};
/**
 * Line breaks and tabs get no run weights: a run of them is one token however long. Spaces do:
 * before a word, a run of two or more is a token of its own plus the word's leading space.
 */
const NO_RUN_WEIGHTS = new Set([C.NEWLINE, C.TAB, C.ELLIPSIS]);

interface Row {
	kind: string;
	/** Groups whose totals the fit holds near their exact totals (target rows only). */
	groups: readonly string[];
	text: string;
	target: boolean;
	exact: number;
	weight: number;
	/** Sparse features: parameter index and count. */
	index: Int32Array;
	count: Float64Array;
}

// Parameters: base[CLASS_COUNT], pairExtra[PAIR_FEATURES], runExtra[RUN_FEATURES].
const BASE = 0;
const PAIR = CLASS_COUNT;
const RUN = PAIR + PAIR_FEATURES;
const PARAMS = RUN + RUN_FEATURES;

function toRow(t: FitText, weight: number, groups: readonly string[] = [t.kind]): Row {
	const pairs = new Float64Array(PAIR_FEATURES);
	const runs = new Float64Array(RUN_FEATURES);
	countFeatures(t.text, pairs, runs);
	const features = new Map<number, number>();
	const add = (i: number, c: number): void => {
		features.set(i, (features.get(i) ?? 0) + c);
	};
	pairs.forEach((c, p) => {
		if (c === 0) return;
		const afterRun = p >= AFTER_RUN;
		const prev = (p % AFTER_RUN) >> CLASS_BITS;
		const cls = p & ((1 << CLASS_BITS) - 1);
		add(BASE + cls, c);
		// An ellipsis costs its base after anything; what follows it is priced as after a line break.
		// (as after the start of a text: a line break that continued no run).
		// Inside a run of a class without run weights (line breaks), the pair is the same however long
		// the run, so such a run stays one price.
		const tied = afterRun && !(prev === cls && NO_RUN_WEIGHTS.has(cls));
		if (cls !== C.ELLIPSIS) add(PAIR + (prev === C.ELLIPSIS ? pairIndex(C.NEWLINE, cls) : pairIndex(prev, cls, tied)), c);
	});
	runs.forEach((c, r) => {
		if (c !== 0 && !NO_RUN_WEIGHTS.has(Math.floor(r / RUN_BUCKETS))) add(RUN + r, c);
	});
	return {
		kind: t.kind,
		groups,
		text: t.text,
		target: t.target,
		exact: countTokens(t.text),
		weight,
		index: Int32Array.from(features.keys()),
		count: Float64Array.from(features.values()),
	};
}

function estimate(row: Row, theta: Float64Array): number {
	let e = 0;
	for (let j = 0; j < row.index.length; j++) e += (theta[row.index[j] ?? 0] ?? 0) * (row.count[j] ?? 0);
	return e;
}

/** grad += scale × the row's features. */
function addFeatures(grad: Float64Array, row: Row, scale: number): void {
	for (let j = 0; j < row.index.length; j++) {
		const i = row.index[j] ?? 0;
		grad[i] = (grad[i] ?? 0) + scale * (row.count[j] ?? 0);
	}
}

/** Keeps every effective weight non-negative: base ≥ 0, base + pair extra ≥ 0, run extra ≥ 0. */
function project(theta: Float64Array): void {
	for (let k = 0; k < CLASS_COUNT; k++) theta[BASE + k] = Math.max(0, theta[BASE + k] ?? 0);
	for (let p = 0; p < PAIR_FEATURES; p++) {
		const base = theta[BASE + (p & ((1 << CLASS_BITS) - 1))] ?? 0;
		theta[PAIR + p] = Math.max(-base, theta[PAIR + p] ?? 0);
	}
	for (let r = 0; r < RUN_FEATURES; r++) theta[RUN + r] = Math.max(0, theta[RUN + r] ?? 0);
}

/**
 * Shapes the estimator's tests require (tokens.test.ts), as bounds on the unrounded estimate:
 * digits group by three exactly (o200k's own rule); ideographs cost over four times a run of
 * Latin letters of the same length; camelCase splits where a lowercase run does not.
 */
interface Shape {
	row: Row;
	lo: number;
	hi: number;
}

function shapes(): Shape[] {
	const shape = (text: string, lo: number, hi: number): Shape => ({ row: toRow({ kind: "shape", text, target: false }, 1), lo, hi });
	const out: Shape[] = [];
	for (let n = 1; n <= 15; n++) {
		const digits = "1234567890".repeat(2).slice(0, n);
		const groups = Math.ceil(n / 3);
		out.push(shape(digits, groups - 0.9, groups - 0.03));
	}
	// A number on a line of its own is two tokens: a short line must not round down to one.
	for (const text of ["7\n", "\n3", "42\n", "9\n\n"]) out.push(shape(text, 1.05, 2.97));
	out.push(shape("abcdefghijklm", 1.1, 1.97));
	out.push(shape("数据的质量往往比数量更重要", 8.05, 10.9));
	out.push(shape("getelementbyid", 2.05, 2.97));
	out.push(shape("getElementById", 3.05, 6));
	return out;
}

function fit(rows: readonly Row[], bounds: readonly Shape[] = shapes()): Float64Array {
	const theta = new Float64Array(PARAMS);
	for (let k = 0; k < CLASS_COUNT; k++) theta[BASE + k] = PRIOR[k] ?? 1;
	const groups = new Map<string, Row[]>();
	for (const r of rows) if (r.target) for (const g of r.groups) groups.set(g, [...(groups.get(g) ?? []), r]);
	const m = new Float64Array(PARAMS);
	const v = new Float64Array(PARAMS);
	const grad = new Float64Array(PARAMS);
	const est = new Float64Array(rows.length);
	const totalWeight = rows.reduce((t, r) => t + r.weight, 0);
	const lr = 0.01;
	for (let it = 1; it <= ITERATIONS; it++) {
		grad.fill(0);
		let loss = 0;
		rows.forEach((row, s) => {
			const e = estimate(row, theta);
			est[s] = e;
			const d = (e - row.exact) / row.exact;
			// Underestimates cost 4×; below 0.9× a steep hinge keeps every sample above 0.85×.
			let g = d < 0 ? 8 * d : 2 * d;
			loss += d < 0 ? 4 * d * d : d * d;
			if (d < -0.1) {
				g += 400 * (d + 0.1);
				loss += 200 * (d + 0.1) ** 2;
			}
			if (d > 0.15) g += 40 * (d - 0.15);
			const scale = (row.weight * g) / row.exact / totalWeight;
			addFeatures(grad, row, scale);
		});
		for (const { row, lo, hi } of bounds) {
			const e = estimate(row, theta);
			const excess = e > hi ? e - hi : e < lo ? e - lo : 0;
			if (excess === 0) continue;
			loss += 10 * excess * excess;
			addFeatures(grad, row, 20 * excess);
		}
		// Group totals: each target group within ±3% (the target is ±10%; held-out groups drift more).
		const rowIndex = new Map(rows.map((r, s) => [r, s]));
		for (const members of groups.values()) {
			let e = 0;
			let y = 0;
			for (const r of members) {
				e += est[rowIndex.get(r) ?? 0] ?? 0;
				y += r.exact;
			}
			const d = (e - y) / y;
			const band = 0.03;
			const excess = Math.abs(d) > band ? Math.sign(d) * (Math.abs(d) - band) : 0;
			const g = (2 * d + 200 * excess) * 0.05;
			loss += 0.05 * (d * d + 100 * excess * excess);
			for (const r of members) addFeatures(grad, r, g / y);
		}
		// Regularisation.
		for (let k = 0; k < PARAMS; k++) {
			const t = theta[k] ?? 0;
			const pull = k < PAIR ? 2e-3 * (t - (PRIOR[k] ?? 1)) : k < RUN ? 2e-3 * t : 4e-3 * t;
			grad[k] = (grad[k] ?? 0) + pull;
		}
		// The step shrinks over the last quarter: at a constant rate the loss still swings by 10-20%
		// between iterations, and the weights written would be wherever the last swing left them.
		const rate = lr * Math.min(1, 0.1 + (0.9 * (ITERATIONS - it)) / (0.25 * ITERATIONS));
		for (let k = 0; k < PARAMS; k++) {
			const g = grad[k] ?? 0;
			m[k] = 0.9 * (m[k] ?? 0) + 0.1 * g;
			v[k] = 0.999 * (v[k] ?? 0) + 0.001 * g * g;
			const mh = (m[k] ?? 0) / (1 - 0.9 ** it);
			const vh = (v[k] ?? 0) / (1 - 0.999 ** it);
			theta[k] = (theta[k] ?? 0) - (rate * mh) / (Math.sqrt(vh) + 1e-8);
		}
		project(theta);
		if (it % 500 === 0) console.error(`iteration ${it}: loss ${loss.toFixed(4)}`);
	}
	return theta;
}

/** Rounds to the fixed-point weights the estimator loads, exactly as tokenFast.ts combines them. */
function quantize(theta: Float64Array): Float64Array {
	const q = new Float64Array(PARAMS);
	for (let k = 0; k < PARAMS; k++) q[k] = Math.round((theta[k] ?? 0) * SCALE) / SCALE;
	return q;
}

function report(label: string, rows: readonly Row[], theta: Float64Array): void {
	const byKind = new Map<string, { e: number; y: number; min: number; n: number }>();
	for (const r of rows) {
		const e = Math.max(1, Math.ceil(estimate(r, theta) - 1e-9));
		const k = byKind.get(r.kind) ?? { e: 0, y: 0, min: Infinity, n: 0 };
		k.e += e;
		k.y += r.exact;
		k.n++;
		k.min = Math.min(k.min, e / r.exact);
		byKind.set(r.kind, k);
	}
	if (process.env.FIT_VERBOSE !== undefined) {
		for (const r of rows) {
			const e = Math.max(1, Math.ceil(estimate(r, theta) - 1e-9));
			if (e / r.exact < 0.86) console.error(`  ${r.kind} ${e}/${r.exact} ${JSON.stringify(r.text.slice(0, 60))}`);
		}
	}
	const bad = [...byKind.entries()].filter(([, k]) => Math.abs(k.e / k.y - 1) > 0.1 || k.min < 0.85);
	console.error(`\n${label}: ${rows.length} texts, ${byKind.size} kinds; outside ±10% or a sample below 0.85×: ${bad.length}`);
	for (const [kind, k] of byKind) {
		console.error(`  ${kind.padEnd(20)} n=${String(k.n).padStart(4)} ratio ${(k.e / k.y).toFixed(3)} min ${k.min.toFixed(3)}${bad.some(([b]) => b === kind) ? "  <--" : ""}`);
	}
}

function emit(theta: Float64Array): string {
	const base = Array.from({ length: CLASS_COUNT }, (_, k) => Math.round((theta[BASE + k] ?? 0) * SCALE));
	const pairs: number[] = [];
	for (let p = 0; p < PAIR_FEATURES; p++) {
		const w = Math.round((theta[PAIR + p] ?? 0) * SCALE);
		if (w !== 0) pairs.push(p, w);
	}
	const runs: number[] = [];
	for (let r = 0; r < RUN_FEATURES; r++) {
		const w = Math.round((theta[RUN + r] ?? 0) * SCALE);
		if (w !== 0) runs.push(r, w);
	}
	const list = (xs: number[]): string => {
		const lines: string[] = [];
		for (let k = 0; k < xs.length; k += 16) lines.push(`\t${xs.slice(k, k + 16).join(", ")},`);
		return lines.join("\n");
	};
	return [
		"// GENERATED by scripts/fit-token-model.ts from exact o200k counts (gpt-tokenizer) of the dev corpus,",
		"// the other-script fixtures, the dense texts' training split and seeded synthetic texts. Do not edit by hand; to regenerate, run",
		"// `npx tsx scripts/fit-token-model.ts` (it rewrites this file and prints the fit's accuracy).",
		"",
		"/** Weights are fixed-point: tokens × WEIGHT_SCALE. */",
		`export const WEIGHT_SCALE = ${SCALE};`,
		"",
		"/** Cost of a character of each class (by class number, see tokenClassTable.ts). */",
		`export const PAIR_BASE: readonly number[] = [\n${list(base)}\n];`,
		"",
		"/** Extra cost of a class after a given class: pairs of (pair index, weight). */",
		`export const PAIR_EXTRA: readonly number[] = [\n${list(pairs)}\n];`,
		"",
		"/** Extra cost by position in a run of one class: pairs of (run index, weight). */",
		`export const RUN_EXTRA: readonly number[] = [\n${list(runs)}\n];`,
		"",
	].join("\n");
}

function isRandomLetters(t: FitText): boolean {
	return t.kind.startsWith("rand-");
}

/**
 * The Hangul syllables that are one o200k token, as tokenHangul.ts must list them. If the file
 * differs, it is rewritten and the fit stops: the class table was built from the old list.
 */
function checkHangulSyllables(): boolean {
	let syllables = "";
	for (let c = 0xac00; c <= 0xd7a3; c++) if (encode(String.fromCharCode(c)).length === 1) syllables += String.fromCharCode(c);
	if (syllables === HANGUL_SINGLE_TOKEN_SYLLABLES) return true;
	const lines: string[] = [];
	for (let k = 0; k < syllables.length; k += 60) lines.push(`\t"${syllables.slice(k, k + 60)}"`);
	writeFileSync(
		new URL("../src/chat/tokenHangul.ts", import.meta.url),
		[
			"// GENERATED by scripts/fit-token-model.ts from o200k (gpt-tokenizer). Do not edit by hand.",
			"",
			"/**",
			` * The Hangul syllables that are one o200k token on their own (${syllables.length} of 11,172). Other syllables`,
			" * are rare in o200k's training text and cost two or three tokens each, so they get a class of their",
			" * own (tokenClassTable.ts).",
			" */",
			`export const HANGUL_SINGLE_TOKEN_SYLLABLES =\n${lines.join(" +\n")};`,
			"",
		].join("\n"),
	);
	console.error("wrote src/chat/tokenHangul.ts; run the fit again");
	return false;
}

/** Dense texts as fit texts: kind "dense-<category>"; targets hold each category and each script. */
function denseRows(split: "train" | "held-out"): Row[] {
	return loadDenseSamples()
		.filter((s) => s.split === split)
		.map((s) => toRow({ kind: `dense-${s.group}`, text: s.text, target: split === "train" }, 3, [`dense-${s.group}`, `dense-script-${s.script}`]));
}

function main(): void {
	if (!checkHangulSyllables()) return;
	const targets = targetTexts();
	const synthetic = syntheticTexts(20261122, 6000);
	const train = synthetic.filter((_, k) => k % 4 !== 0);
	const heldOut = synthetic.filter((_, k) => k % 4 === 0);
	// Words of random letters are a worst case real text never reaches: reported, not fitted.
	const denseTrain = denseRows("train");
	const rows = [...targets.map((t) => toRow(t, 3)), ...denseTrain, ...train.filter((t) => !isRandomLetters(t)).map((t) => toRow(t, 1))];
	console.error(`fitting ${PARAMS} weights on ${rows.length} texts (${targets.length + denseTrain.length} targets)`);
	const fitted = fit(rows);
	for (const cls of NO_RUN_WEIGHTS) fitted[PAIR + pairIndex(cls, cls, true)] = fitted[PAIR + pairIndex(cls, cls)] ?? 0;
	for (let cls = 0; cls < CLASS_COUNT; cls++) {
		for (const afterRun of [false, true]) fitted[PAIR + pairIndex(C.ELLIPSIS, cls, afterRun)] = fitted[PAIR + pairIndex(C.NEWLINE, cls)] ?? 0;
	}
	const theta = quantize(fitted);
	report("Targets (dev corpus and other-script fixtures)", rows.filter((r) => r.target && !denseTrain.includes(r)), theta);
	report("Dense texts, training split", denseTrain, theta);
	report("Dense texts, held-out split (not fitted)", denseRows("held-out"), theta);
	const byScript = (r: Row): Row => ({ ...r, kind: r.groups[1] ?? r.kind });
	report("Dense texts by script, both splits", [...denseTrain, ...denseRows("held-out")].map(byScript), theta);
	for (const { row, lo, hi } of shapes()) {
		const e = estimate(row, theta);
		if (e < lo || e > hi) console.error(`shape missed: ${JSON.stringify(row.text)} ${e.toFixed(3)} not in [${lo}, ${hi}]`);
	}
	report("Held-out synthetic texts", heldOut.filter((t) => !isRandomLetters(t)).map((t) => toRow(t, 1)), theta);
	report("Words of random letters (worst case, not fitted)", heldOut.filter(isRandomLetters).map((t) => toRow(t, 1)), theta);
	if (process.env.FIT_DRY_RUN === undefined) {
		writeFileSync(new URL("../src/chat/tokenModel.ts", import.meta.url), emit(theta));
		console.error("\nwrote src/chat/tokenModel.ts");
	}
}

main();
