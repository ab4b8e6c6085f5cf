// The token estimator's scan: a branchless linear model over UTF-16 code units. Each code unit gets
// a class (its script or kind) from a 64 KB table; the estimate sums a weight for each pair of
// neighbouring classes (a word start, a punctuation run, a script change) — twice over: after a
// character that continued a run (two spaces, then a letter: the spaces are a token of their own)
// and after one that did not — and a weight for the position inside a run of one class (long words
// cost more tokens). A word-level scanner is bound by
// mispredicted branches at word boundaries; this loop has none. Weights come from tokenModel.ts,
// fitted by scripts/fit-token-model.ts against exact o200k counts.

import { PAIR_BASE, PAIR_EXTRA, RUN_EXTRA, WEIGHT_SCALE } from "./tokenModel";
import { CLASS_BITS, CLASS_COUNT, NEWLINE, RUN_BITS, RUN_BUCKETS, classTable } from "./tokenClasses";
import * as C from "./tokenClasses";

export { CLASS_BITS, CLASS_COUNT, RUN_BUCKETS };

/** Offset of the pairs whose previous character continued a run (was not the first of its run). */
export const AFTER_RUN = CLASS_COUNT << CLASS_BITS;

/**
 * Index of the pair (previous class, class) in pair weights and counts; `afterRun` when the previous
 * character was not the first of its run.
 */
export function pairIndex(prev: number, cls: number, afterRun = false): number {
	return (afterRun ? AFTER_RUN : 0) + ((prev << CLASS_BITS) | cls);
}

/** Index of (class, position in its run, capped) in run weights and counts. */
export function runIndex(cls: number, position: number): number {
	return (cls << RUN_BITS) | Math.min(position, RUN_BUCKETS - 1);
}

/** Number of pair and run features: the model's weight vector has this many entries. */
export const PAIR_FEATURES = 2 * AFTER_RUN;
export const RUN_FEATURES = CLASS_COUNT << RUN_BITS;

// Module-local copies: imported bindings can compile to getter calls (CommonJS output), too slow
// for the inner loop.
const BITS: number = CLASS_BITS;
const SHIFT: number = RUN_BITS;
const LAST_RUN = RUN_BUCKETS - 1;
const START: number = NEWLINE;
const SCALE: number = WEIGHT_SCALE;
const LONG: number = AFTER_RUN;

/** The class table and the fixed-point weights (× WEIGHT_SCALE, so the loop adds small integers). */
interface Model {
	table: Uint8Array;
	pair: Int32Array;
	run: Int32Array;
}

let model: Model | undefined;

/** Built on the first estimate, not when the plugin loads; then kept. */
function ready(): Model {
	return (model ??= { table: classTable(), ...loadWeights() });
}

function loadWeights(): { pair: Int32Array; run: Int32Array } {
	const PAIR = new Int32Array(PAIR_FEATURES);
	const RUN = new Int32Array(RUN_FEATURES);
	for (let prev = 0; prev < CLASS_COUNT; prev++) {
		for (let cls = 0; cls < CLASS_COUNT; cls++) {
			PAIR[pairIndex(prev, cls)] = PAIR_BASE[cls] ?? 0;
			PAIR[pairIndex(prev, cls, true)] = PAIR_BASE[cls] ?? 0;
		}
	}
	for (let k = 0; k + 1 < PAIR_EXTRA.length; k += 2) {
		const index = PAIR_EXTRA[k] ?? 0;
		PAIR[index] = Math.max(0, (PAIR[index] ?? 0) + (PAIR_EXTRA[k + 1] ?? 0));
	}
	for (let k = 0; k + 1 < RUN_EXTRA.length; k += 2) RUN[RUN_EXTRA[k] ?? 0] = RUN_EXTRA[k + 1] ?? 0;
	return { pair: PAIR, run: RUN };
}

/**
 * Estimated o200k tokens of `text` as a real number (before rounding up). Every character adds
 * its pair weight and its run weight; the text is read as if it followed a line break that ended
 * no run (run -1: a leading line break starts a run rather than continuing one, as after "…").
 */
export function modelTokens(text: string): number {
	const { table: TABLE, pair: PAIR, run: RUN } = model ?? ready();
	const n = text.length;
	let prev = START;
	let run = -1;
	let sum = 0;
	for (let i = 0; i < n; i++) {
		const cls = TABLE[text.charCodeAt(i)] ?? 0;
		// Branch-free on purpose (a ternary here compiles to a jump that mispredicts at every word
		// boundary). `after`: LONG when the previous character continued a run (run > 0), else 0.
		const after = -(-run >>> 31) & LONG;
		// run + 1, saturating at LAST_RUN, masked to 0 unless the class repeats.
		run = (run + ((run - LAST_RUN) >>> 31)) & -(((cls ^ prev) - 1) >>> 31);
		sum += (PAIR[after + ((prev << BITS) | cls)] ?? 0) + (RUN[(cls << SHIFT) | run] ?? 0);
		prev = cls;
	}
	return sum / SCALE;
}

