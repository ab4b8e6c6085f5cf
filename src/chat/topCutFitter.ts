import { planContext, segmentsWithin } from "./contextTrim";
import type { EstimateFn } from "./promptCost";
import type { FitInput, FittedSource, SourceFitter } from "./sourceFitter";

/** Said where a source was cut from the top; its size hardly depends on the percentage. */
export function topCutNote(fraction: number): string {
	const pct = Math.max(1, Math.min(99, Math.floor(fraction * 100)));
	return `\n[Cut here to fit the model's context window: only the first ${pct}% of this source is included.]`;
}

function cutAt(source: FitInput, end: number, totalTokens: number, estimate: EstimateFn): FittedSource {
	const text = source.text.slice(0, end).replace(/\n+$/, "") + topCutNote(end / source.text.length);
	return { text, sentTokens: estimate(text), totalTokens, fit: "excerpts", passages: [{ start: 0, end, headingPath: "" }] };
}

/**
 * The fitter the engine had before relevance fitting: the start of the source, cut at a line
 * boundary (lines over 4,000 characters are cut too), with a note saying how much is included.
 * It ignores the query. Scanning stops once past the budget, so a 1 MB note costs what fits.
 */
export const topCutFitter: SourceFitter = (source, budgetTokens, _query, estimate) => {
	const totalTokens = estimate(source.text);
	const none: FittedSource = { text: "", sentTokens: 0, totalTokens, fit: "none", passages: [] };
	if (source.text === "" || budgetTokens <= 0) return none;
	if (totalTokens <= budgetTokens) return { text: source.text, sentTokens: totalTokens, totalTokens, fit: "whole", passages: [] };
	const limit = budgetTokens - estimate(topCutNote(0.5));
	if (limit <= 0) return none;
	const plan = planContext(source.text, estimate, limit);
	// Segment estimates are not exactly additive: the joined text is checked, and when it is over,
	// the longest cut that fits is found by binary search on the joined text's estimate.
	const cut = (segments: number): FittedSource | undefined => {
		const end = plan.ends[segments - 1] ?? 0;
		// A cut at the very end would be the whole source, which did not fit.
		if (end <= 0 || end >= source.text.length) return undefined;
		const fitted = cutAt(source, end, totalTokens, estimate);
		return fitted.sentTokens <= budgetTokens ? fitted : undefined;
	};
	let hi = segmentsWithin(plan, limit);
	// The sum of line estimates is nearly always right: one check, no search.
	const first = hi > 0 ? cut(hi) : undefined;
	if (first !== undefined) return first;
	let lo = 1;
	hi--;
	let best: FittedSource | undefined;
	while (lo <= hi) {
		const mid = (lo + hi) >>> 1;
		const fitted = cut(mid);
		if (fitted !== undefined) {
			best = fitted;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best ?? none;
};
