// Per-script calibration factors. One factor per model cannot follow a tokenizer whose ratio to the
// o200k-fitted estimate depends on the script (cl100k counts Japanese ×1.2 and Russian ×1.3–1.45 of
// what o200k counts): the ratio moves with the chat's mix, and the margin had to cover the whole
// swing (7–11%). Here each reported prompt keeps its estimate split by script group
// (modelTokensByGroup), and a small least-squares fit finds a factor per group, shrunk towards the
// model's single factor where the data says little (a group seen in few prompts keeps that factor).
import { SCRIPT_GROUP_COUNT } from "./tokenFast";

/** One reported prompt: its unrounded estimate per script group (framing in "common") and the server's count. */
export interface ScriptObservation {
	groups: number[];
	reported: number;
	/** Sent in the same chat as the observation before it (followMargin.ts); absent otherwise. */
	follows?: true;
}

/** Observations kept per model: enough for four factors, few enough to follow a change of model. */
export const SCRIPT_WINDOW = 40;
/**
 * Pull towards the single factor, in observations: a group's factor moves away from it only as far
 * as prompts made mostly of that group justify. Replayed over the window bench's prompts (4k, cl100k
 * and Claude), 0.01 left the tightest tail of prediction errors (p99 ×1.053–1.060; 0.05: ×1.065–1.067;
 * 0.2: ×1.09–1.10); the margin's leave-one-out ratios keep a rarely seen group from looking certain.
 */
export const SHRINKAGE = 0.01;
/** Factors stay in the single factor's range (calibration.ts). */
const MIN_FACTOR = 0.5;
const MAX_FACTOR = 5;

function total(groups: readonly number[]): number {
	let sum = 0;
	for (const g of groups) sum += g;
	return sum;
}

/** The calibrated estimate of a prompt from its group split. */
export function scriptEstimate(groups: ArrayLike<number>, factors: ArrayLike<number>): number {
	let sum = 0;
	for (let g = 0; g < groups.length; g++) sum += (groups[g] ?? 0) * (factors[g] ?? 1);
	return sum;
}

/** The normal equations of the fit: shares' cross products plus the shrinkage, and the right side. */
function normalEquations(observations: readonly ScriptObservation[], prior: number): { a: number[][]; b: number[] } {
	const n = SCRIPT_GROUP_COUNT;
	const a = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? SHRINKAGE : 0)));
	const b = Array.from({ length: n }, () => SHRINKAGE * prior);
	for (const o of observations) {
		const sum = total(o.groups);
		if (!(sum > 0)) continue;
		const ratio = o.reported / sum;
		for (let i = 0; i < n; i++) {
			const zi = (o.groups[i] ?? 0) / sum;
			if (zi === 0) continue;
			b[i] = (b[i] ?? 0) + zi * ratio;
			const row = a[i] as number[];
			for (let j = 0; j < n; j++) row[j] = (row[j] ?? 0) + zi * ((o.groups[j] ?? 0) / sum);
		}
	}
	return { a, b };
}

/**
 * Least squares on relative error — each prompt's ratio (reported ÷ estimate) against the
 * group-weighted mean of the factors, weighted by its groups' shares — plus SHRINKAGE × (factor −
 * prior)² per group. Without observations: the prior for every group.
 */
export function fitScriptFactors(observations: readonly ScriptObservation[], prior: number): number[] {
	const { a, b } = normalEquations(observations, prior);
	return solve(a, b).map((f) => (Number.isFinite(f) ? Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, f)) : prior));
}

/** Gaussian elimination with partial pivoting; the matrix is symmetric positive definite (the shrinkage's diagonal). */
function solve(a: number[][], b: number[]): number[] {
	const n = b.length;
	const m = a.map((row, i) => [...row, b[i] ?? 0]);
	for (let col = 0; col < n; col++) {
		let pivot = col;
		for (let r = col + 1; r < n; r++) if (Math.abs(m[r]?.[col] ?? 0) > Math.abs(m[pivot]?.[col] ?? 0)) pivot = r;
		[m[col], m[pivot]] = [m[pivot] as number[], m[col] as number[]];
		const p = m[col] as number[];
		const d = p[col] ?? 0;
		for (let r = 0; r < n; r++) {
			if (r === col) continue;
			const row = m[r] as number[];
			const k = (row[col] ?? 0) / d;
			for (let c = col; c <= n; c++) row[c] = (row[c] ?? 0) - k * (p[c] ?? 0);
		}
	}
	return m.map((row, i) => (row[n] ?? 0) / (row[i] ?? 1));
}

/**
 * Each kept prompt's count over what the fit would have estimated without it (leave-one-out):
 * the spread the margin covers. In-sample ratios flatter a fit of six factors to a few prompts —
 * a new chat's mix is a prompt the fit has not seen.
 */
export function scriptRatios(observations: readonly ScriptObservation[], factors: readonly number[], prior: number): number[] {
	const n = SCRIPT_GROUP_COUNT;
	const { a } = normalEquations(observations, prior);
	const inverse = Array.from({ length: n }, (_, k) => solve(a.map((row) => [...row]), Array.from({ length: n }, (_, i) => (i === k ? 1 : 0))));
	const ratios: number[] = [];
	for (const o of observations) {
		const sum = total(o.groups);
		const estimate = scriptEstimate(o.groups, factors);
		if (!(sum > 0) || !(estimate > 0)) continue;
		const z = o.groups.map((g) => g / sum);
		let leverage = 0;
		for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) leverage += (z[i] ?? 0) * (inverse[j]?.[i] ?? 0) * (z[j] ?? 0);
		const fitted = estimate / sum;
		const residual = (o.reported / sum - fitted) / Math.max(0.05, 1 - leverage);
		ratios.push((fitted + residual) / fitted);
	}
	return ratios;
}

/** Reads a persisted observation; undefined when damaged. */
export function parseScriptObservation(raw: unknown): ScriptObservation | undefined {
	if (typeof raw !== "object" || raw === null) return undefined;
	const { groups, reported, follows } = raw as Record<string, unknown>;
	if (!Array.isArray(groups) || groups.length !== SCRIPT_GROUP_COUNT) return undefined;
	if (!groups.every((g) => typeof g === "number" && Number.isFinite(g) && g >= 0 && g <= 1e8)) return undefined;
	if (typeof reported !== "number" || !Number.isFinite(reported) || reported <= 0 || reported > 1e8) return undefined;
	const sum = total(groups as number[]);
	const ratio = reported / sum;
	if (!(sum > 0) || ratio < 0.2 || ratio > 5) return undefined;
	const observation: ScriptObservation = { groups: [...(groups as number[])], reported };
	if (follows === true) observation.follows = true;
	return observation;
}
