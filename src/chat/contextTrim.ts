// Where a text may be cut, and what each cut costs: the planning behind cutting a source from the
// top (topCutFitter.ts). The layout of sources in the prompt is sourceBlock.ts's.
import type { EstimateFn } from "./promptCost";

export interface ContextInclusion {
	/** How much of the document the prompt carries. */
	included: "whole" | "partial" | "none";
	/** The share of the document's characters included, 0..1. */
	fraction: number;
}

/**
 * Lines longer than this are cut into pieces of this many characters, so a note that is one
 * enormous line (a base64 blob, minified JSON) still gets a useful partial inclusion and no single
 * estimate call costs more than a piece.
 */
const MAX_SEGMENT_CHARS = 4000;

/** Where a document may be cut, and the estimated tokens of everything before each cut. */
export interface ContextPlan {
	/** Candidate cut offsets, ascending; `ends[i]` is the end of segment i. */
	ends: number[];
	/** `prefix[i]` = estimated tokens of text.slice(0, ends[i]) as a sum of segment estimates. */
	prefix: number[];
	/** The scan reached the end of the text (so `ends` covers it all). */
	complete: boolean;
}

function segmentEnd(text: string, start: number): number {
	const newline = text.indexOf("\n", start);
	const lineEnd = newline === -1 ? text.length : newline + 1;
	if (lineEnd - start <= MAX_SEGMENT_CHARS) return lineEnd;
	let cut = start + MAX_SEGMENT_CHARS;
	// Never split a surrogate pair.
	const code = text.charCodeAt(cut - 1);
	if (code >= 0xd800 && code <= 0xdbff) cut--;
	return cut;
}

/**
 * Scans the document line by line, summing estimates, and stops as soon as the sum passes
 * `limit`: the cost is bounded by what could fit, not by the note's size (a 1 MB note costs the
 * same as a 50 KB one when the window holds 8k tokens).
 */
export function planContext(text: string, estimate: EstimateFn, limit: number): ContextPlan {
	const ends: number[] = [];
	const prefix: number[] = [];
	let total = 0;
	let pos = 0;
	while (pos < text.length) {
		const end = segmentEnd(text, pos);
		total += estimate(text.slice(pos, end));
		ends.push(end);
		prefix.push(total);
		pos = end;
		if (total > limit) break;
	}
	return { ends, prefix, complete: pos >= text.length };
}

/** The number of segments whose prefix estimate fits `limit` (binary search over the prefix sums). */
export function segmentsWithin(plan: ContextPlan, limit: number): number {
	let lo = 0;
	let hi = plan.prefix.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if ((plan.prefix[mid] ?? Infinity) <= limit) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}
