// What a hostile or broken server costs the client: for each endless or oversized
// reply, the bytes the client read, the memory it grew by (heap and buffers) and the time until it gave up. Each case
// is stopped by the bench after DEADLINE_MS if the client would not stop by itself.
// Standalone: npx tsx bench/limits.ts [node]
import { performance } from "node:perf_hooks";
import { clearInterval, clearTimeout, setInterval, setTimeout } from "node:timers";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createAdapter, fetchTransport, loadNodeTransport, type ProviderName, type Transport } from "../src/providers";
import type { GenerateRequest } from "../src/core/types";
import { ProviderServer, type Scenario } from "../tests/support/providerServer";
import { countingTransport } from "../tests/support/countingTransport";
import { runStandalone } from "./stats";
import { baseUrlFor, CHAT_PATHS, endlessChunk, headersFor, JSON_HEADERS, SSE_HEADERS, streamFor } from "../tests/support/providerStreams";

const DEADLINE_MS = 5000;
const STALL_MS = 1000;

interface Case {
	name: string;
	provider: ProviderName;
	scenario: Scenario;
	call: "chat" | "models";
	path: string;
}

const big = (opening: string, repeat: string, extra: Scenario = {}): Scenario => ({ body: opening, chunkMin: 65536, chunkMax: 65536, endless: { repeat, intervalMs: 0 }, ...extra });

function errorPage(): string {
	const filler = '<div class="pad">&nbsp;</div>\n'.repeat(Math.ceil((2.5 * 1024 * 1024) / 30));
	return `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>${filler}</body></html>`;
}

const CASES: Case[] = [
	{ name: "endless SSE answer (OpenAI)", provider: "openai", call: "chat", path: CHAT_PATHS.openai, scenario: big(streamFor("openai", ["Once"], { noTerminator: true }), endlessChunk("openai").repeat(500), { headers: SSE_HEADERS }) },
	{ name: "endless NDJSON answer (Ollama)", provider: "ollama", call: "chat", path: CHAT_PATHS.ollama, scenario: big(streamFor("ollama", ["Once"], { noTerminator: true }), endlessChunk("ollama").repeat(500), { headers: headersFor("ollama") }) },
	{ name: "endless JSON body (model list)", provider: "openai", call: "models", path: "/v1/models", scenario: big('{"data":[', '{"id":"m"},'.repeat(6000), { headers: JSON_HEADERS }) },
	{ name: "HTTP 500, endless body", provider: "anthropic", call: "chat", path: CHAT_PATHS.anthropic, scenario: big("error: ", "x".repeat(65536), { status: 500, headers: { "content-type": "text/plain" } }) },
	{ name: "keep-alive comments only (SSE)", provider: "openai", call: "chat", path: CHAT_PATHS.openai, scenario: { headers: SSE_HEADERS, body: ": keepalive\n\n", endless: { repeat: ": keepalive\n\n", intervalMs: 10 } } },
	{ name: "2.5 MB HTML error page", provider: "openai", call: "chat", path: CHAT_PATHS.openai, scenario: { status: 502, headers: { "content-type": "text/html" }, body: errorPage(), chunkMin: 65536, chunkMax: 65536 } },
];

/** A full collection before each case, so its growth is its own. */
function collectGarbage(): void {
	setFlagsFromString("--expose-gc");
	(runInNewContext("gc") as () => void)();
}

/** JS heap plus buffers outside it (a body read with `response.text()` collects there). */
function memory(): number {
	const m = process.memoryUsage();
	return m.heapUsed + m.external;
}

const mb = (n: number): string => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(0)} KB`);

async function run(server: ProviderServer, base: Transport, c: Case): Promise<string> {
	server.reset();
	server.route(c.call === "chat" ? "POST" : "GET", c.path, c.scenario);
	const { transport, bytesRead: read } = countingTransport(base);
	const adapter = createAdapter({ provider: c.provider, baseUrl: baseUrlFor(c.provider, server.url), model: "m", transport, stallTimeoutMs: STALL_MS });
	const controller = new AbortController();
	const deadline = setTimeout(() => controller.abort(), DEADLINE_MS);
	collectGarbage();
	const heapBefore = memory();
	let peak = heapBefore;
	const sampler = setInterval(() => (peak = Math.max(peak, memory())), 20);
	const req: GenerateRequest = { purpose: "chat", messages: [{ role: "user", content: "hi" }], maxTokens: 512, contextWindow: 8192, signal: controller.signal };
	const started = performance.now();
	let outcome: string;
	try {
		await (c.call === "chat" ? adapter.generate(req) : adapter.listModels(controller.signal));
		outcome = "answered";
	} catch (err) {
		const e = err as { kind?: string; message?: string };
		outcome = controller.signal.aborted ? `still reading at ${DEADLINE_MS / 1000} s (stopped by the bench)` : `${e.kind ?? "error"}, message ${e.message?.length ?? 0} chars`;
	}
	const elapsed = performance.now() - started;
	clearTimeout(deadline);
	clearInterval(sampler);
	peak = Math.max(peak, memory());
	return `| ${c.name} | ${mb(read())} | ${mb(Math.max(0, peak - heapBefore))} | ${elapsed.toFixed(0)} ms | ${outcome} |`;
}

async function limitsTable(which: "fetch" | "node"): Promise<string> {
	const base = which === "node" ? await loadNodeTransport() : fetchTransport;
	const server = await ProviderServer.start();
	const lines = [
		`Limits, ${which} transport (answer maxTokens 512, stall limit ${STALL_MS} ms)`,
		"",
		"| Server sends | Read by client | Memory growth (peak heap + buffers) | Time to error | Outcome |",
		"| --- | --- | --- | --- | --- |",
	];
	try {
		for (const c of CASES) lines.push(await run(server, base, c));
	} finally {
		await server.close();
	}
	return lines.join("\n");
}

/** Both transports' tables; `npx tsx bench/limits.ts [node]` prints one. */
export async function runLimitsBench(): Promise<string> {
	return `${await limitsTable("fetch")}\n\n${await limitsTable("node")}`;
}

runStandalone(import.meta.url, () => limitsTable(process.argv.includes("node") ? "node" : "fetch"));
