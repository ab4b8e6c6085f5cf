// The vault tools: search_notes over a 10,000-note index (the same synthetic notes as
// bench/context.ts), and read_note on a 1 MB note, its first page fitted by relevance to a share of
// the budget as the turn loop does with a result larger than its share (src/context/relevanceFit).
// Run standalone with `npx tsx bench/tools.ts`; bench/run.ts calls runToolsBench().
import { performance } from "node:perf_hooks";
import { estimateTokens } from "../src/chat/tokens";
import { clearPassageCache } from "../src/context/passageCache";
import { fitSource } from "../src/context/relevanceFit";
import { createVaultTools } from "../src/tools";
import { MemoryVault } from "../src/tools/memoryVault";
import type { Tool } from "../src/tools/types";
import { fillerParagraphs, LANGS, syntheticNote } from "./contextData";
import { median, runStandalone } from "./stats";

const NOTES = 10_000;
const NOTE_CHARS = 4_000;
/** The share of the budget a tool result gets in the bench (tokens). */
const SHARE = 2_000;

const row = (what: string, value: string, target: string, ok: boolean | undefined): string => `| ${what} | ${value} | ${target} | ${ok === undefined ? "" : ok ? "✓" : "✗"} |`;
const ms = (v: number): string => `${v.toFixed(1)} ms`;
const scope = { chatsFolder: () => "Discover/Chats", excludedFolders: () => [] };

function tool(tools: Tool[], name: string): Tool {
	const found = tools.find((t) => t.name === name);
	if (!found) throw new Error(`no tool ${name}`);
	return found;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
	const started = performance.now();
	await fn();
	return performance.now() - started;
}

export async function runToolsBench(): Promise<string> {
	const pools = LANGS.map((l) => fillerParagraphs(l));
	const signal = new AbortController().signal;
	const rows: string[] = [];

	const vault = new MemoryVault({}, { configDir: ".config" });
	const built = performance.now();
	for (let i = 0; i < NOTES; i++) vault.write(`Folder ${i % 50}/Note ${i}.md`, syntheticNote(i, NOTE_CHARS, pools));
	rows.push(row(`index ${NOTES} notes of ~${NOTE_CHARS / 1000} KB (setup, not a target)`, `${((performance.now() - built) / 1000).toFixed(1)} s`, "", undefined));
	const { tools } = createVaultTools(vault, scope);
	const search = tool(tools, "search_notes");
	const queries = ["kalomin terva configuration", "パッケージ 管理", "Konfigurationsdatei Schrift", "файловых дескрипторов", "插件 日志", "shell script sed", "statistics of the network", "ritanbel deriqu"];
	const searches: number[] = [];
	for (let r = 0; r < 5; r++) for (const query of queries) searches.push(await timed(() => search.run({ query, limit: 8 }, { signal })));
	const worst = Math.max(...searches);
	rows.push(row(`search_notes, 8 passages (median / max of ${searches.length})`, `${ms(median(searches))} / ${ms(worst)}`, "< 50 ms", worst < 50));

	const oneMb = `${syntheticNote(1, 1_000_000, pools)}\n\n## The last section\n\nThe spare key to the boathouse hangs behind the barometer in the hallway.\n`;
	vault.write("Big.md", oneMb);
	const read = tool(tools, "read_note");
	const question = "where is the spare key?";
	const readAndFit = async (): Promise<void> => {
		const text = await read.run({ path: "Big.md" }, { signal });
		const fitted = fitSource({ id: "Big.md", name: "read_note Big.md", text }, SHARE, question, estimateTokens);
		if (fitted.sentTokens > SHARE) throw new Error("the fitted result is over its share");
	};
	// Code warmed on another large note (as in the app, where fitting runs on every send); this
	// note's passages are not cached yet.
	vault.write("Warm.md", syntheticNote(2, 1_000_000, pools));
	for (let i = 0; i < 3; i++) await read.run({ path: "Warm.md" }, { signal }).then((text) => fitSource({ id: "Warm.md", name: "Warm", text }, SHARE, `${question} ${i}`, estimateTokens));
	clearPassageCache();
	const cold = await timed(readAndFit);
	const warm: number[] = [];
	for (let i = 0; i < 20; i++) warm.push(await timed(readAndFit));
	const readOnly: number[] = [];
	for (let i = 0; i < 20; i++) readOnly.push(await timed(() => read.run({ path: "Big.md" }, { signal })));
	const size = `${(oneMb.length / 1e6).toFixed(2)} MB`;
	rows.push(row(`read_note on a ${size} note, first page (median of 20)`, ms(median(readOnly)), "", undefined));
	rows.push(row(`read_note on a ${size} note, fitted to a ${SHARE}-token share: first call on this note`, ms(cold), "< 20 ms", cold < 20));
	rows.push(row(`the same, later calls (median of 20)`, ms(median(warm)), "< 20 ms", median(warm) < 20));
	return ["| What | Measured | Target | |", "|---|--:|--:|:-:|", ...rows].join("\n");
}

runStandalone(import.meta.url, runToolsBench);
