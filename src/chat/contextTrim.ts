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

export function contextHeader(name: string | undefined): string {
	const label = name !== undefined && name.trim() !== "" ? ` "${name.trim()}"` : "";
	return (
		`You have access to the following document${label}. Use it to answer the user's questions, ` +
		`and say when it does not contain the answer.\n----- BEGIN DOCUMENT -----\n`
	);
}

export const CONTEXT_FOOTER = "\n----- END DOCUMENT -----";

export function cutNote(fraction: number): string {
	const pct = Math.max(1, Math.min(99, Math.floor(fraction * 100)));
	return `\n[The document was cut here to fit the model's context window: only the first ${pct}% is included.]`;
}

/** The context block for the first `end` characters of `text` (the whole text when `end` reaches its length). */
export function renderContext(text: string, name: string | undefined, end: number): string {
	const whole = end >= text.length;
	const body = whole ? text : text.slice(0, end).replace(/\n+$/, "");
	return contextHeader(name) + body + (whole ? "" : cutNote(end / text.length)) + CONTEXT_FOOTER;
}

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

export interface TrimmedContext {
	/** The block to put in the system message, or "" when nothing fits. */
	block: string;
	inclusion: ContextInclusion;
	/** Segment count used, for callers that must shrink further. */
	segments: number;
	plan: ContextPlan;
}

/**
 * The document trimmed to `available` estimated tokens, cut at a line boundary with a note saying
 * so, down to nothing when not even the frame fits.
 */
export function trimContextToBudget(
	text: string,
	name: string | undefined,
	available: number,
	estimate: EstimateFn,
): TrimmedContext {
	const none: TrimmedContext = {
		block: "",
		inclusion: { included: "none", fraction: 0 },
		segments: 0,
		plan: { ends: [], prefix: [], complete: text.length === 0 },
	};
	if (text.length === 0) return none;
	const frame = estimate(contextHeader(name)) + estimate(CONTEXT_FOOTER);
	const wholeLimit = available - frame;
	if (wholeLimit <= 0) return none;
	const plan = planContext(text, estimate, wholeLimit);
	const lastPrefix = plan.prefix[plan.prefix.length - 1] ?? 0;
	if (plan.complete && lastPrefix <= wholeLimit) {
		return {
			block: renderContext(text, name, text.length),
			inclusion: { included: "whole", fraction: 1 },
			segments: plan.ends.length,
			plan,
		};
	}
	// The cut note's size hardly depends on the percentage; "50%" stands in for any.
	const partialLimit = wholeLimit - estimate(cutNote(0.5));
	const segments = segmentsWithin(plan, partialLimit);
	return contextFromSegments(text, name, plan, segments) ?? none;
}

/** The context block for the first `segments` segments of a plan, or undefined for none. */
export function contextFromSegments(
	text: string,
	name: string | undefined,
	plan: ContextPlan,
	segments: number,
): TrimmedContext | undefined {
	if (segments <= 0) return undefined;
	const end = plan.ends[segments - 1] ?? 0;
	if (end <= 0) return undefined;
	const whole = end >= text.length;
	return {
		block: renderContext(text, name, end),
		inclusion: whole ? { included: "whole", fraction: 1 } : { included: "partial", fraction: end / text.length },
		segments,
		plan,
	};
}
