// Provider benchmarks: time to first token the adapter adds over a raw fetch of the same local
// stream, how fast Stop rejects, and parse throughput on a 10 MB stream for each dialect.
// Standalone: npx tsx bench/providers.ts
import { performance } from "node:perf_hooks";
import { createAdapter, fetchTransport, loadNodeTransport, type ProviderName } from "../src/providers";
import type { Transport } from "../src/providers/transport";
import type { GenerateRequest } from "../src/core/types";
import { memoryTransport } from "../tests/support/memoryTransport";
import { ProviderServer } from "../tests/support/providerServer";
import { baseUrlFor, CHAT_PATHS, endlessScenario, headersFor, streamFor } from "../tests/support/providerStreams";
import { median, runStandalone } from "./stats";

const DIALECTS: ProviderName[] = ["ollama", "openai", "anthropic"];
const TTFT_RUNS = 300;
const WARMUP = 30;
const STREAM_BYTES = 10 * 1024 * 1024;
const READ_CHUNK = 16 * 1024;

const req = (onToken?: (d: string) => void): GenerateRequest => ({
	purpose: "chat",
	messages: [{ role: "user", content: "Hello" }],
	maxTokens: 256,
	contextWindow: 8192,
	onToken,
});

const ms = (n: number): string => n.toFixed(3);

/** Raw fetch: request sent → first body bytes in hand. */
async function rawFirstByte(url: string, body: string): Promise<number> {
	const start = performance.now();
	const response = await fetchTransport(url, { method: "POST", headers: { "content-type": "application/json" }, body });
	const reader = response.body?.getReader();
	await reader?.read();
	const elapsed = performance.now() - start;
	await reader?.cancel();
	return elapsed;
}

/** Adapter: generate() called → first token handed to onToken. */
async function adapterFirstToken(provider: ProviderName, serverUrl: string, transport: Transport): Promise<number> {
	const adapter = createAdapter({ provider, baseUrl: baseUrlFor(provider, serverUrl), model: "m", transport });
	const controller = new AbortController();
	const start = performance.now();
	let first = -1;
	await adapter
		.generate({
			...req((): void => {
				if (first < 0) {
					first = performance.now() - start;
					controller.abort();
				}
			}),
			signal: controller.signal,
		})
		.catch(() => undefined);
	return first;
}

async function timeToFirstToken(): Promise<string> {
	const server = await ProviderServer.start();
	const node = await loadNodeTransport();
	const rows: string[] = [];
	try {
		for (const provider of DIALECTS) {
			// One write: the first token is in the first bytes, so the difference is the adapter's own work.
			server.route("POST", CHAT_PATHS[provider], { headers: headersFor(provider), body: streamFor(provider, ["Hello", " world"]), chunkMin: 1 << 20, chunkMax: 1 << 20 });
			const url = `${server.url}${CHAT_PATHS[provider]}`;
			const raw: number[] = [];
			const viaFetch: number[] = [];
			const viaNode: number[] = [];
			for (let i = 0; i < WARMUP + TTFT_RUNS; i++) {
				// Interleaved, so drift in the machine's load hits all three alike.
				const r = await rawFirstByte(url, "{}");
				const f = await adapterFirstToken(provider, server.url, fetchTransport);
				const n = await adapterFirstToken(provider, server.url, node);
				if (i < WARMUP) continue;
				raw.push(r);
				viaFetch.push(f);
				viaNode.push(n);
			}
			// Runs are interleaved, so each adapter run is paired with the raw run just before it.
			const added = viaFetch.map((f, i) => f - (raw[i] ?? 0));
			rows.push(`| ${provider} | ${ms(median(raw))} | ${ms(median(viaFetch))} | ${ms(median(added))} | ${ms(median(viaNode))} |`);
		}
	} finally {
		await server.close();
	}
	return [
		`### Time to first token (local server, median of ${TTFT_RUNS} runs, ms)`,
		"",
		"| Dialect | Raw fetch, first byte | Adapter (fetch), first token | Added by adapter (median of paired differences) | Adapter (Node transport), first token |",
		"| --- | ---: | ---: | ---: | ---: |",
		...rows,
	].join("\n");
}

