// How much of each follow-up prompt a server's prefix cache can reuse. The window-use
// bench's seeded multilingual chats about a note larger than the window (bench/windowUse.ts), run
// against its simulated server counting in o200k and reporting usage. Every request is serialized
// as a chat template would (role marker, text, end marker per message, tool definitions first) and
// tokenized in o200k, message by message. A follow-up turn's reuse is the longest common token
// prefix of its chat request with the previous turn's chat request plus that request's answer,
// over the request's tokens. A second simulated server charges 2 ms per prompt token it has not
// cached (a 7B model on a laptop CPU) and keeps an LRU of the prefixes it has processed: its
// time to first token for a turn is the prompt time of every request the turn sent (summary
// requests and an overflow's retry included) before the answer's first word.
// Standalone: npx tsx bench/promptCache.ts [8k] [32k] [chats=N]
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { ChatService } from "../src/chat/ChatService";
import { TokenCalibration } from "../src/chat/calibration";
import type { GenerateRequest, GenerateResult, LLMAdapter, PromptMessage } from "../src/core/types";
import { MemoryFileStore } from "../src/sessions/memoryStore";
import { SessionManager } from "../src/sessions/SessionManager";
import { median, runStandalone } from "./stats";
import { SimulatedServer, TokenCounter } from "./windowServer";
import type { EarlierSources } from "../src/chat/promptSentSources";
import { chatScript, loadCorpus, RESERVED, TURNS, type ChatScript } from "./windowUse";

const WINDOWS = [8192, 32768] as const;
const DEFAULT_CHATS = 16;
const MODEL = "bench-model";
/** `headroom=0.25`: the share of the budget this turn's sources leave for later turns (the engine's default otherwise). */
export const BENCH_HEADROOM = ((v) => (v === undefined ? undefined : Number(v)))(process.argv.find((a) => a.startsWith("headroom="))?.slice("headroom=".length));
/** `earlier=keep|yield|drop|stable`: ChatServiceOptions.earlierSources (the engine's default otherwise). */
export const BENCH_EARLIER: EarlierSources | undefined = (["keep", "yield", "drop", "stable"] as const).find((p) => process.argv.includes(`earlier=${p}`));
/** `fresh=0.06`: ChatServiceOptions.sourcesFreshShare (the engine's default otherwise). */
export const BENCH_FRESH = ((v) => (v === undefined ? undefined : Number(v)))(process.argv.find((a) => a.startsWith("fresh="))?.slice("fresh=".length));
/** The simulated server's cost of one prompt token it has not cached. */
const MS_PER_UNCACHED_TOKEN = 2;
/**
 * The simulated server's cost of one token it writes (about 20 a second, the same laptop): a
 * summary request is written in full before the answer's first word, so its length counts.
 */
const MS_PER_SUMMARY_TOKEN = 50;
/** Window use is reported for turns from this one on (1-based), like the window-use bench's "after 5". */
const USE_FROM_TURN = 6;
/** How many processed prefixes the simulated server keeps (llama.cpp's server keeps one per slot). */
const LRU_SLOTS = 4;
/** Time to first token is reported for turns from this one on (1-based). */
const TTFT_FROM_TURN = 5;

/** Stable JSON: keys sorted, so the same definitions always serialize the same. */
function stableJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
	if (value !== null && typeof value === "object") {
		const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
		entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
	}
	return JSON.stringify(value);
}

const tokenMemo = new Map<string, number[]>();
function tokensOf(text: string): number[] {
	let t = tokenMemo.get(text);
	if (t === undefined) {
		t = encode(text);
		if (tokenMemo.size > 20_000) tokenMemo.clear();
		tokenMemo.set(text, t);
	}
	return t;
}

function messageText(m: PromptMessage): string {
	const extras: string[] = [];
	if (m.toolCalls !== undefined && m.toolCalls.length > 0) extras.push(stableJson(m.toolCalls));
	if (m.toolCallId !== undefined) extras.push(m.toolCallId);
	if (m.attachments !== undefined && m.attachments.length > 0) extras.push(stableJson(m.attachments));
	return `<${m.role}>\n${m.content}${extras.length > 0 ? `\n${extras.join("\n")}` : ""}</${m.role}>\n`;
}

/** A request's prompt as a template serializes it, one message at a time (so messages never merge tokens). */
export function serializedTokens(req: Pick<GenerateRequest, "messages" | "tools">, answer?: string): number[] {
	const out: number[] = [];
	if (req.tools !== undefined && req.tools.length > 0) out.push(...tokensOf(`<tools>\n${stableJson(req.tools)}</tools>\n`));
	for (const m of req.messages) out.push(...tokensOf(messageText(m)));
	if (answer !== undefined) out.push(...tokensOf(messageText({ role: "assistant", content: answer })));
	return out;
}

