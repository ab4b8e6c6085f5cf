// Retrieval quality: how often the passage that answers a question reaches the prompt when a long
// note is fitted by relevance (fitSource) versus cut from the top, at budgets of 2k, 4k and 8k
// tokens, in English, German, Russian, Chinese and Japanese. Eight answer passages per language are
// planted at even intervals in one long note of filler in the same language (bench/data/retrieval/
// README.md names the texts); each question is asked against that note, so the other seven answer
// passages are distractors. A second table compares the two ways to cut CJK text into terms.
// Run standalone with `npx tsx bench/retrieval.ts`; bench/run.ts calls runRetrievalBench().
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { estimateTokens } from "../src/chat/tokens";
import { truncateToTokens } from "../src/chat/textFit";
import { Bm25Corpus, weightedQuery } from "../src/context/bm25";
import { cutPassages } from "../src/context/passages";
import { clearPassageCache } from "../src/context/passageCache";
import { fitSource } from "../src/context/relevanceFit";
import { terms, type CjkMode } from "../src/context/terms";
import { fillerParagraphs, LANGS, loadNeedles, longNote, type Lang, type Needle } from "./contextData";
import { runStandalone } from "./stats";

const BUDGETS = [2000, 4000, 8000] as const;
/** Filler characters per language: about 40k estimated tokens each. */
const NOTE_CHARS: Record<Lang, number> = { en: 170_000, de: 150_000, ru: 110_000, zh: 100_000, ja: 90_000 };

/** One long note per language with its eight answer passages planted at even intervals. */
export function plantedNote(lang: Lang, needles: readonly Needle[]): string {
	const paragraphs = longNote(fillerParagraphs(lang), NOTE_CHARS[lang], 7 + LANGS.indexOf(lang), `Notebook (${lang})`);
	needles.forEach((n, i) => {
		const at = Math.max(2, Math.floor(((needles.length - i - 0.5) / needles.length) * paragraphs.length));
		paragraphs.splice(at, 0, n.passage);
	});
	return paragraphs.join("\n\n");
}

/** Whether ranking the note's passages with `mode` terms and filling `budget` keeps the answer. */
function rankedHit(note: string, needle: Needle, budget: number, mode: CjkMode, docs: Bm25Corpus, passages: ReturnType<typeof cutPassages>): boolean {
	const scores = docs.score(weightedQuery(needle.question, "", 2, mode));
	const order = passages.map((_, i) => i).filter((i) => (scores[i] ?? 0) > 0);
	order.sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0));
	let used = 0;
	for (const i of order) {
		const p = passages[i];
		if (!p) continue;
		const text = note.slice(p.start, p.end);
		const cost = estimateTokens(text) + 6;
		if (used + cost > budget) continue;
		used += cost;
		if (text.includes(needle.answer)) return true;
	}
	return false;
}

export async function runRetrievalBench(): Promise<string> {
	const needles = loadNeedles();
	const pct = (hits: number, n: number): string => `${Math.round((100 * hits) / n)}%`;
	const main = ["| Language | Questions | Note tokens | " + BUDGETS.map((b) => `fitted ${b / 1000}k | top ${b / 1000}k`).join(" | ") + " |", "|---|--:|--:|" + BUDGETS.map(() => "--:|--:").join("|") + "|"];
	const cjk = ["| Language | Terms | Analysis of the note | " + BUDGETS.map((b) => `ranked ${b / 1000}k`).join(" | ") + " |", "|---|---|--:|" + BUDGETS.map(() => "--:").join("|") + "|"];
	const totals = BUDGETS.map(() => ({ fit: 0, top: 0 }));
	for (const lang of LANGS) {
		const set = needles.filter((n) => n.lang === lang);
		const note = plantedNote(lang, set);
		clearPassageCache();
		const row = BUDGETS.map((budget, b) => {
			const top = truncateToTokens(note, budget, estimateTokens);
			let fit = 0;
			let cut = 0;
			for (const n of set) {
				if (fitSource({ id: `notebook-${lang}`, name: "Notebook", text: note }, budget, n.question, estimateTokens).text.includes(n.answer)) fit++;
				if (top.includes(n.answer)) cut++;
			}
			const total = totals[b];
			if (total) {
				total.fit += fit;
				total.top += cut;
			}
			return `${pct(fit, set.length)} | ${pct(cut, set.length)}`;
		});
		main.push(`| ${lang} | ${set.length} | ${estimateTokens(note)} | ${row.join(" | ")} |`);
		if (lang === "zh" || lang === "ja") {
			const passages = cutPassages(note);
			for (const mode of ["bigram", "segmenter"] as const) {
				const started = performance.now();
				const docs = new Bm25Corpus(passages.map((p) => terms(`${p.headingPath}\n${note.slice(p.start, p.end)}`, mode)));
				const ms = performance.now() - started;
				const hits = BUDGETS.map((budget) => pct(set.filter((n) => rankedHit(note, n, budget, mode, docs, passages)).length, set.length));
				cjk.push(`| ${lang} | ${mode === "bigram" ? "character bigrams" : "Intl.Segmenter words"} | ${ms.toFixed(1)} ms | ${hits.join(" | ")} |`);
			}
		}
	}
	main.push(`| **all** | ${needles.length} | | ${totals.map((t) => `${pct(t.fit, needles.length)} | ${pct(t.top, needles.length)}`).join(" | ")} |`);
	return [
		"**Answer passage in the prompt: relevance fitting (fitted) vs cutting from the top (top)**",
		"",
		...main,
		"",
		"**CJK terms: character bigrams vs Intl.Segmenter words (passages ranked by BM25 and filled to the budget)**",
		"",
		...cjk,
		"",
		`Load average (1 min) at the end of the run: ${(loadavg()[0] ?? NaN).toFixed(1)}.`,
	].join("\n");
}

runStandalone(import.meta.url, runRetrievalBench);