/**
 * The model's features of `text`: how often each pair and each run position occurs, added into
 * `pairs` (PAIR_FEATURES long) and `runs` (RUN_FEATURES long). Same walk as modelTokens; the
 * fitting script uses it, so features and estimate cannot drift apart.
 */
export function countFeatures(text: string, pairs: Float64Array, runs: Float64Array): void {
	const TABLE = (model ?? ready()).table;
	let prev = NEWLINE;
	let run = -1;
	for (let i = 0; i < text.length; i++) {
		const cls = TABLE[text.charCodeAt(i)] ?? 0;
		const afterRun = run > 0;
		run = cls === prev ? run + 1 : 0;
		const p = pairIndex(prev, cls, afterRun);
		const r = runIndex(cls, run);
		pairs[p] = (pairs[p] ?? 0) + 1;
		runs[r] = (runs[r] ?? 0) + 1;
		prev = cls;
	}
}

/** The estimate from counted features (see countFeatures): equals modelTokens of the same text. */
export function estimateFromFeatures(pairs: Float64Array, runs: Float64Array): number {
	const { pair: PAIR, run: RUN } = model ?? ready();
	let sum = 0;
	for (let p = 0; p < PAIR_FEATURES; p++) sum += (pairs[p] ?? 0) * (PAIR[p] ?? 0);
	for (let r = 0; r < RUN_FEATURES; r++) sum += (runs[r] ?? 0) * (RUN[r] ?? 0);
	return sum / SCALE;
}

/** Script groups a calibration can weigh apart (scriptCalibration.ts): a tokenizer's ratio to o200k depends on the script. */
export const SCRIPT_GROUPS = ["common", "cyrillic", "han", "kana", "other", "accented"] as const;
export const SCRIPT_GROUP_COUNT = SCRIPT_GROUPS.length;

/** Each class's group: Latin, digits, spaces and punctuation are "common"; letters of other scripts their own. */
const GROUP_OF = buildGroups();

function buildGroups(): Uint8Array {
	const groups = new Uint8Array(CLASS_COUNT);
	const cyrillic = [C.CYRILLIC, C.CYRILLIC_UPPER, C.CYRILLIC_EXT];
	const han = [C.HAN, C.HIGH_HAN];
	const kana = [C.KANA, C.HANGUL, C.HANGUL_RARE];
	const other = [C.GREEK, C.ARABIC, C.HEBREW, C.INDIC, C.INDIC_SOUTH, C.INDIC_RARE, C.ORIYA, C.THAI, C.SOUTHEAST_ASIAN, C.CAUCASIAN, C.SCRIPT_2B, C.SCRIPT_3B, C.SCRIPT_BYTES, C.DIGIT_NATIVE];
	for (const c of cyrillic) groups[c] = 1;
	for (const c of han) groups[c] = 2;
	for (const c of kana) groups[c] = 3;
	for (const c of other) groups[c] = 4;
	// Accented Latin letters stand for the languages they occur in: German costs cl100k ×1.11 and
	// Claude ×1.2 of o200k where English costs ×1.0, and the umlauts are the only sign of it.
	for (const c of [C.LATIN, C.LATIN_EXT]) groups[c] = 5;
	return groups;
}

/**
 * modelTokens of `text` split by script group: each character's weight goes to its class's group,
 * added into `out` (SCRIPT_GROUP_COUNT long). The parts sum to modelTokens(text).
 */
export function modelTokensByGroup(text: string, out: Float64Array): void {
	const { table: TABLE, pair: PAIR, run: RUN } = model ?? ready();
	const n = text.length;
	let prev = START;
	let run = -1;
	for (let i = 0; i < n; i++) {
		const cls = TABLE[text.charCodeAt(i)] ?? 0;
		const after = -(-run >>> 31) & LONG;
		run = (run + ((run - LAST_RUN) >>> 31)) & -(((cls ^ prev) - 1) >>> 31);
		const g = GROUP_OF[cls] ?? 0;
		out[g] = (out[g] ?? 0) + ((PAIR[after + ((prev << BITS) | cls)] ?? 0) + (RUN[(cls << SHIFT) | run] ?? 0)) / SCALE;
		prev = cls;
	}
}