function commonPrefix(a: readonly number[], b: readonly number[]): number {
	const n = Math.min(a.length, b.length);
	let i = 0;
	while (i < n && a[i] === b[i]) i++;
	return i;
}

/** A server that keeps the last LRU_SLOTS processed prefixes and charges for the tokens past the longest match. */
class PrefixCacheServer {
	private readonly slots: number[][] = [];
	/** Prompt time in ms for `prompt`; then remembers `processed` (the prompt plus its answer). */
	serve(prompt: readonly number[], processed: number[]): number {
		let best = 0;
		let bestSlot = -1;
		for (const [i, slot] of this.slots.entries()) {
			const n = commonPrefix(slot, prompt);
			if (n > best) [best, bestSlot] = [n, i];
		}
		// The slot whose prefix was reused is overwritten (as a server's slot is); otherwise the least recently used goes.
		if (bestSlot >= 0) this.slots.splice(bestSlot, 1);
		this.slots.unshift(processed);
		if (this.slots.length > LRU_SLOTS) this.slots.pop();
		return (prompt.length - best) * MS_PER_UNCACHED_TOKEN;
	}
}

interface Served {
	purpose: GenerateRequest["purpose"];
	request: Pick<GenerateRequest, "messages" | "tools">;
	answer?: string;
}

/** Records every request and its answer on the way to the window-use bench's server. */
class RecordingAdapter implements LLMAdapter {
	readonly served: Served[] = [];
	constructor(private readonly inner: LLMAdapter) {}
	async generate(req: GenerateRequest): Promise<GenerateResult> {
		const entry: Served = { purpose: req.purpose, request: { messages: structuredClone(req.messages), tools: req.tools === undefined ? undefined : structuredClone(req.tools) } };
		this.served.push(entry);
		const result = await this.inner.generate(req);
		entry.answer = result.text;
		return result;
	}
}

export interface TurnReuse {
	/** 1-based. */
	turn: number;
	promptTokens: number;
	reused: number;
	summaryRequested: boolean;
	/** The earlier turns' sources were shed (ChatEvent "sourcesShed"): the sources' compaction. */
	sourcesShed: boolean;
	ttftMs: number;
	/** (The server's count of the chat request answered + the answer's reserve) ÷ window. */
	use?: number;
}

interface ChatRun {
	turns: TurnReuse[];
	requests: number;
	over: number;
	failed: number;
}

/** The needle: a last section of the note, asked about on turn NEEDLE_TURN (its words appear nowhere else). */
const NEEDLE_SECTION = "\n\n## The last section\n\nThe spare key to the boathouse hangs behind the barometer in the hallway.\n";
const NEEDLE_QUESTION = "Where is the spare key to the boathouse?";
const NEEDLE_ANSWER = "behind the barometer";
const NEEDLE_TURN = 6;

/**
 * The context bench's needle check, in a chat: the note with the needle section at its end, the
 * chat's own questions, then on turn NEEDLE_TURN the needle's question. True when that turn's
 * chat request carried the needle (from this turn's sources or an earlier turn's kept as sent).
 */
async function needleChat(script: ChatScript, counter: TokenCounter, window: number, calibration: TokenCalibration, policy: EarlierSources | undefined): Promise<boolean> {
	const sim = new SimulatedServer({ counter, tokenizer: "o200k", window, reportsUsage: true, answer: (n) => script.answers[n % script.answers.length] ?? "", summary: () => "Summary." });
	const adapter = new RecordingAdapter(sim);
	const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
	const chat = new ChatService({ adapter, sessions, model: MODEL, calibration, settings: { maxPromptTokens: window, reservedResponseTokens: RESERVED }, sourcesHeadroomShare: BENCH_HEADROOM, sourcesFreshShare: BENCH_FRESH, earlierSources: policy });
	const note = script.note + NEEDLE_SECTION;
	for (let t = 1; t <= NEEDLE_TURN; t++) {
		const before = adapter.served.length;
		await chat.sendMessage(t === NEEDLE_TURN ? NEEDLE_QUESTION : (script.questions[t - 1] ?? "?"), { context: note, contextName: "Note" }).catch(() => undefined);
		if (t < NEEDLE_TURN) continue;
		const last = adapter.served.slice(before).filter((x) => x.purpose === "chat").pop();
		return last !== undefined && last.request.messages.some((m) => m.content.includes(NEEDLE_ANSWER));
	}
	return false;
}