/** generate() on an endless stream: abort() after the first token → the rejection, in ms. */
async function stopLatency(provider: ProviderName, serverUrl: string, transport: Transport): Promise<number> {
	const adapter = createAdapter({ provider, baseUrl: baseUrlFor(provider, serverUrl), model: "m", transport });
	const controller = new AbortController();
	let abortedAt = 0;
	await adapter
		.generate({
			...req((): void => {
				if (abortedAt === 0) {
					abortedAt = performance.now();
					controller.abort();
				}
			}),
			signal: controller.signal,
		})
		.catch(() => undefined);
	return performance.now() - abortedAt;
}

async function stopLatencies(): Promise<string> {
	const server = await ProviderServer.start();
	const node = await loadNodeTransport();
	const rows: string[] = [];
	try {
		for (const provider of DIALECTS) {
			server.route("POST", CHAT_PATHS[provider], endlessScenario(provider, 1));
			const viaFetch: number[] = [];
			const viaNode: number[] = [];
			for (let i = 0; i < 100; i++) {
				viaFetch.push(await stopLatency(provider, server.url, fetchTransport));
				viaNode.push(await stopLatency(provider, server.url, node));
			}
			rows.push(`| ${provider} | ${ms(median(viaFetch))} | ${ms(Math.max(...viaFetch))} | ${ms(median(viaNode))} | ${ms(Math.max(...viaNode))} |`);
		}
	} finally {
		await server.close();
	}
	return [
		"### Stop: abort() to rejection with kind aborted (endless local stream, 100 runs, ms)",
		"",
		"| Dialect | Fetch, median | Fetch, max | Node transport, median | Node transport, max |",
		"| --- | ---: | ---: | ---: | ---: |",
		...rows,
	].join("\n");
}

/** A stream of about `bytes` bytes for `provider`, with multibyte text, and the length of its answer. */
function bigStream(provider: ProviderName, bytes: number): { stream: string; answerChars: number } {
	const words = [" the", " café", " 日本", " context", " window", " 🎉", " and", " notes"];
	const tokensFor = (n: number): string[] => Array.from({ length: n }, (_, i) => words[i % words.length] ?? " ");
	const sample = new TextEncoder().encode(streamFor(provider, tokensFor(1000))).length;
	const tokens = tokensFor(Math.ceil((bytes / sample) * 1000));
	return { stream: streamFor(provider, tokens), answerChars: tokens.reduce((n, t) => n + t.length, 0) };
}

async function parseThroughput(): Promise<string> {
	const rows: string[] = [];
	const encoder = new TextEncoder();
	for (const provider of DIALECTS) {
		const { stream, answerChars } = bigStream(provider, STREAM_BYTES);
		const bytes = encoder.encode(stream);
		// The parse test asks for the answer it streams (a token per word): the runaway cap
		// (answerCharLimit, 64× maxTokens' worth) stays what it is for real answers and is not reached.
		const maxTokens = Math.ceil(answerChars / 4);
		const chunks: Uint8Array[] = [];
		for (let i = 0; i < bytes.length; i += READ_CHUNK) chunks.push(bytes.subarray(i, i + READ_CHUNK));
		const runs: number[] = [];
		let tokens = 0;
		for (let run = 0; run < 5; run++) {
			const adapter = createAdapter({ provider, baseUrl: "http://127.0.0.1:9", model: "m", transport: memoryTransport({ headers: headersFor(provider), chunks }) });
			let count = 0;
			const start = performance.now();
			await adapter.generate({ ...req(() => void count++), maxTokens });
			runs.push(performance.now() - start);
			tokens = count;
		}
		const mid = median(runs);
		const mb = bytes.length / (1024 * 1024);
		rows.push(`| ${provider} | ${mb.toFixed(1)} | ${tokens.toLocaleString("en-US")} | ${mid.toFixed(0)} | ${(mb / (mid / 1000)).toFixed(0)} |`);
	}
	return [
		`### Parse throughput (in memory, ${READ_CHUNK / 1024} KB reads, median of 5 runs; MB = 2^20 bytes)`,
		"",
		"| Dialect | Stream (MB) | Tokens | Time (ms) | MB/s |",
		"| --- | ---: | ---: | ---: | ---: |",
		...rows,
	].join("\n");
}

export async function runProviderBench(): Promise<string> {
	return [await timeToFirstToken(), "", await stopLatencies(), "", await parseThroughput()].join("\n");
}

runStandalone(import.meta.url, runProviderBench);
