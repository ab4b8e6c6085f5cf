// Session store benchmark: append latency and full load at 10,000 messages, list and search over
// 1,000 sessions of 50 messages. Uses NodeFileStore in a temporary directory (real disk I/O).
// Run alone with `npx tsx bench/sessions.ts`; bench/run.ts calls runSessionBench().
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { ChatMessage } from "../src/core/types";
import { NodeFileStore } from "../src/sessions/nodeStore";
import { SessionManager } from "../src/sessions/SessionManager";
import { seededRandom } from "../tests/support/random";
import { stats, runStandalone } from "./stats";

const WORDS = (
	"the a of to and in is it that for on with as this be are by not or from at an but can note notes " +
	"vault link links graph plugin obsidian markdown heading summary model context window token budget " +
	"prompt answer question session history search file folder sync mobile desktop theme editor canvas " +
	"daily weekly project task tasks review idea ideas draft outline chapter paragraph quote source research " +
	"meeting agenda decision follow up deadline priority tag tags property properties template templates"
).split(" ");

/** Zipf-like word choice: common words are much more frequent, as in real text. */
function sentence(random: () => number, words: number): string {
	const out: string[] = [];
	for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(WORDS.length * random() ** 2.5)] ?? "the");
	return out.join(" ");
}

const ms = (value: number): string => (value < 1 ? value.toFixed(3) : value < 100 ? value.toFixed(2) : value.toFixed(0));

async function time<T>(task: () => Promise<T>): Promise<[number, T]> {
	const start = performance.now();
	const result = await task();
	return [performance.now() - start, result];
}

function makeMessage(random: () => number, n: number, base: number): ChatMessage {
	const role = n % 2 === 0 ? "user" : "assistant";
	const words = role === "user" ? 10 + Math.floor(random() * 30) : 40 + Math.floor(random() * 120);
	return { id: `m${n}`, role, content: sentence(random, words), createdAt: new Date(base + n * 1000).toISOString() };
}

async function appendAndLoad(dir: string): Promise<string[]> {
	const random = seededRandom(1);
	const manager = new SessionManager(new NodeFileStore(dir));
	const { id } = await manager.create();
	const samples: number[] = [];
	const base = Date.UTC(2026, 0, 1);
	for (let n = 0; n < 10_000; n++) {
		const message = makeMessage(random, n, base);
		const start = performance.now();
		await manager.appendMessage(id, message);
		samples.push(performance.now() - start);
	}
	const first = stats(samples.slice(0, 1000));
	const last = stats(samples.slice(-1000));
	const all = stats(samples);
	const cold: number[] = [];
	let count = 0;
	for (let i = 0; i < 5; i++) {
		const [elapsed, session] = await time(() => new SessionManager(new NodeFileStore(dir)).load(id));
		cold.push(elapsed);
		count = session.messages.length;
	}
	const warm: number[] = [];
	for (let i = 0; i < 5; i++) warm.push((await time(() => manager.load(id)))[0]);
	const coldStats = stats(cold);
	const warmStats = stats(warm);
	return [
		"| Session store: one session growing to 10,000 messages | median ms | p95 ms |",
		"| --- | ---: | ---: |",
		`| append, all 10,000 | ${ms(all.median)} | ${ms(all.p95)} |`,
		`| append, messages 1-1,000 | ${ms(first.median)} | ${ms(first.p95)} |`,
		`| append, messages 9,001-10,000 | ${ms(last.median)} | ${ms(last.p95)} |`,
		`| load() at ${count.toLocaleString("en-US")} messages, fresh manager (read + parse) | ${ms(coldStats.median)} | ${ms(coldStats.p95)} |`,
		`| load() at ${count.toLocaleString("en-US")} messages, cached (stat + copy) | ${ms(warmStats.median)} | ${ms(warmStats.p95)} |`,
	];
}

