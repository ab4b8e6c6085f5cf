// Linearity: every step that reads a note's text, on notes of 0.5 to 16 MB (doubling) in seven
// shapes, ordinary and pathological. Each step's time per MB, and the 16 MB time over the 8 MB time
// (≤ 2.5: linear, with room for a loaded machine). Then the longest main-thread task when a 16 MB
// note of each shape is indexed and prepared in slices, and when a sync brings 5,000 changed notes.
// Times are the smaller of wall clock and CPU time (bench/context.ts's TaskClock does the same).
// Standalone: npx tsx bench/linear.ts [MB …] (default 0.5 1 2 4 8 16).
import { performance } from "node:perf_hooks";
import { cpus, loadavg } from "node:os";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { estimateTokens } from "../src/chat/tokens";
import { indexInSlices } from "../src/context/indexInSlices";
import { NoteIndex } from "../src/context/NoteIndex";
import { clearPassageCache, preparePassages } from "../src/context/passageCache";
import { cutPassages } from "../src/context/passages";
import { fitSource } from "../src/context/relevanceFit";
import { terms } from "../src/context/terms";
import { matchMessage } from "../src/sessions/search";
import { unifiedDiff } from "../src/tools/diff";
import type { ChatMessage } from "../src/core/types";
import { seededRandom } from "../tests/support/random";
import { TaskClock } from "../bench/context";
import { fillerParagraphs, LANGS, syntheticNote } from "../bench/contextData";
import { runStandalone } from "../bench/stats";

const MB = 1024 * 1024;
const SIZES = [0.5, 1, 2, 4, 8, 16];
const RATIO_BAR = 2.5;

type Shape = { name: string; make: (chars: number) => string };

/** Joins generated pieces until `chars` characters. */
function fill(chars: number, piece: (i: number) => string): string {
	const parts: string[] = [];
	let n = 0;
	for (let i = 0; n < chars; i++) {
		const p = piece(i);
		parts.push(p);
		n += p.length;
	}
	return parts.join("").slice(0, chars);
}

export function shapes(): Shape[] {
	const pools = LANGS.map((l) => fillerParagraphs(l));
	const letters = "abcdefghijklmnopqrstuvwxyz";
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	return [
		{ name: "prose", make: (n) => syntheticNote(7, n, pools).slice(0, n) },
		{
			name: "one base64 line",
			make: (n) => {
				const r = seededRandom(1);
				return `# Clipping\n\n![photo](data:image/png;base64,${fill(n, () => b64[Math.floor(r() * 64)] ?? "A")})\n`;
			},
		},
		{
			name: "CJK without punctuation",
			make: (n) => {
				const r = seededRandom(2);
				return fill(n, () => String.fromCharCode(0x4e00 + Math.floor(r() * 3000)));
			},
		},
		{
			name: "random words",
			make: (n) => {
				const r = seededRandom(3);
				return fill(n, () => {
					let w = "";
					const len = 2 + Math.floor(r() * 9);
					for (let k = 0; k < len; k++) w += letters[Math.floor(r() * 26)] ?? "a";
					return `${w} `;
				});
			},
		},
		{ name: "Markdown table", make: (n) => `| id | name | value | note |\n|---|---|---|---|\n${fill(n, (i) => `| ${i} | item ${i % 977} | ${(i * 7919) % 100_003} | row ${i} of the table |\n`)}` },
		{ name: "minified JSON in a code block", make: (n) => `\`\`\`json\n${fill(n, (i) => `{"id":${i},"name":"item${i % 977}","tags":["a","b"],"v":${(i * 31) % 1000}},`)}\n\`\`\`\n` },
		{
			name: "a single word",
			make: (n) => {
				const r = seededRandom(4);
				return fill(n, () => letters[Math.floor(r() * 26)] ?? "a");
			},
		},
	];
}

/** Runs per measure: the fastest is kept (noise on a shared machine only ever adds time). */
const RUNS = Math.max(1, Number(process.env.LINEAR_RUNS ?? 3));
/** A full collection before each run, so one step's garbage is not billed to the next (gc exposed through the V8 flag). */
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as (() => void) | undefined;

/** Milliseconds of work: the smallest over RUNS runs of the smaller of wall clock and the process's CPU time, each after a GC. */
function timed(run: () => void): number {
	let best = Infinity;
	for (let k = 0; k < RUNS; k++) {
		collect?.();
		const cpu = process.cpuUsage();
		const wall = performance.now();
		run();
		const w = performance.now() - wall;
		const c = process.cpuUsage(cpu);
		best = Math.min(best, w, (c.user + c.system) / 1000);
	}
	return best;
}

interface Step {
	name: string;
	run: (text: string) => void;
}

export const STEPS: Step[] = [
	{ name: "estimator", run: (t) => void estimateTokens(t) },
	{ name: "terms", run: (t) => void terms(t) },
	{ name: "passage cutter", run: (t) => void cutPassages(t) },
	{
		name: "relevance fitter (first send)",
		run: (t) => {
			clearPassageCache();
			fitSource({ id: "n.md", name: "Note", text: t }, 4000, "where is the spare key", estimateTokens);
			clearPassageCache();
		},
	},
	{
		name: "index (upsert, whole note)",
		run: (t) => {
			const index = new NoteIndex();
			index.maxNoteChars = Infinity;
			index.upsert("n.md", t);
		},
	},
	{
		name: "diff preview",
		run: (t) => {
			const mid = Math.floor(t.length / 2);
			void unifiedDiff(t, `${t.slice(0, mid)}EDIT${t.slice(mid)}`, "n.md");
		},
	},
	{
		name: "session search",
		run: (t) => {
			const message: ChatMessage = { id: "m", role: "user", content: t, createdAt: "2026-01-01T00:00:00.000Z" };
			void matchMessage(message, "zzqx-not-there");
			void matchMessage({ ...message }, t.slice(t.length - 12).toLowerCase());
		},
	},
];


