// Large notes come to the model in pages, cut at line ends, so one read never floods the context
// window; each page says which lines it holds and how to ask for the next.

/** About 4,000 tokens of English a page. */
export const PAGE_CHARS = 16_000;

export interface Page {
	text: string;
	/** 1-based, of the text paged. */
	page: number;
	pages: number;
	/** Where the page starts in the text paged. */
	start: number;
}

/** Page starts: each page ends at the last line end within PAGE_CHARS (a longer line is cut). */
function pageStarts(text: string, size: number): number[] {
	const starts = [0];
	let at = 0;
	while (text.length - at > size) {
		const nl = text.lastIndexOf("\n", at + size - 1);
		at = nl > at ? nl + 1 : at + size;
		starts.push(at);
	}
	return starts;
}

/** Page `page` (1-based; clamped) of `text`. */
export function pageOf(text: string, page: number, size = PAGE_CHARS): Page {
	const starts = pageStarts(text, size);
	const n = Math.min(Math.max(1, Math.floor(page)), starts.length);
	const start = starts[n - 1] ?? 0;
	return { text: text.slice(start, starts[n] ?? text.length), page: n, pages: starts.length, start };
}