/** The turns of one chat: each chat request's reuse of the previous turn's, and the simulated time to first token. */
async function runChat(script: ChatScript, counter: TokenCounter, window: number, calibration: TokenCalibration, policy: EarlierSources | undefined): Promise<ChatRun> {
	const sim = new SimulatedServer({
		counter,
		tokenizer: "o200k",
		window,
		reportsUsage: true,
		answer: (n) => script.answers[n % script.answers.length] ?? "",
		summary: (req) => {
			const text = req.messages[req.messages.length - 1]?.content ?? "";
			return text.slice(0, Math.floor(req.maxTokens * 0.7 * 3));
		},
	});
	const adapter = new RecordingAdapter(sim);
	const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
	let shed = false;
	const chat = new ChatService({ adapter, sessions, model: MODEL, calibration, settings: { maxPromptTokens: window, reservedResponseTokens: RESERVED },
		sourcesHeadroomShare: BENCH_HEADROOM, sourcesFreshShare: BENCH_FRESH, earlierSources: policy, onEvent: (e) => {
			if (e.type === "sourcesShed") shed = true;
		} });
	const server = new PrefixCacheServer();
	const run: ChatRun = { turns: [], requests: 0, over: 0, failed: 0 };
	let previous: number[] | undefined;
	for (let t = 0; t < TURNS; t++) {
		const before = adapter.served.length;
		const simBefore = sim.served.length;
		shed = false;
		try {
			await chat.sendMessage(script.questions[t] ?? "?", { context: script.note, contextName: "Note" });
		} catch {
			run.failed++;
		}
		const served = adapter.served.slice(before);
		const counted = sim.served.slice(simBefore);
		run.requests += counted.length;
		run.over += counted.filter((r) => r.overflowed).length;
		let ttftMs = 0;
		for (const s of served) {
			const prompt = serializedTokens(s.request);
			ttftMs += server.serve(prompt, s.answer === undefined ? prompt : serializedTokens(s.request, s.answer));
			if (s.purpose === "summary" && s.answer !== undefined) ttftMs += tokensOf(s.answer).length * MS_PER_SUMMARY_TOKEN;
		}
		const chats = served.filter((s) => s.purpose === "chat" && s.answer !== undefined);
		const last = chats[chats.length - 1];
		if (last === undefined) continue;
		const answered = counted.filter((r) => r.purpose === "chat" && !r.overflowed).pop();
		const use = answered === undefined ? undefined : (answered.promptTokens + answered.maxTokens) / window;
		const prompt = serializedTokens(last.request);
		const reused = previous === undefined ? 0 : commonPrefix(previous, prompt);
		run.turns.push({ turn: t + 1, promptTokens: prompt.length, reused, summaryRequested: served.some((s) => s.purpose === "summary"), sourcesShed: shed, ttftMs, use });
		previous = serializedTokens(last.request, last.answer);
	}
	return run;
}

export interface CacheRow {
	/** The engine's policy for earlier sources (undefined: its default). */
	policy: EarlierSources | undefined;
	window: number;
	reuseAll: number;
	reuseNoSummary: number;
	/** Over follow-ups with neither a summary request nor the earlier sources shed. */
	reuseNoCompaction: number;
	/** Follow-ups whose earlier sources were shed. */
	withShed: number;
	followUps: number;
	withSummary: number;
	ttftMedian: number;
	ttftP95: number;
	/** Median window use from turn USE_FROM_TURN on (the note is always cut: every turn leaves some out). */
	useMedian: number;
	/** Its 10th percentile. */
	useP10: number;
	requests: number;
	over: number;
	failed: number;
	/** Chats whose needle question's request carried the needle. */
	needles: number;
}

const share = (turns: readonly TurnReuse[]): number => turns.reduce((a, t) => a + t.reused, 0) / Math.max(1, turns.reduce((a, t) => a + t.promptTokens, 0));
const quantile = (values: readonly number[], q: number): number => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
};

