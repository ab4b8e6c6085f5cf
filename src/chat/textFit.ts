import type { EstimateFn } from "./promptCost";

const ELLIPSIS = "…";

/**
 * A token is rarely longer than this many characters; texts are pre-cut to `max × this` so fitting
 * a few hundred tokens out of a megabyte never estimates the megabyte.
 */
const MAX_CHARS_PER_TOKEN = 24;

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}

/** Moves a cut back to whitespace when there is some close by, so words are not split. */
function backToWhitespace(text: string, end: number): number {
	const floor = Math.max(0, end - 40);
	for (let i = end; i > floor; i--) {
		const ch = text.charCodeAt(i - 1);
		if (ch === 32 || ch === 10 || ch === 9) return i;
	}
	return isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

/** The longest start of `text` (cut at a word when possible, ending in "…") within `maxTokens`. */
export function truncateToTokens(text: string, maxTokens: number, estimate: EstimateFn): string {
	if (maxTokens <= 0) return "";
	const capped = text.length > maxTokens * MAX_CHARS_PER_TOKEN ? text.slice(0, maxTokens * MAX_CHARS_PER_TOKEN) : text;
	if (capped === text && estimate(text) <= maxTokens) return text;
	let lo = 0;
	let hi = capped.length;
	while (lo < hi) {
		const mid = (lo + hi + 1) >>> 1;
		if (estimate(capped.slice(0, mid) + ELLIPSIS) <= maxTokens) lo = mid;
		else hi = mid - 1;
	}
	if (lo === 0) return "";
	const head = (end: number): string => capped.slice(0, end).trimEnd() + ELLIPSIS;
	let end = backToWhitespace(capped, lo);
	// The estimate is not monotonic in the length (a cut at a space can price a pair differently
	// than the cut the search tested), so the result is checked and cut further until it fits.
	while (end > 0 && estimate(head(end)) > maxTokens) {
		end--;
		if (isHighSurrogate(capped.charCodeAt(end - 1))) end--;
	}
	return end > 0 ? head(end) : "";
}

/** The longest end of `text` (starting with "…") within `maxTokens`. */
export function tailToTokens(text: string, maxTokens: number, estimate: EstimateFn): string {
	if (maxTokens <= 0) return "";
	const cap = maxTokens * MAX_CHARS_PER_TOKEN;
	const capped = text.length > cap ? text.slice(text.length - cap) : text;
	if (capped === text && estimate(text) <= maxTokens) return text;
	let lo = 0;
	let hi = capped.length;
	while (lo < hi) {
		const mid = (lo + hi + 1) >>> 1;
		if (estimate(ELLIPSIS + capped.slice(capped.length - mid)) <= maxTokens) lo = mid;
		else hi = mid - 1;
	}
	if (lo === 0) return "";
	const tail = (start: number): string => ELLIPSIS + capped.slice(start).trimStart();
	let start = capped.length - lo;
	// Never start on the low half of a surrogate pair; then, as above, check the result and cut further.
	if (isLowSurrogate(capped.charCodeAt(start))) start++;
	while (start < capped.length && estimate(tail(start)) > maxTokens) {
		start++;
		if (isLowSurrogate(capped.charCodeAt(start))) start++;
	}
	return start < capped.length ? tail(start) : "";
}

/** Keeps the start and the end of a text within `maxTokens`, marking the cut in the middle. */
export function shortenMiddle(text: string, maxTokens: number, estimate: EstimateFn): string {
	if (text.length <= maxTokens * MAX_CHARS_PER_TOKEN && estimate(text) <= maxTokens) return text;
	const marker = " [… shortened …] ";
	const room = maxTokens - estimate(marker);
	if (room < 4) return truncateToTokens(text, maxTokens, estimate);
	const head = truncateToTokens(text, Math.ceil(room / 2), estimate).replace(/…$/, "");
	const tail = tailToTokens(text, Math.floor(room / 2), estimate).replace(/^…/, "");
	const joined = head + marker + tail;
	return estimate(joined) <= maxTokens ? joined : truncateToTokens(text, maxTokens, estimate);
}
