// A small fuzzy matcher for the source suggester: the query's characters in order inside the
// target, case and diacritics folded, scored higher for matches at word starts, in runs, and
// early. Pure, so it is tested apart from the DOM.

const fold = (text: string): string => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** Where a word starts: the first character, or one after a space, a separator or a lower→upper step. */
function isWordStart(text: string, i: number): boolean {
	if (i === 0) return true;
	const prev = text[i - 1] ?? "";
	const cur = text[i] ?? "";
	return /[\s/_\-.#[(]/.test(prev) || (prev === prev.toLowerCase() && cur !== cur.toLowerCase());
}

export interface FuzzyResult {
	score: number;
	/** Indices of `target` that matched, for highlighting. */
	matches: number[];
}

/** null when `query` is not a subsequence of `target`; an empty query matches everything with score 0. */
export function fuzzyMatch(query: string, target: string): FuzzyResult | null {
	const q = fold(query.trim());
	if (q === "") return { score: 0, matches: [] };
	const t = fold(target);
	// Folding can change lengths (rare ligatures): positions are then approximate, which only affects highlighting.
	const contiguous = t.indexOf(q);
	if (contiguous >= 0) {
		const matches = Array.from({ length: q.length }, (_, k) => contiguous + k);
		const bonus = contiguous === 0 ? 30 : isWordStart(target, contiguous) ? 20 : 10;
		return { score: 100 + bonus + (q.length === t.length ? 50 : 0) - Math.min(contiguous, 20) * 0.5, matches };
	}
	const matches: number[] = [];
	let score = 0;
	let ti = 0;
	for (const ch of q) {
		if (ch === " ") continue;
		const found = t.indexOf(ch, ti);
		if (found < 0) return null;
		const run = matches.length > 0 && matches[matches.length - 1] === found - 1;
		score += run ? 4 : isWordStart(target, found) ? 6 : 1;
		matches.push(found);
		ti = found + 1;
	}
	return { score: score - (matches[0] ?? 0) * 0.1, matches };
}