async function longestTasks(all: Shape[], sizeMb: number): Promise<string[]> {
	const rows: string[] = [];
	for (const shape of all) {
		const text = shape.make(sizeMb * MB);
		const index = new NoteIndex();
		index.maxNoteChars = Infinity;
		const build = new TaskClock();
		build.start();
		await indexInSlices(index, [{ id: "n.md", text }], build.yieldFn, { sliceMs: 10 });
		build.end();
		clearPassageCache();
		const prepare = new TaskClock();
		prepare.start();
		await preparePassages("n.md", text, "Note", prepare.yieldFn, { sliceMs: 10, estimate: estimateTokens });
		prepare.end();
		clearPassageCache();
		const limited = new NoteIndex();
		const part = new TaskClock();
		part.start();
		await indexInSlices(limited, [{ id: "n.md", text }], part.yieldFn, { sliceMs: 10 });
		part.end();
		const ok = (c: TaskClock): string => (c.longest <= 50 ? "✓" : "✗");
		rows.push(`| ${shape.name} | ${build.describe()} ${ok(build)} | ${prepare.describe()} ${ok(prepare)} | ${part.describe()} ${ok(part)} (${((limited.partialLength("n.md") ?? 0) > 0 ? "in part" : "whole")}) |`);
	}
	return rows;
}

async function syncRow(): Promise<string> {
	const pools = LANGS.map((l) => fillerParagraphs(l));
	const index = new NoteIndex();
	const notes = Array.from({ length: 5000 }, (_, i) => ({ id: `Folder ${i % 50}/Note ${i}.md`, text: syntheticNote(i, 4000, pools) }));
	for (const n of notes) index.upsert(n.id, n.text);
	const changed = notes.map((n, i) => ({ id: n.id, text: `${n.text}\n\nSynced change ${i}.` }));
	const clock = new TaskClock();
	const started = performance.now();
	clock.start();
	const report = await indexInSlices(index, changed, clock.yieldFn, { sliceMs: 10 });
	clock.end();
	const total = performance.now() - started;
	return `| a sync brings 5,000 changed 4 KB notes: re-indexed in ${report.slices} slices, ${(total / 1000).toFixed(1)} s in all | ${clock.describe()} | ${clock.longest <= 50 ? "✓" : "✗"} |`;
}

export async function runLinearBench(sizes: readonly number[] = SIZES): Promise<string> {
	const loadStart = loadavg()[0] ?? NaN;
	const all = shapes();
	// times[step][shape][size]
	const times = STEPS.map(() => all.map(() => sizes.map(() => NaN)));
	all.forEach((shape, s) => {
		for (let z = 0; z < sizes.length; z++) {
			const text = shape.make((sizes[z] ?? 1) * MB);
			STEPS.forEach((step, k) => {
				(times[k] as number[][])[s]![z] = timed(() => step.run(text));
			});
		}
	});
	const last = sizes.length - 1;
	const out: string[] = [];
	const head = `| Shape | ${sizes.map((z) => `${z} MB`).join(" | ")} | ${sizes[last]}/${sizes[last - 1]} MB | |`;
	const rule = `|---|${sizes.map(() => "--:").join("|")}|--:|:-:|`;
	let missed = 0;
	STEPS.forEach((step, k) => {
		out.push(`**${step.name}**: ms per MB`, "", head, rule);
		all.forEach((shape, s) => {
			const row = (times[k] as number[][])[s] as number[];
			const ratio = (row[last] ?? NaN) / (row[last - 1] ?? NaN);
			const met = ratio <= RATIO_BAR;
			if (!met) missed++;
			out.push(`| ${shape.name} | ${row.map((t, z) => (t / (sizes[z] ?? 1)).toFixed(1)).join(" | ")} | ${ratio.toFixed(2)} | ${met ? "met" : "missed"} |`);
		});
		out.push("");
	});
	out.push(`Bar: the ${sizes[last]} MB time at most ${RATIO_BAR} × the ${sizes[last - 1]} MB time, every step and shape: ${missed === 0 ? "met" : `missed ${missed} times`}.`, "");
	const big = sizes[last] ?? 16;
	out.push(`**Longest main-thread task, one ${big} MB note (10 ms slices)**`, "", `| Shape | indexInSlices, whole note | preparePassages (cut, terms, corpus, estimate, prices) | indexInSlices, default limit (4 MB) |`, "|---|--:|--:|--:|");
	out.push(...(await longestTasks(all, big)), "");
	out.push("**Longest main-thread task, a sync**", "", "| What | Longest task | ≤ 50 ms |", "|---|--:|:-:|", await syncRow(), "");
	out.push(`Times: per step and size, the fastest of ${RUNS} runs (LINEAR_RUNS) of the smaller of wall clock and CPU time, ${collect ? "each after a full GC" : "without a GC between runs"}; wall beside the longest tasks. Load average (1 min) ${loadStart.toFixed(1)} at the start, ${(loadavg()[0] ?? NaN).toFixed(1)} at the end, on ${cpus().length} cores.`);
	return out.join("\n");
}