export async function measurePromptCache(windows: readonly number[], chats: number, policy: EarlierSources | undefined = BENCH_EARLIER): Promise<CacheRow[]> {
	const corpus = loadCorpus();
	const counter = new TokenCounter(corpus);
	const rows: CacheRow[] = [];
	for (const window of windows) {
		const calibration = new TokenCalibration();
		const runs: ChatRun[] = [];
		for (let seed = 1; seed <= chats; seed++) runs.push(await runChat(chatScript(corpus, counter, seed, window), counter, window, calibration, policy));
		const all = runs.flatMap((r) => r.turns);
		const turns = all.filter((t) => t.turn > 1);
		const uses = all.filter((t) => t.turn >= USE_FROM_TURN && t.use !== undefined).map((t) => t.use!);
		let needles = 0;
		const needleCalibration = new TokenCalibration();
		for (let seed = 1; seed <= chats; seed++) if (await needleChat(chatScript(corpus, counter, seed, window), counter, window, needleCalibration, policy)) needles++;
		const late = turns.filter((t) => t.turn >= TTFT_FROM_TURN).map((t) => t.ttftMs);
		rows.push({
			policy,
			window,
			reuseAll: share(turns),
			reuseNoSummary: share(turns.filter((t) => !t.summaryRequested)),
			reuseNoCompaction: share(turns.filter((t) => !t.summaryRequested && !t.sourcesShed)),
			withShed: turns.filter((t) => t.sourcesShed).length,
			followUps: turns.length,
			withSummary: turns.filter((t) => t.summaryRequested).length,
			ttftMedian: median(late),
			ttftP95: quantile(late, 0.95),
			useMedian: median(uses),
			useP10: quantile(uses, 0.1),
			requests: runs.reduce((a, r) => a + r.requests, 0),
			over: runs.reduce((a, r) => a + r.over, 0),
			failed: runs.reduce((a, r) => a + r.failed, 0),
			needles,
		});
	}
	return rows;
}

const pct = (n: number): string => `${(n * 100).toFixed(1)}%`;
const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** The layouts the plugin's "Prompt layout" setting picks from (settings/promptLayout.ts). */
const LAYOUTS: readonly { name: string; policy: EarlierSources }[] = [
	{ name: "Use the whole window (before; hosted servers)", policy: "yield" },
	{ name: "Answer faster (local servers)", policy: "stable" },
];

export async function runPromptCacheBench(windows: readonly number[] = WINDOWS, chats = DEFAULT_CHATS): Promise<string> {
	const layouts = BENCH_EARLIER === undefined ? LAYOUTS : [{ name: `earlier=${BENCH_EARLIER}`, policy: BENCH_EARLIER }];
	const rows: { name: string; row: CacheRow }[] = [];
	for (const layout of layouts) for (const row of await measurePromptCache(windows, chats, layout.policy)) rows.push({ name: layout.name, row });
	return [
		`Prompt reuse: ${chats} multilingual chats × ${TURNS} turns about a note larger than the window, usage reported (o200k). Reuse = tokens of a follow-up's chat request that are an exact prefix of the previous turn's request plus its answer, over all its tokens (pooled). "Without a compaction": neither a summary request nor the earlier turns' sources shed. Time to first token: a simulated server at ${MS_PER_UNCACHED_TOKEN} ms per uncached prompt token with an LRU of ${LRU_SLOTS} prefixes, turns ≥ ${TTFT_FROM_TURN}, summary requests and retries included. Needle: the context bench's needle (a last section of the note) asked about on turn ${NEEDLE_TURN} of a chat about the note; chats whose request carried it. A summary request's answer costs ${MS_PER_SUMMARY_TOKEN} ms a token. Window use: (server's count + reserve) ÷ window, turns ≥ ${USE_FROM_TURN}. Headroom ${BENCH_HEADROOM ?? "default"}, fresh ${BENCH_FRESH ?? "default"}.`,
		"",
		"| prompt layout | window | all follow-up turns | without a summary request | without a compaction | follow-ups (summary, sources shed) | TTFT median | TTFT p95 | window use median (p10) | over the window | needle found |",
		"|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
		...rows.map(({ name, row: r }) => `| ${name} | ${r.window / 1024}k | ${pct(r.reuseAll)} | ${pct(r.reuseNoSummary)} | ${pct(r.reuseNoCompaction)} | ${r.followUps} (${r.withSummary}, ${r.withShed}) | ${secs(r.ttftMedian)} | ${secs(r.ttftP95)} | ${r.useMedian.toFixed(3)} (${r.useP10.toFixed(3)}) | ${r.over} of ${r.requests}${r.failed > 0 ? `, ${r.failed} failed` : ""} | ${r.needles} of ${chats} |`),
	].join("\n");
}

const named = WINDOWS.filter((w) => process.argv.includes(`${w / 1024}k`));
const chatsArg = Number(process.argv.find((a) => a.startsWith("chats="))?.slice("chats=".length) ?? DEFAULT_CHATS);
runStandalone(import.meta.url, () => runPromptCacheBench(named.length > 0 ? named : WINDOWS, Number.isInteger(chatsArg) && chatsArg > 0 ? chatsArg : DEFAULT_CHATS));
