// Checkpoints of the answer being streamed: what one checkpoint costs for answers of
// 1 KB to 64 KB on the memory store and on disk (NodeFileStore), and the longest synchronous task
// while a long answer streams with checkpoints far more often than the app makes them.
// Run alone with `npx tsx bench/checkpoint.ts`; bench/run.ts calls runCheckpointBench().
import { mkdtemp, rm, stat } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { clearTimeout as clearNodeTimeout, setTimeout as nodeTimeout } from "node:timers";
import { AnswerCheckpoint, CHECKPOINT_INTERVAL_MS } from "../src/chat/answerCheckpoint";
import { ChatService } from "../src/chat/ChatService";
import type { GenerateRequest, GenerateResult, LLMAdapter } from "../src/core/types";
import { MemoryFileStore } from "../src/sessions/memoryStore";
import { NodeFileStore } from "../src/sessions/nodeStore";
import { SessionManager } from "../src/sessions/SessionManager";
import type { FileStore } from "../src/sessions/store";
import { runStandalone, stats } from "./stats";

const SIZES_KB = [1, 4, 16, 64] as const;
/** Checkpoints measured per answer size: an answer of 30 checkpoints streamed for a minute. */
const CHECKPOINTS = 30;
/** Time runs this much faster in the streaming run: a checkpoint every 100 ms instead of 2 s. */
const SPEEDUP = 20;
const LONG_ANSWER_KB = 64;
/** A token of this many characters about every millisecond: a very fast model. */
const TOKEN_CHARS = 32;

const ms = (value: number): string => (value < 1 ? value.toFixed(3) : value.toFixed(2));
const never = { set: () => 0, clear: () => undefined };

function answerText(bytes: number): string {
	const words = "the model writes an answer about the note in plain words and some `code` here ";
	return words.repeat(Math.ceil(bytes / words.length)).slice(0, bytes);
}

/** ms per checkpoint, from the call to the record being written, for one answer size on one store. */
async function checkpointCost(store: FileStore, bytes: number): Promise<number[]> {
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	const { id } = await sessions.create();
	await sessions.appendMessage(id, { id: "q", role: "user", content: "Tell me everything.", createdAt: new Date().toISOString() });
	const full = answerText(bytes);
	let text = "";
	const checkpoint = new AnswerCheckpoint({ sessions, sessionId: id, text: () => text, now: Date.now, timers: never, onWarning: () => undefined });
	const samples: number[] = [];
	for (let i = 1; i <= CHECKPOINTS; i++) {
		// The answer as it stands at this checkpoint: it grows to `bytes` over the run.
		text = full.slice(0, Math.ceil((bytes * i) / CHECKPOINTS));
		checkpoint.touch();
		const start = performance.now();
		await checkpoint.writeNow();
		samples.push(performance.now() - start);
	}
	checkpoint.close();
	return samples;
}

/** Streams a long answer token by token, a token about every millisecond. */
class FastModel implements LLMAdapter {
	constructor(private readonly text: string) {}
	async generate(req: GenerateRequest): Promise<GenerateResult> {
		for (let i = 0; i < this.text.length; i += TOKEN_CHARS) {
			await new Promise<void>((resolve) => nodeTimeout(resolve, 1));
			req.onToken?.(this.text.slice(i, i + TOKEN_CHARS));
		}
		return { text: "" };
	}
}

/**
 * The longest task while the answer streams, with checkpoints or without: the largest gap between
 * two turns of the event loop, counted as the CPU time the process used in it when that is less
 * (on a loaded machine the process also waits for a core, which is no task of ours).
 */
