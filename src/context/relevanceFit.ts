// Fits one source into its share of the budget: whole when it fits, otherwise the passages most
// relevant to the question, in document order, each under its heading path, "[…]" where text was
// left out. The allocation side (water-filling across sources) calls this once per source.
//
// Guarantee: estimate(result.text) <= budgetTokens, always. Pieces are priced one by one to choose
// them, then the assembled text is priced once more, and the weakest passage dropped until it fits
// (estimators are not exactly additive across joins). What that leaves unused is filled
// (excerptTopUp.ts): whole passages that fit after all, then the next one cut at a sentence end.
//
// When no passage fits whole but the budget is at least MIN_USEFUL_TOKENS, the best passage is sent
// cut to the budget ("…" at the cut); below that the source is "none" with empty text.
// With a query that has no terms (empty, or only stop words), or one no passage shares a term with,
// the note's start is sent, then an outline of the headings left out.
import { weightedQuery } from "./bm25";
import { GAP, headingLine, JOIN, renderExcerpts, type Piece } from "./excerpts";
import { topUpExcerpts } from "./excerptTopUp";
import { passageCost, passagesOf, type NotePassages } from "./passageCache";

export { GAP, renderExcerpts };

export interface FitInput {
	id: string;
	name: string;
	text: string;
}

export interface FittedSource {
	text: string;
	sentTokens: number;
	totalTokens: number;
	fit: "whole" | "excerpts" | "none";
	/** The ranges of the note that were sent, in document order. */
	passages: { start: number; end: number; headingPath: string }[];
}

/** Estimates the tokens of a text (the shape of src/chat/promptCost's EstimateFn; this layer imports no chat). */
export type EstimateFn = (text: string) => number;

/** Below this many tokens a cut passage says too little to be worth sending. */
export const MIN_USEFUL_TOKENS = 32;

/** The longest start of `text` that, with "…", fits `budget` (binary search on characters). */
function cutToBudget(text: string, budget: number, estimate: EstimateFn): string {
	let lo = 0;
	let hi = Math.min(text.length, budget * 24);
	while (lo < hi) {
		const mid = (lo + hi + 1) >>> 1;
		if (estimate(`${text.slice(0, mid)}…`) <= budget) lo = mid;
		else hi = mid - 1;
	}
	let end = lo;
	const code = text.charCodeAt(end - 1);
	if (code >= 0xd800 && code <= 0xdbff) end--;
	return end > 0 ? `${text.slice(0, end).replace(/\s+$/, "")}…` : "";
}

