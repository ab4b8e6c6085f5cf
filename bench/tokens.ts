// Token estimator benchmark: accuracy against exact o200k (and cl100k) counts per dev category and
// per other-script group, and throughput against gpt-tokenizer on the same text in the same run.
// Run standalone with `npx tsx bench/tokens.ts`; bench/run.ts calls runTokenBench().
import { performance } from "node:perf_hooks";
import { clearMergeCache, countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { ESTIMATOR_WORST_RATIO, estimateTokens } from "../src/chat/tokens";
import { loadDenseSamples, loadDevSamples, loadOtherScriptSamples, type TokenSample } from "../tests/fixtures/tokens/samples";
import { syntheticTexts } from "../scripts/tokenTexts";
import { median, runStandalone } from "./stats";

interface GroupRow {
	group: string;
	samples: number;
	o200k: number;
	cl100k: number;
	estimate: number;
	charsDiv4: number;
	minRatio: number;
}

function groupRows(samples: readonly TokenSample[]): GroupRow[] {
	const rows = new Map<string, GroupRow>();
	for (const s of samples) {
		const estimate = estimateTokens(s.text);
		const row = rows.get(s.group) ?? {
			group: s.group,
			samples: 0,
			o200k: 0,
			cl100k: 0,
			estimate: 0,
			charsDiv4: 0,
			minRatio: Infinity,
		};
		row.samples++;
		row.o200k += s.o200k;
		row.cl100k += s.cl100k;
		row.estimate += estimate;
		row.charsDiv4 += Math.ceil(s.text.length / 4);
		row.minRatio = Math.min(row.minRatio, estimate / s.o200k);
		rows.set(s.group, row);
	}
	return [...rows.values()];
}

function total(rows: readonly GroupRow[], label: string): GroupRow {
	return rows.reduce<GroupRow>(
		(t, r) => ({
			group: label,
			samples: t.samples + r.samples,
			o200k: t.o200k + r.o200k,
			cl100k: t.cl100k + r.cl100k,
			estimate: t.estimate + r.estimate,
			charsDiv4: t.charsDiv4 + r.charsDiv4,
			minRatio: Math.min(t.minRatio, r.minRatio),
		}),
		{ group: label, samples: 0, o200k: 0, cl100k: 0, estimate: 0, charsDiv4: 0, minRatio: Infinity },
	);
}

function accuracyTable(title: string, rows: readonly GroupRow[]): string {
	const lines = [
		`**${title}**`,
		"",
		"| Group | Samples | o200k | Estimate | Est/o200k | Min sample | Est/cl100k | chars/4 ÷ o200k |",
		"|---|--:|--:|--:|--:|--:|--:|--:|",
	];
	for (const r of [...rows, total(rows, "**all**")]) {
		lines.push(
			`| ${r.group} | ${r.samples} | ${r.o200k} | ${r.estimate} | ${(r.estimate / r.o200k).toFixed(3)} | ` +
				`${r.minRatio.toFixed(3)} | ${(r.estimate / r.cl100k).toFixed(3)} | ${(r.charsDiv4 / r.o200k).toFixed(3)} |`,
		);
	}
	return lines.join("\n");
}

/** Milliseconds per call of `fn(text)`, averaged over `calls` back-to-back calls. */
function timeCalls(fn: (text: string) => number, text: string, calls: number): number {
	let sink = 0;
	const start = performance.now();
	for (let k = 0; k < calls; k++) sink += fn(text);
	const ms = (performance.now() - start) / calls;
	// Keeps the calls observable so they cannot be optimised away.
	if (sink < 0) throw new Error("impossible");
	return ms;
}

/** o200k as on a text it has never seen: gpt-tokenizer caches the BPE merges of every word. */
function countO200kCold(text: string): number {
	clearMergeCache();
	return countO200k(text);
}

function throughputTable(text: string): string {
	const mb = Buffer.byteLength(text, "utf8") / 1e6;
	// Warm up all three (the JIT, and gpt-tokenizer's merge cache for the warm row), then take one
	// sample of each per round, interleaved, so a machine busy with other work slows them alike;
	// the medians over the rounds are reported.
	for (let k = 0; k < 20; k++) estimateTokens(text);
	for (let k = 0; k < 3; k++) countO200k(text);
	countO200kCold(text);
	const estimates: number[] = [];
	const warm: number[] = [];
	const cold: number[] = [];
	for (let round = 0; round < 15; round++) {
		estimates.push(timeCalls(estimateTokens, text, 10));
		warm.push(timeCalls(countO200k, text, 1));
		cold.push(timeCalls(countO200kCold, text, 1));
	}
	const estMs = median(estimates);
	const row = (name: string, ms: number): string =>
		`| ${name} | ${ms.toFixed(2)} | ${(mb / (ms / 1000)).toFixed(1)} | ${(ms / estMs).toFixed(1)}× |`;
	return [
		`**Throughput** (all samples concatenated: ${(mb * 1000).toFixed(0)} KB of UTF-8; median of 15 interleaved rounds in one process)`,
		"",
		"| Counter | ms per pass | MB/s | estimateTokens is faster by |",
		"|---|--:|--:|--:|",
		row("estimateTokens", estMs),
		row("gpt-tokenizer o200k countTokens (warm merge cache)", median(warm)),
		row("gpt-tokenizer o200k countTokens (cache cleared per pass)", median(cold)),
	].join("\n");
}

/**
 * The quarter of scripts/fit-token-model.ts's synthetic texts it holds out of the fit (same seed,
 * same split), minus the words of random letters it reports apart: accuracy on text the weights
 * never saw.
 */
function heldOutSamples(): TokenSample[] {
	return syntheticTexts(20261122, 6000)
		.filter((t, k) => k % 4 === 0 && !t.kind.startsWith("rand-"))
		.map((t) => ({ group: t.kind, text: t.text, o200k: countO200k(t.text), cl100k: countCl100k(t.text) }));
}

/** The accuracy tables and the text the throughput is measured on (all dev, other and dense samples). */
export function tokenAccuracyTables(): { tables: string; text: string } {
	const dev = loadDevSamples();
	const other = loadOtherScriptSamples();
	const dense = loadDenseSamples();
	const heldOut = heldOutSamples();
	const worst = Math.min(...[...dev, ...other, ...dense, ...heldOut].map((s) => estimateTokens(s.text) / s.o200k));
	const denseSplit = (split: string): TokenSample[] => dense.filter((s) => s.split === split);
	const tables = [
		accuracyTable("Dev corpus (bench/data/tokens-dev.jsonl)", groupRows(dev)),
		"",
		accuracyTable("Other scripts and texts (tests/fixtures/tokens/other-scripts.jsonl)", groupRows(other)),
		"",
		accuracyTable("Held-out synthetic texts (scripts/tokenTexts.ts; not used to fit the weights)", groupRows(heldOut)),
		"",
		accuracyTable("Dense texts by category, training split (tests/fixtures/tokens/dense.jsonl)", groupRows(denseSplit("train"))),
		"",
		accuracyTable("Dense texts by category, held-out split (not used to fit the weights)", groupRows(denseSplit("held-out"))),
		"",
		accuracyTable("Dense texts by script, both splits", groupRows(dense.map((s) => ({ ...s, group: s.script })))),
		"",
		`Lowest estimate/o200k on any sample (all tables above): ${worst.toFixed(3)}; ESTIMATOR_WORST_RATIO = ${ESTIMATOR_WORST_RATIO}.`,
	].join("\n");
	return { tables, text: [...dev, ...other, ...dense].map((s) => s.text).join("\n\n") };
}

export function runTokenBench(): Promise<string> {
	const { tables, text } = tokenAccuracyTables();
	return Promise.resolve(["### Token estimator", "", tables, "", throughputTable(text), ""].join("\n"));
}

runStandalone(import.meta.url, runTokenBench);
