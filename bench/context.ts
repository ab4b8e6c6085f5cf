// Context benchmarks: relevance fitting per send, and the vault's lexical index at
// 10,000 notes / 40 MB, each against its target. Notes are synthetic and deterministic
// (bench/contextData.ts). Run standalone with `npx tsx bench/context.ts`; bench/run.ts calls
// runContextBench(). Retrieval quality is bench/retrieval.ts.
import { performance } from "node:perf_hooks";
import { cpus, loadavg } from "node:os";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { estimateTokens } from "../src/chat/tokens";
import { clearPassageCache, preparePassages } from "../src/context/passageCache";
import type { SliceTiming } from "../src/context/steps";
import { fitSource } from "../src/context/relevanceFit";
import { NoteIndex } from "../src/context/NoteIndex";
import { indexInSlices } from "../src/context/indexInSlices";
import { fillerParagraphs, LANGS, syntheticNote } from "./contextData";
import { median, runStandalone } from "./stats";

const NOTES = 10_000;
const NOTE_CHARS = 4_000;

function collectGarbage(): () => void {
	setFlagsFromString("--expose-gc");
	const gc = runInNewContext("gc") as () => void;
	return () => {
		gc();
		gc();
	};
}

/**
 * Times the tasks between two yields: wall clock, and the CPU time the process used in them. On a
 * loaded machine the wall clock also counts waiting for a core, so a task is reported as the smaller
 * of the two (as bench/checkpoint.ts does), with the wall clock beside it.
 */
export class TaskClock {
	longestWall = 0;
	longestCpu = 0;
	private wall = performance.now();
	private cpu = process.cpuUsage();
	start(): void {
		this.wall = performance.now();
		this.cpu = process.cpuUsage();
	}
	end(): void {
		const c = process.cpuUsage(this.cpu);
		this.longestWall = Math.max(this.longestWall, performance.now() - this.wall);
		this.longestCpu = Math.max(this.longestCpu, (c.user + c.system) / 1000);
	}
	readonly yieldFn = async (): Promise<void> => {
		this.end();
		await new Promise<void>((resolve) => setImmediate(resolve));
		this.start();
	};
	get longest(): number {
		return Math.min(this.longestWall, this.longestCpu);
	}
	describe(): string {
		return `${ms(this.longest)} (wall ${ms(this.longestWall)})`;
	}
}

/** CPU time the process has used, in milliseconds. */
const cpuMs = (): number => {
	const u = process.cpuUsage();
	return (u.user + u.system) / 1000;
};

const row = (what: string, value: string, target: string, ok: boolean | undefined): string => `| ${what} | ${value} | ${target} | ${ok === undefined ? "" : ok ? "✓" : "✗"} |`;
const ms = (v: number): string => `${v.toFixed(1)} ms`;