export function fitSource(source: FitInput, budgetTokens: number, query: string, estimate: EstimateFn): FittedSource {
	const budget = Number.isFinite(budgetTokens) ? Math.max(0, Math.floor(budgetTokens)) : 0;
	const entry = passagesOf(source.id, source.text, source.name);
	let costs = entry.costs.get(estimate);
	if (!costs) {
		costs = { total: estimate(source.text), passage: [] };
		entry.costs.set(estimate, costs);
	}
	// A total summed from pieces (a long note prepared in slices) is checked whole before the note is sent whole.
	if (costs.approximate === true && costs.total <= budget * 1.1 + 16) {
		costs.total = estimate(source.text);
		costs.approximate = false;
	}
	const totalTokens = costs.total;
	if (totalTokens <= budget) return { text: source.text, sentTokens: totalTokens, totalTokens, fit: "whole", passages: [{ start: 0, end: source.text.length, headingPath: "" }] };
	const none: FittedSource = { text: "", sentTokens: 0, totalTokens, fit: "none", passages: [] };
	if (budget <= 0 || entry.passages.length === 0) return none;

	const scores = entry.corpus.score(weightedQuery(query));
	const ranked = entry.passages.map((_, i) => i).filter((i) => (scores[i] ?? 0) > 0);
	ranked.sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
	const relevant = ranked.length > 0;
	// Without a relevant passage, the note's start in order; after the relevant ones, their neighbours.
	const order = relevant ? [...ranked, ...neighbours(ranked, entry.passages.length)] : entry.passages.map((_, i) => i);
	const overhead = estimate(`${JOIN}${GAP}${JOIN}`);
	const chosen: number[] = [];
	let used = 0;
	for (const i of order) {
		if (budget - used <= overhead + 8) break;
		const c = passageCost(entry, i, estimate, costs.passage) + overhead;
		if (used + c > budget) {
			if (!relevant) break;
			continue;
		}
		chosen.push(i);
		used += c;
	}
	// Neighbours are context for a relevant passage, never a replacement for it: when no relevant
	// passage fits whole, the best one is cut to the budget below instead.
	if (relevant && !chosen.some((i) => (scores[i] ?? 0) > 0)) chosen.length = 0;
	const piece = (i: number): Piece => {
		const p = entry.passages[i];
		return { index: i, start: p?.start ?? 0, end: p?.end ?? 0, headingPath: p?.headingPath ?? "" };
	};
	const render = (pieces: readonly Piece[]): string => {
		const text = renderExcerpts(source.text, pieces, entry.passages.length);
		return relevant ? text : withOutline(text, entry, pieces, budget, estimate);
	};
	while (chosen.length > 0) {
		const text = render(chosen.map(piece));
		const sent = estimate(text);
		if (sent <= budget) {
			// What the sum of estimates left unused is filled: whole passages that fit after all, then a cut one.
			const taken = new Set(chosen);
			const after = Math.max(...chosen);
			const candidates = relevant ? order.filter((i) => !taken.has(i)) : [after + 1].filter((i) => i < entry.passages.length);
			const cost = (i: number): number => passageCost(entry, i, estimate, costs.passage);
			const top = topUpExcerpts({ note: source.text, pieces: chosen.map(piece), text, sent, candidates, wholeFirst: relevant, piece, cost, render, budget, estimate });
			const passages = top.pieces.sort((a, b) => a.start - b.start).map(({ start, end, headingPath }) => ({ start, end, headingPath }));
			return { text: top.text, sentTokens: top.sent, totalTokens, fit: "excerpts", passages };
		}
		chosen.pop();
	}
	if (budget < MIN_USEFUL_TOKENS) return none;
	// Not one passage fits: the best one, cut to the budget.
	const best = piece(order[0] ?? 0);
	const line = headingLine(source.text, best);
	const head = line !== "" ? `${line}${JOIN}` : "";
	const body = cutToBudget(source.text.slice(best.start, best.end), budget - estimate(`${head}${GAP}${JOIN}`) - 2, estimate);
	if (body === "") return none;
	const text = `${best.index > 0 ? `${GAP}${JOIN}` : ""}${head}${body}`;
	const sent = estimate(text);
	if (sent > budget) return none;
	return { text, sentTokens: sent, totalTokens, fit: "excerpts", passages: [{ start: best.start, end: best.start + body.length - 1, headingPath: best.headingPath }] };
}

/**
 * Every passage not ranked, nearest to a ranked one first (the passage after before the one before):
 * what surrounds a relevant passage is the likeliest useful context for it.
 */
function neighbours(ranked: readonly number[], count: number): number[] {
	const distance = new Float64Array(count).fill(Infinity);
	for (const i of ranked) distance[i] = 0;
	// Two sweeps give each passage its distance to the nearest ranked one; "before" costs a half step more.
	for (let i = 1; i < count; i++) distance[i] = Math.min(distance[i] ?? Infinity, (distance[i - 1] ?? Infinity) + 1);
	for (let i = count - 2; i >= 0; i--) distance[i] = Math.min(distance[i] ?? Infinity, (distance[i + 1] ?? Infinity) + 1.5);
	const out: number[] = [];
	for (let i = 0; i < count; i++) if ((distance[i] ?? 0) > 0) out.push(i);
	return out.sort((a, b) => (distance[a] ?? 0) - (distance[b] ?? 0) || a - b);
}

/** The note's start plus, as room allows, the headings of the sections it leaves out. */
function withOutline(excerpt: string, entry: NotePassages, pieces: readonly Piece[], budget: number, estimate: EstimateFn): string {
	const last = Math.max(...pieces.map((p) => p.index));
	const headings: string[] = [];
	let seen = "";
	for (const p of entry.passages.slice(last + 1)) {
		if (p.headingPath !== "" && p.headingPath !== seen) headings.push(`- ${p.headingPath}`);
		seen = p.headingPath;
	}
	if (headings.length === 0) return excerpt;
	let outline = `Outline of the rest:\n${headings.join("\n")}`;
	while (headings.length > 0 && estimate(`${excerpt}${JOIN}${outline}`) > budget) {
		headings.splice(Math.floor(headings.length / 2));
		outline = `Outline of the rest:\n${headings.join("\n")}`;
	}
	return headings.length > 0 ? `${excerpt}${JOIN}${outline}` : excerpt;
}
