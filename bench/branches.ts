// Branches benchmark: a branch switch in a 1,000-message chat, and loading a chat with 100
// branches, on NodeFileStore in a temporary directory (real disk I/O).
// Run alone with `npx tsx bench/branches.ts`; bench/run.ts calls runBranchBench().
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { ChatMessage } from "../src/core/types";
import { NodeFileStore } from "../src/sessions/nodeStore";
import { SessionManager } from "../src/sessions/SessionManager";
import { seededRandom } from "../tests/support/random";
import { stats, runStandalone } from "./stats";

const SWITCH_TARGET_MS = 50;
const LOAD_TARGET_MS = 100;
const ms = (value: number): string => (value < 1 ? value.toFixed(3) : value < 100 ? value.toFixed(2) : value.toFixed(0));

function text(random: () => number, words: number): string {
	const vocabulary = "note vault link model answer question branch summary window token prompt idea draft".split(" ");
	return Array.from({ length: words }, () => vocabulary[Math.floor(random() * vocabulary.length)] ?? "note").join(" ");
}

let counter = 0;
function message(random: () => number, role: "user" | "assistant"): ChatMessage {
	const n = counter++;
	return { id: `b${n}`, role, content: text(random, role === "user" ? 20 : 80), createdAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString() };
}

async function time<T>(task: () => Promise<T>): Promise<[number, T]> {
	const start = performance.now();
	const result = await task();
	return [performance.now() - start, result];
}

/** 1,000 messages on one branch; the answer at message 500 regenerated; switch back and forth. */
async function switchInLongChat(dir: string): Promise<{ row: string; median: number }> {
	const random = seededRandom(11);
	const sessions = new SessionManager(new NodeFileStore(dir));
	const { id } = await sessions.create();
	let question: ChatMessage | undefined;
	let longTail: ChatMessage | undefined;
	for (let i = 0; i < 1000; i++) {
		const m = message(random, i % 2 === 0 ? "user" : "assistant");
		if (i === 500) question = m;
		await sessions.appendMessage(id, m);
		longTail = m;
	}
	await sessions.branchAt(id, question!.id);
	const alternative = message(random, "assistant");
	await sessions.appendMessage(id, alternative);
	const samples: number[] = [];
	let shown = 0;
	for (let i = 0; i < 30; i++) {
		const target = i % 2 === 0 ? longTail! : alternative;
		const [elapsed, session] = await time(() => sessions.switchBranch(id, target.id));
		samples.push(elapsed);
		shown = Math.max(shown, session.messages.length);
	}
	const { median, p95 } = stats(samples);
	return { row: `| switchBranch() in a chat of 1,001 messages (${shown} shown; writes a switch record) | ${ms(median)} | ${ms(p95)} | ${SWITCH_TARGET_MS} |`, median };
}

/** 100 branches: 100 edits of earlier messages, each followed by a few turns. */
async function loadManyBranches(dir: string): Promise<{ rows: string[]; median: number }> {
	const random = seededRandom(12);
	const sessions = new SessionManager(new NodeFileStore(dir));
	const { id } = await sessions.create();
	const users: ChatMessage[] = [];
	const turn = async (): Promise<void> => {
		const user = message(random, "user");
		users.push(user);
		await sessions.appendMessage(id, user);
		await sessions.appendMessage(id, message(random, "assistant"));
	};
	for (let i = 0; i < 10; i++) await turn();
	for (let b = 1; b < 100; b++) {
		const target = users[Math.floor(random() * users.length)]!;
		await sessions.branchBefore(id, target.id);
		for (let i = 0; i < 5; i++) await turn();
	}
	const samples: number[] = [];
	let shown = 0;
	for (let i = 0; i < 9; i++) {
		const [elapsed, session] = await time(() => new SessionManager(new NodeFileStore(dir)).load(id));
		samples.push(elapsed);
		shown = session.messages.length;
	}
	const total = counter;
	const { median, p95 } = stats(samples);
	return {
		rows: [`| load(), fresh manager: 100 branches, ${total.toLocaleString("en-US")} messages written in all (${shown} shown) | ${ms(median)} | ${ms(p95)} | ${LOAD_TARGET_MS} |`],
		median,
	};
}

/** Runs the branches benchmark and returns its Markdown table. */
export async function runBranchBench(): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), "discover-bench-branches-"));
	try {
		counter = 0;
		const switched = await switchInLongChat(join(dir, "long"));
		counter = 0;
		const loaded = await loadManyBranches(join(dir, "many"));
		const met = (value: number, target: number): string => (value < target ? "met" : "NOT met");
		return [
			"| Branches | median ms | p95 ms | target ms |",
			"| --- | ---: | ---: | ---: |",
			switched.row,
			...loaded.rows,
			"",
			`Switch target: ${met(switched.median, SWITCH_TARGET_MS)}. Load target: ${met(loaded.median, LOAD_TARGET_MS)}.`,
			`Load average (1 min) at the end of the run: ${loadavg()[0]?.toFixed(1) ?? "n/a"}.`,
		].join("\n");
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

runStandalone(import.meta.url, runBranchBench);