async function listAndSearch(dir: string): Promise<string[]> {
	const random = seededRandom(2);
	const setup = new SessionManager(new NodeFileStore(dir));
	const base = Date.UTC(2026, 0, 1);
	const rare = "quasar";
	let n = 0;
	for (let s = 0; s < 1000; s++) {
		const session = await setup.create();
		const messages: ChatMessage[] = [];
		for (let i = 0; i < 50; i++) {
			const message = makeMessage(random, n++, base);
			// A rare word in 4 of the 50,000 messages, spread across the history.
			if (n % 10_007 === 0) message.content += ` ${rare.toUpperCase()} sighting`;
			messages.push(message);
		}
		await setup.updateSession({ ...session, messages });
	}
	await setup.flush();
	await rm(join(dir, "index.json"));

	const rows: string[] = [];
	const fresh = new SessionManager(new NodeFileStore(dir));
	const [rebuild, listed] = await time(() => fresh.list());
	const [fromIndex] = await time(() => new SessionManager(new NodeFileStore(dir)).list());
	const warmList: number[] = [];
	for (let i = 0; i < 7; i++) warmList.push((await time(() => fresh.list()))[0]);
	rows.push(
		`| Session store: ${listed.length.toLocaleString("en-US")} sessions × 50 messages | median ms | p95 ms |`,
		"| --- | ---: | ---: |",
		`| list(), no index file (rebuild: read every session) | ${ms(rebuild)} | ${ms(rebuild)} |`,
		`| list(), fresh manager with the index file | ${ms(fromIndex)} | ${ms(fromIndex)} |`,
		`| list(), warm (listing; each file stat-checked at most every 2 s) | ${ms(stats(warmList).median)} | ${ms(stats(warmList).p95)} |`,
	);

	const queries: [string, string][] = [
		["hit-rich", "obsidian"],
		["rare", rare],
		["miss", "zyzzyva"],
	];
	const searcher = new SessionManager(new NodeFileStore(dir));
	const strict = new SessionManager(new NodeFileStore(dir), { recheckMs: 0 });
	const [cold, coldHits] = await time(() => searcher.search(rare));
	await strict.search(rare);
	// What the history browser does: warmSearch() when it opens, then the person's first search.
	const browser = new SessionManager(new NodeFileStore(dir));
	const [warmUp] = await time(() => browser.warmSearch());
	const [firstAfterWarm] = await time(() => browser.search(rare));
	rows.push(
		`| search "${rare}", fresh manager (reads and caches all 1,000 files; ${coldHits.length} hits) | ${ms(cold)} | ${ms(cold)} |`,
		`| warmSearch(), fresh manager (the history browser starts it on open, in batches) | ${ms(warmUp)} | ${ms(warmUp)} |`,
		`| first search "${rare}" after warmSearch() | ${ms(firstAfterWarm)} | ${ms(firstAfterWarm)} |`,
		"",
		"| Search, 1,000 sessions × 50 messages, warm cache, limit 100 | hits | median ms | p95 ms | median ms, recheckMs 0 | p95 ms, recheckMs 0 |",
		"| --- | ---: | ---: | ---: | ---: | ---: |",
	);
	const medians: number[] = [];
	for (const [label, query] of queries) {
		const measure = async (manager: SessionManager): Promise<[{ median: number; p95: number }, number]> => {
			const samples: number[] = [];
			let hits = 0;
			for (let i = 0; i < 15; i++) {
				const [elapsed, result] = await time(() => manager.search(query));
				samples.push(elapsed);
				hits = result.length;
			}
			return [stats(samples), hits];
		};
		const [usual, hits] = await measure(searcher);
		const [checked] = await measure(strict);
		medians.push(usual.median, checked.median);
		rows.push(`| ${label} "${query}" | ${hits} | ${ms(usual.median)} | ${ms(usual.p95)} | ${ms(checked.median)} | ${ms(checked.p95)} |`);
	}
	const worst = Math.max(...medians);
	rows.push(
		"",
		"recheckMs: how long list() and search() trust their last stat of every file (default 2,000 ms);",
		"0 stats all 1,000 files on every call, as a first search after a pause does.",
		`Search target: under 100 ms. Slowest median: ${ms(worst)} ms — ${worst < 100 ? "met" : "NOT met"}.`,
	);
	return rows;
}

/** Runs the session store benchmark and returns its Markdown tables. */
export async function runSessionBench(): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), "discover-bench-sessions-"));
	try {
		const first = await appendAndLoad(join(dir, "growing"));
		const second = await listAndSearch(join(dir, "many"));
		// Shared machines make timings noisy; the load average says how much to trust them.
		const load = `Load average (1 min) at the end of the run: ${loadavg()[0]?.toFixed(1) ?? "n/a"}.`;
		return [...first, "", ...second, load].join("\n");
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

runStandalone(import.meta.url, runSessionBench);
