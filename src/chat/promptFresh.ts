// This turn's own passages beside earlier turns repeated as sent ("stable", promptCycle.ts). The
// earlier turns already carry the passages chosen for their questions, so this turn adds only what
// they do not: the passages most relevant to its message that were not sent yet, and only those
// that are relevant (no neighbours, no filling): every token added here is a token the next turns
// repeat, so an unneeded one shortens the run of turns the server's cache can reuse.
import { weightedQuery } from "../context/bm25";
import { renderExcerpts, type Piece } from "../context/excerpts";
import { passageCost, passagesOf } from "../context/passageCache";
import type { SentRange } from "./promptSentSources";
import type { FittedSource, SourceFitter } from "./sourceFitter";

/** A passage scoring below this share of the best unsent one is not worth repeating for the rest of the cycle. */
export const FRESH_RELEVANT_SHARE = 0.6;
/** The best passage not sent yet is added only when it scores at least this share of the best passage of all. */
export const FRESH_WORTH_SHARE = 0.25;

/**
 * A passage an earlier turn sent whole. One it sent only the start of (the top-up's last piece,
 * cut short: `## Entry 50` and a gap mark) is not sent: its words never reached the model.
 */
const covers = (r: SentRange, p: SentRange): boolean => r.start <= p.start && r.end >= p.end;

/**
 * `inner` for a source no earlier turn carries; for one they carry in part, the relevant passages
 * they do not, within the budget; "none" when there are none (the earlier turns hold what matters).
 */
export function freshFitter(inner: SourceFitter, sent: ReadonlyMap<string, readonly SentRange[]>): SourceFitter {
	return (source, budgetTokens, query, estimate) => {
		const ranges = sent.get(source.id);
		if (ranges === undefined || ranges.length === 0) return inner(source, budgetTokens, query, estimate);
		const budget = Number.isFinite(budgetTokens) ? Math.max(0, Math.floor(budgetTokens)) : 0;
		const entry = passagesOf(source.id, source.text, source.name);
		const none: FittedSource = { text: "", sentTokens: 0, totalTokens: entry.costs.get(estimate)?.total ?? estimate(source.text), fit: "none", passages: [] };
		const scores = entry.corpus.score(weightedQuery(query));
		const unsent = entry.passages.map((p, i) => ({ p, i })).filter(({ p, i }) => (scores[i] ?? 0) > 0 && !ranges.some((r) => covers(r, p)));
		unsent.sort((a, b) => (scores[b.i] ?? 0) - (scores[a.i] ?? 0) || a.i - b.i);
		const best = scores[unsent[0]?.i ?? -1] ?? 0;
		// When the earlier turns already carry what the question is about, the best passage not sent
		// matches only its common words: far below the best of all, it is not worth repeating.
		const bestOfAll = scores.reduce((m, x) => Math.max(m, x), 0);
		if (budget <= 0 || best <= 0 || best < bestOfAll * FRESH_WORTH_SHARE) return none;
		const costs: (number | undefined)[] = [];
		const chosen: Piece[] = [];
		let used = 0;
		for (const { p, i } of unsent) {
			if ((scores[i] ?? 0) < best * FRESH_RELEVANT_SHARE) break;
			const c = passageCost(entry, i, estimate, costs) + 8;
			if (used + c > budget) continue;
			chosen.push({ index: i, start: p.start, end: p.end, headingPath: p.headingPath });
			used += c;
		}
		// Priced as joined, the weakest passage goes until the excerpts fit.
		while (chosen.length > 0) {
			const text = renderExcerpts(source.text, chosen, entry.passages.length);
			const sentTokens = estimate(text);
			if (sentTokens <= budget) {
				const passages = [...chosen].sort((a, b) => a.start - b.start).map(({ start, end, headingPath }) => ({ start, end, headingPath }));
				return { text, sentTokens, totalTokens: none.totalTokens, fit: "excerpts", passages };
			}
			chosen.pop();
		}
		return none;
	};
}

/**
 * `inner`, ranking by `message` alone when some passage of the source shares a term with it, by
 * the fitter's own query (the conversation's last turns too) when none does: a new question's
 * passages are never outvoted by the words of the turns before it, and a follow-up without words
 * of its own ("and the second one?") still finds what the conversation is about.
 */
export function messageFirst(inner: SourceFitter, message: string): SourceFitter {
	return (source, budgetTokens, query, estimate) => {
		const scores = passagesOf(source.id, source.text, source.name).corpus.score(weightedQuery(message));
		const own = scores.some((s) => s > 0);
		return inner(source, budgetTokens, own ? message : query, estimate);
	};
}