async function longestTask(store: FileStore, checkpointing: boolean): Promise<{ longest: number; wall: number; checkpoints: number; seconds: number }> {
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	let checkpoints = 0;
	const timers = !checkpointing
		? never
		: {
				set: (fn: () => void, delay: number) =>
					nodeTimeout(() => {
						checkpoints++;
						fn();
					}, delay / SPEEDUP),
				clear: (handle: unknown) => clearNodeTimeout(handle as ReturnType<typeof nodeTimeout>),
			};
	const chat = new ChatService({ adapter: new FastModel(answerText(LONG_ANSWER_KB * 1024)), sessions, timers });
	let longest = 0;
	let wall = 0;
	let last = performance.now();
	let lastCpu = process.cpuUsage();
	let running = true;
	const beat = (): void => {
		const now = performance.now();
		const cpu = process.cpuUsage(lastCpu);
		const gap = now - last;
		wall = Math.max(wall, gap);
		longest = Math.max(longest, Math.min(gap, (cpu.user + cpu.system) / 1000));
		last = now;
		lastCpu = process.cpuUsage();
		if (running) setImmediate(beat);
	};
	setImmediate(beat);
	const start = performance.now();
	await chat.sendMessage("Tell me everything.");
	const seconds = (performance.now() - start) / 1000;
	running = false;
	return { longest, wall, checkpoints, seconds };
}

export async function runCheckpointBench(): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), "discover-bench-checkpoint-"));
	try {
		const lines = [
			`| Checkpoint of a streaming answer (${CHECKPOINTS} per answer, growing to its size) | memory median ms | memory p95 ms | disk median ms | disk p95 ms | session file after them |`,
			"| --- | ---: | ---: | ---: | ---: | ---: |",
		];
		for (const kb of SIZES_KB) {
			const memory = await checkpointCost(new MemoryFileStore(), kb * 1024);
			const diskDir = join(dir, `cost-${kb}`);
			const disk = await checkpointCost(new NodeFileStore(diskDir), kb * 1024);
			const m = stats(memory);
			const d = stats(disk);
			const files = new NodeFileStore(diskDir);
			const [name] = await files.list("sessions");
			const size = name === undefined ? 0 : (await stat(join(diskDir, "sessions", name))).size;
			lines.push(
				`| ${kb} KB answer | ${ms(m.median)} | ${ms(m.p95)} | ${ms(d.median)} | ${ms(d.p95)} | ${(size / 1024).toFixed(0)} KB |`,
			);
		}
		lines.push(
			"",
			`| Streaming a ${LONG_ANSWER_KB} KB answer, a ${TOKEN_CHARS}-character token every ~1 ms | checkpoints (every ${CHECKPOINT_INTERVAL_MS / SPEEDUP} ms, ${SPEEDUP}× the app's rate) | stream s | longest task ms | same, no checkpoints | longest wall-clock gap ms | same, no checkpoints |`,
			"| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
		);
		let worst = 0;
		for (const [label, make] of [
			["memory store", () => new MemoryFileStore()],
			["NodeFileStore (disk)", () => new NodeFileStore(join(dir, `stream-${Math.random().toString(36).slice(2)}`))],
		] as const) {
			const plain = await longestTask(make(), false);
			const run = await longestTask(make(), true);
			worst = Math.max(worst, run.longest);
			lines.push(`| ${label} | ${run.checkpoints} | ${run.seconds.toFixed(1)} | ${ms(run.longest)} | ${ms(plain.longest)} | ${ms(run.wall)} | ${ms(plain.wall)} |`);
		}
		lines.push(
			"",
			`Each checkpoint appends the whole answer so far as one line (superseded records are removed by compaction later), hence the file sizes. Longest task: the largest gap between two turns of the event loop while the answer streams (sending and saving included), counted as the CPU time the process used in that gap when less; the wall-clock gap also counts time spent waiting for a core on a loaded machine (load average ${loadavg()[0]?.toFixed(1) ?? "n/a"} on ${cpus().length} cores at the end of this run). Target under 50 ms: ${worst < 50 ? "met" : "NOT met"} (${ms(worst)} ms).`,
		);
		return lines.join("\n");
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

runStandalone(import.meta.url, runCheckpointBench);
