// The engine benchmark's workload: ChatService with a stub adapter that answers at once, sessions
// of 10 to 10,000 messages, a 50 KB and a 1 MB note. Sessions live in a MemoryFileStore so storage
// I/O does not dominate (bench/sessions.ts measures the store on disk). bench/engine.ts bundles
// this file with esbuild, as the plugin ships, and runs it.
import { performance } from "node:perf_hooks";
import { StubAdapter } from "../tests/support/stubAdapter";
import { ChatService } from "../src/chat/ChatService";
import type { ChatMessage } from "../src/core/types";
import { MemoryFileStore } from "../src/sessions/memoryStore";
import { SessionManager } from "../src/sessions/SessionManager";
import { seededRandom } from "../tests/support/random";
import { stats } from "./stats";

const SIZES = [10, 100, 1_000, 10_000] as const;
const WARMUP_SENDS = 5;
const MEASURED_SENDS = 200;

const WORDS = (
	"the a of to and in is it that for on with as this be are by not or from at an but can note notes vault link " +
	"graph plugin markdown heading summary model context window token budget prompt answer question session " +
	"history search file folder sync mobile desktop theme editor daily project task review idea draft outline"
).split(" ");

function sentence(random: () => number, words: number): string {
	const out: string[] = [];
	for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(WORDS.length * random() ** 2)] ?? "the");
	return out.join(" ");
}

/** A Markdown note of about `bytes` characters: headings, paragraphs, list items. */
function note(bytes: number, random: () => number): string {
	const lines: string[] = [];
	let size = 0;
	for (let i = 0; size < bytes; i++) {
		const line = i % 12 === 0 ? `## Section ${i / 12}` : i % 3 === 0 ? `- ${sentence(random, 8)}` : sentence(random, 12 + Math.floor(random() * 20));
		lines.push(line);
		size += line.length + 1;
	}
	return lines.join("\n").slice(0, bytes);
}

const ms = (value: number): string => (value < 10 ? value.toFixed(3) : value.toFixed(1));

async function prebuiltSession(sessions: SessionManager, count: number, random: () => number): Promise<string> {
	const session = await sessions.create();
	const base = Date.parse("2026-01-01T00:00:00Z");
	for (let n = 0; n < count; n++) {
		const role = n % 2 === 0 ? "user" : "assistant";
		const words = role === "user" ? 10 + Math.floor(random() * 30) : 40 + Math.floor(random() * 120);
		const message: ChatMessage = { id: `m${String(n).padStart(6, "0")}`, role, content: sentence(random, words), createdAt: new Date(base + n * 1000).toISOString() };
		await sessions.appendMessage(session.id, message);
	}
	return session.id;
}

interface Row {
	messages: number;
	first: number;
	median: number;
	p95: number;
}

interface Bench {
	count: number;
	send: () => Promise<number>;
	first: number;
	samples: number[];
}

async function prepare(noteText: string, count: number): Promise<Bench> {
	const random = seededRandom(count);
	const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
	const id = await prebuiltSession(sessions, count, random);
	const adapter = new StubAdapter({ noDelay: true, chunkSize: 16, reply: () => "A short answer from the stub model, streamed in a few pieces." });
	const chat = new ChatService({ adapter, sessions });
	await chat.loadSession(id);
	const send = async (): Promise<number> => {
		const text = sentence(random, 15);
		const start = performance.now();
		await chat.sendMessage(text, { context: noteText, contextName: "Bench note" });
		return performance.now() - start;
	};
	// The first send summarizes the prebuilt history once (the stub answers at once).
	const first = await send();
	for (let i = 0; i < WARMUP_SENDS; i++) await send();
	return { count, send, first, samples: [] };
}

/** Sends round-robin across the session sizes, so machine noise falls on every size alike. */
async function measure(noteText: string): Promise<Row[]> {
	const benches: Bench[] = [];
	for (const size of SIZES) benches.push(await prepare(noteText, size));
	for (let i = 0; i < MEASURED_SENDS; i++) {
		for (const b of benches) b.samples.push(await b.send());
	}
	return benches.map((b) => ({ messages: b.count, first: b.first, ...stats(b.samples) }));
}

async function table(label: string, noteText: string): Promise<{ text: string; rows: Row[] }> {
	const rows = await measure(noteText);
	const base = rows[0]?.median ?? NaN;
	const lines = [
		`### Engine overhead per send, ${label} note`,
		"",
		`Stub adapter answering at once, default settings (8,192-token window), sessions in a MemoryFileStore (no disk I/O). Median and p95 of ${MEASURED_SENDS} sends per size (sizes interleaved) after ${WARMUP_SENDS} warm-up sends; "first send" includes summarizing the prebuilt history once.`,
		"",
		"| messages in session | first send (ms) | median (ms) | p95 (ms) | median vs 10 messages |",
		"|---:|---:|---:|---:|---:|",
		...rows.map((r) => `| ${r.messages.toLocaleString("en-US")} | ${ms(r.first)} | ${ms(r.median)} | ${ms(r.p95)} | ${(r.median / base).toFixed(2)}× |`),
	];
	return { text: lines.join("\n"), rows };
}

function verdict(label: string, rows: readonly Row[]): string {
	const small = rows[0]?.median ?? NaN;
	const large = rows[rows.length - 1]?.median ?? NaN;
	const ratioOk = large <= 3 * small;
	const absoluteOk = large < 5;
	return `${label}: 10,000-message median ${ms(large)} ms = ${(large / small).toFixed(2)}× the 10-message one (target ≤ 3×: ${ratioOk ? "met" : "NOT met"}; under 5 ms: ${absoluteOk ? "met" : "NOT met"}).`;
}

export async function runEngineTables(): Promise<string> {
	const random = seededRandom(42);
	const small = note(50 * 1024, random);
	const large = note(1024 * 1024, random);
	const a = await table("50 KB", small);
	const b = await table("1 MB", large);
	return [a.text, "", verdict("50 KB note", a.rows), "", b.text, "", verdict("1 MB note", b.rows)].join("\n");
}