async function fittingRows(pools: string[][]): Promise<string[]> {
	const rows: string[] = [];
	const oneMb = `${syntheticNote(1, 1_000_000, pools)}\n\n## The last section\n\nThe spare key to the boathouse hangs behind the barometer in the hallway.\n`;
	const question = "where is the spare key to the boathouse?";
	clearPassageCache();
	const coldClock = new TaskClock();
	let started = performance.now();
	coldClock.start();
	const first = fitSource({ id: "big.md", name: "Big", text: oneMb }, 4000, question, estimateTokens);
	coldClock.end();
	const cold = performance.now() - started;
	const warm: number[] = [];
	for (let i = 0; i < 20; i++) {
		started = performance.now();
		fitSource({ id: "big.md", name: "Big", text: oneMb }, 4000, `${question} (${i})`, estimateTokens);
		warm.push(performance.now() - started);
	}
	rows.push(row(`fit a ${(oneMb.length / 1e6).toFixed(2)} MB note to 4k tokens, first send unprepared (cuts and analyzes it in this task; wall ${ms(cold)})`, coldClock.describe(), "", undefined));
	rows.push(row("fit the same note, later sends (passages cached), median of 20", ms(median(warm)), "< 20 ms", median(warm) < 20));
	rows.push(row("… the needle in the last section reached the prompt", first.text.includes("behind the barometer") ? "yes" : "no", "yes", first.text.includes("behind the barometer")));
	const edited = `${oneMb}\nEdited.\n`;
	const timing: SliceTiming = { slices: 0, longestSliceMs: 0 };
	const clock = new TaskClock();
	started = performance.now();
	clock.start();
	await preparePassages("big.md", edited, "Big", clock.yieldFn, { sliceMs: 10, timing, estimate: estimateTokens });
	clock.end();
	const prepared = performance.now() - started;
	const firstCpu = cpuMs();
	started = performance.now();
	fitSource({ id: "big.md", name: "Big", text: edited }, 4000, question, estimateTokens);
	const firstPreparedWall = performance.now() - started;
	const firstPrepared = Math.min(firstPreparedWall, cpuMs() - firstCpu);
	rows.push(row(`… a new version of it prepared in slices (preparePassages: ${ms(prepared)} in ${timing.slices} slices), longest task`, clock.describe(), "< 50 ms", clock.longest < 50));
	rows.push(row(`… then its first send (wall ${ms(firstPreparedWall)})`, ms(firstPrepared), "< 20 ms", firstPrepared < 20));
	const sources = Array.from({ length: 20 }, (_, i) => ({ id: `s${i}.md`, name: `Source ${i}`, text: syntheticNote(100 + i, 50_000, pools) }));
	const send = (q: string): number => {
		const t = performance.now();
		for (const s of sources) fitSource(s, 600, q, estimateTokens);
		return performance.now() - t;
	};
	clearPassageCache();
	const coldMany = send("section tanka minrin configuration");
	const warmMany = median(Array.from({ length: 10 }, (_, i) => send(`section tanka minrin configuration ${i}`)));
	rows.push(row("fit 20 sources of 50 KB to 600 tokens each, first send", ms(coldMany), "", undefined));
	rows.push(row("fit 20 sources of 50 KB, later sends, median of 10", ms(warmMany), "< 30 ms", warmMany < 30));
	clearPassageCache();
	return rows;
}

async function indexRows(pools: string[][]): Promise<string[]> {
	const rows: string[] = [];
	const gc = collectGarbage();
	gc();
	const memory = (): number => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
	const heapBefore = memory();
	const index = new NoteIndex();
	let chars = 0;
	function* notes(): Generator<{ id: string; text: string; mtime: number }> {
		for (let i = 0; i < NOTES; i++) {
			const text = syntheticNote(i, NOTE_CHARS, pools);
			chars += text.length;
			yield { id: `Folder ${i % 50}/Note ${i}.md`, text, mtime: 1_700_000_000_000 + i };
		}
	}
	// Every task between two yields, timed as the app's main thread would see it (note generation included).
	const buildClock = new TaskClock();
	const buildCpu = cpuMs();
	const started = performance.now();
	buildClock.start();
	const report = await indexInSlices(index, notes(), buildClock.yieldFn, { sliceMs: 10 });
	buildClock.end();
	const buildWall = performance.now() - started;
	const build = Math.min(buildWall, cpuMs() - buildCpu);
	gc();
	const heapGrowth = (memory() - heapBefore) / 1e6;
	rows.push(row(`build: ${report.notes} notes, ${(chars / 1e6).toFixed(1)} MB, ${index.passageCount} passages, in ${report.slices} slices of 10 ms (wall ${(buildWall / 1000).toFixed(1)} s)`, `${(build / 1000).toFixed(1)} s`, "< 30 s", build < 30_000));
	rows.push(row("longest task between two yields (note generation included)", buildClock.describe(), "< 50 ms", buildClock.longest < 50));
	rows.push(row("heap (and array buffers) growth with the index built; it keeps the notes' text", `${heapGrowth.toFixed(0)} MB`, "< 150 MB", heapGrowth < 150));
	const queries = ["kalomin terva configuration", "パッケージ 管理", "Konfigurationsdatei Schrift", "файловых дескрипторов", "插件 日志", "shell script sed", "statistics of the network", "ritanbel deriqu"];
	const times: number[] = [];
	const cpuTimes: number[] = [];
	let hits = 0;
	for (let r = 0; r < 5; r++) {
		for (const q of queries) {
			const c = cpuMs();
			const t = performance.now();
			hits += index.search(q, { limit: 10 }).length;
			times.push(performance.now() - t);
			cpuTimes.push(Math.min(cpuMs() - c, times[times.length - 1] ?? 0));
		}
	}
	rows.push(row(`query, 10 passages (median / max of ${times.length}; ${hits / 5} hits a round; wall ${ms(median(times))} / ${ms(Math.max(...times))})`, `${ms(median(cpuTimes))} / ${ms(Math.max(...cpuTimes))}`, "< 50 ms", Math.max(...cpuTimes) < 50));
	const upserts: number[] = [];
	const upsertCpu: number[] = [];
	for (let i = 0; i < 50; i++) {
		const text = `${syntheticNote(i * 7, NOTE_CHARS, pools)}\n\nEdited ${i}.`;
		const c = cpuMs();
		const t = performance.now();
		index.upsert(`Folder ${(i * 7) % 50}/Note ${i * 7}.md`, text, undefined, 1_800_000_000_000 + i);
		upserts.push(performance.now() - t);
		upsertCpu.push(Math.min(cpuMs() - c, upserts[upserts.length - 1] ?? 0));
	}
	rows.push(row(`re-index one changed 4 KB note (median / max of 50; wall ${ms(median(upserts))} / ${ms(Math.max(...upserts))})`, `${ms(median(upsertCpu))} / ${ms(Math.max(...upsertCpu))}`, "< 5 ms", median(upsertCpu) < 5));
	const saveTiming: SliceTiming = { slices: 0, longestSliceMs: 0 };
	const saveClock = new TaskClock();
	let t = performance.now();
	saveClock.start();
	const bytes = await index.toBinaryInSlices(saveClock.yieldFn, { sliceMs: 10, timing: saveTiming });
	saveClock.end();
	const save = performance.now() - t;
	rows.push(row(`save: toBinaryInSlices, ${(bytes.length / 1e6).toFixed(1)} MB in ${saveTiming.slices} slices (total ${ms(save)}), longest task`, saveClock.describe(), "< 50 ms", saveClock.longest < 50));
	const loadTiming: SliceTiming = { slices: 0, longestSliceMs: 0 };
	const loadClock = new TaskClock();
	t = performance.now();
	const loadCpu = cpuMs();
	loadClock.start();
	const loaded = await NoteIndex.loadInSlices(bytes, loadClock.yieldFn, { sliceMs: 10, timing: loadTiming });
	loadClock.end();
	const load = performance.now() - t;
	const loadWork = Math.min(load, cpuMs() - loadCpu);
	rows.push(row(`load: loadInSlices, ${loaded.size} notes in ${loadTiming.slices} slices (longest task ${loadClock.describe()}), total (wall ${ms(load)})`, ms(loadWork), "< 1 s", loadWork < 1000 && loadClock.longest < 50));
	t = performance.now();
	const same = JSON.stringify(loaded.search("kalomin terva configuration")) === JSON.stringify(index.search("kalomin terva configuration"));
	t = performance.now();
	const json = JSON.stringify(index.toJSON());
	const jsonSave = performance.now() - t;
	t = performance.now();
	const fromJson = NoteIndex.fromJSON(JSON.parse(json));
	const jsonLoad = performance.now() - t;
	rows.push(row(`… the loaded index answers as the saved one; JSON form for comparison: save ${ms(jsonSave)} (${(json.length / 1e6).toFixed(1)} MB), load ${ms(jsonLoad)} (${fromJson.size} notes), one task each`, same ? "yes" : "no", "yes", same));
	return rows;
}

export async function runContextBench(): Promise<string> {
	const pools = LANGS.map((l) => fillerParagraphs(l));
	const head = ["| What | Measured | Target | |", "|---|--:|--:|:-:|"];
	const loadAtStart = loadavg()[0] ?? NaN;
	const fitting = await fittingRows(pools);
	const indexing = await indexRows(pools);
	const note = `Build, tasks, queries, re-indexing and the load: the smaller of wall clock and the CPU time the process used in them (the wall clock also counts waiting for a core), the wall clock beside them. Load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${(loadavg()[0] ?? NaN).toFixed(1)} at the end, on ${cpus().length} cores.`;
	return ["**Relevance fitting per send**", "", ...head, ...fitting, "", `**Vault index (NoteIndex): ${NOTES} synthetic notes of ~${NOTE_CHARS / 1000} KB in five languages**`, "", ...head, ...indexing, "", note].join("\n");
}

runStandalone(import.meta.url, runContextBench);
