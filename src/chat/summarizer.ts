import { errorKind } from "../providers/errors";
import { abortedError, untilAborted } from "../core/abortable";
import { promptCost, type EstimateFn } from "./promptCost";
import { planContext } from "./contextTrim";
import { tailToTokens, truncateToTokens } from "./textFit";
import type { LLMAdapter, PromptMessage, Usage } from "../core/types";

/** The instruction of every conversation summary request. */
export const SUMMARY_INSTRUCTION =
	"Summarize the conversation so far for an assistant. Keep key facts, constraints, decisions, action items, and unresolved questions. Write the summary in the language the conversation is held in. Be concise. Do not invent details.";

/** The instruction for shortening one message that is too long to send as it is. */
export const CONDENSE_INSTRUCTION =
	"Condense the following message for an assistant. Keep its key facts, requests, constraints, code and conclusions, in the message's own language. Be concise. Do not invent details.";

export const PREVIOUS_SUMMARY_PREFIX = "Previous summary: ";

const ENTRY_SEPARATOR = "\n\n";

const OLDEST_SHORTENED = "(Automatic shortening of the oldest part, too long to summarize in one go.)";

/**
 * A summary of a block too big for one request is built by rolling through pieces, each request
 * carrying the summary so far. At most this many requests per summary: beyond it, the oldest
 * pieces are shortened without the model, so a huge block costs bounded time.
 */
export const MAX_SUMMARY_REQUESTS = 8;

/**
 * At most this many requests per Summarizer, i.e. per compaction, however many summaries it makes
 * (the older block, each condensed message, a last resort): a turn waits a bounded time.
 */
export const MAX_COMPACTION_REQUESTS = 3 * MAX_SUMMARY_REQUESTS;

/** Below this many tokens of room per piece, a request would carry too little to be worth sending. */
const MIN_PIECE_TOKENS = 48;

export interface SummarizerOptions {
	adapter: LLMAdapter;
	estimate: EstimateFn;
	/** The model's window, sent as `contextWindow`. */
	contextWindow: number;
	/** Estimated tokens a summary request's prompt may take (already within the safety margin). */
	requestBudget: number;
	signal?: AbortSignal;
	/** Called once, before the first request goes out. */
	onFirstRequest?: () => void;
	/** Requests this summarizer may send in all (default MAX_COMPACTION_REQUESTS). */
	maxRequests?: number;
	/**
	 * Each request the model answered, with what it cost (the server's usage, the engine's
	 * estimates): the turn's answer carries them. A request that failed or was stopped is not
	 * reported: its answer is unknown, and a refused or failed request is generally not billed.
	 */
	onAnswered?: (cost: SummaryRequestCost) => void;
}

/** What one answered summary request cost. */
export interface SummaryRequestCost {
	usage: Usage | undefined;
	estimatedPrompt: number;
	estimatedAnswer: number;
}

export interface SummaryOutcome {
	text: string;
	/** The model could not summarize (offline, error): `text` is a naive shortening. */
	fallback: boolean;
}

export function roleLabel(role: string): string {
	return role === "assistant" ? "Assistant" : role === "system" ? "System" : role === "tool" ? "Tool result" : "User";
}

/** A message as a line of the transcript handed to the summarizer (with its tool calls, if any). */
export function transcriptEntry(message: PromptMessage): string {
	const calls = (message.toolCalls ?? []).map((c) => `[called ${c.name} ${JSON.stringify(c.arguments)}]`);
	const label = message.role === "tool" && message.name !== undefined ? `${roleLabel(message.role)} (${message.name})` : roleLabel(message.role);
	return `${label}: ${[message.content, ...calls].filter((p) => p !== "").join("\n")}`;
}

export function isAbort(err: unknown, signal: AbortSignal | undefined): boolean {
	return signal?.aborted === true || errorKind(err) === "aborted" || (err instanceof Error && err.name === "AbortError");
}

/**
 * The deterministic stand-in when the model cannot summarize: the start of the previous summary
 * and the end of the transcript (the newest part matters most), within `maxTokens`.
 */
export function naiveSummary(
	previous: string | undefined,
	transcript: string,
	maxTokens: number,
	estimate: EstimateFn,
	header = "(Automatic shortening; the summarizer was unavailable.)",
): string {
	let room = maxTokens - estimate(header) - 2;
	if (room <= 0) return truncateToTokens(header, maxTokens, estimate);
	const parts = [header];
	if (previous !== undefined && previous.trim() !== "") {
		const prev = truncateToTokens(previous.trim(), Math.floor(room / 3), estimate);
		if (prev !== "") {
			parts.push(prev);
			room -= estimate(prev) + 2;
		}
	}
	const tail = transcript.trim() === "" ? "" : tailToTokens(transcript.trim(), room, estimate);
	if (tail !== "") parts.push(tail);
	return truncateToTokens(parts.join("\n\n"), maxTokens, estimate);
}

/**
 * The longest start of `text` from `start` within `limit` tokens: at a line boundary when one
 * fits (prefix sums pick the candidate, a binary search over boundaries confirms it, since the
 * estimator is not exactly additive), else a halved run of characters.
 */
function fittingCut(text: string, start: number, limit: number, estimate: EstimateFn): number {
	const plan = planContext(text.slice(start), estimate, limit);
	const fits = (len: number): boolean => estimate(text.slice(start, start + len)) <= limit;
	let hi = 0;
	while (hi < plan.prefix.length && (plan.prefix[hi] ?? Infinity) <= limit) hi++;
	let lo = 1;
	let best = 0;
	while (lo <= hi) {
		const mid = (lo + hi) >>> 1;
		if (fits(plan.ends[mid - 1] ?? 0)) {
			best = plan.ends[mid - 1] ?? 0;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	if (best > 0) return best;
	// Not even one line fits (a tiny window, or a line of base64): halve until it does.
	let take = Math.max(1, plan.ends[0] ?? text.length - start);
	while (take > 1 && !fits(take)) take = Math.ceil(take / 2);
	const code = text.charCodeAt(start + take - 1);
	if (take > 1 && code >= 0xd800 && code <= 0xdbff) take--;
	return take;
}

/** Cuts texts into pieces of at most `limit` estimated tokens, cutting inside an entry only when it alone is too big. */
export function packPieces(entries: readonly string[], limit: number, estimate: EstimateFn): string[] {
	const pieces: string[] = [];
	let current: string[] = [];
	let currentTokens = 0;
	// Sums of entry estimates pick the packing; the joined piece is checked, and split in halves
	// if the estimator counts the whole higher than its parts.
	const emit = (group: string[]): void => {
		const joined = group.join(ENTRY_SEPARATOR);
		if (group.length > 1 && estimate(joined) > limit) {
			const half = group.length >>> 1;
			emit(group.slice(0, half));
			emit(group.slice(half));
		} else {
			pieces.push(joined);
		}
	};
	const flush = (): void => {
		if (current.length > 0) emit(current);
		current = [];
		currentTokens = 0;
	};
	const add = (text: string, tokens: number): void => {
		if (currentTokens + tokens + 1 > limit) flush();
		current.push(text);
		currentTokens += tokens + 1;
	};
	for (const entry of entries) {
		const tokens = estimate(entry);
		if (tokens <= limit) {
			add(entry, tokens);
			continue;
		}
		for (let start = 0; start < entry.length; ) {
			const take = fittingCut(entry, start, limit, estimate);
			const chunk = entry.slice(start, start + take);
			add(chunk, estimate(chunk));
			start += take;
		}
	}
	flush();
	return pieces;
}

/** Sends summary requests sized to fit the window and falls back to a naive summary on failure. */
export class Summarizer {
	/** Requests sent so far. */
	requests = 0;
	private started = false;
	/** A request failed: later ones in this compaction would too (offline), so go without the model. */
	private failed = false;

	constructor(private readonly opts: SummarizerOptions) {}

	/**
	 * A summary of `entries` (transcript lines, oldest first) continuing `previous`, at most
	 * `maxTokens` long. Rethrows only an abort; every other failure yields a naive summary.
	 */
	async summarize(previous: string | undefined, entries: readonly string[], maxTokens: number, instruction = SUMMARY_INSTRUCTION): Promise<SummaryOutcome> {
		const { estimate } = this.opts;
		const prev = previous !== undefined && previous.trim() !== "" ? truncateToTokens(previous.trim(), maxTokens, estimate) : undefined;
		const frame =
			promptCost([{ role: "system", content: instruction }, { role: "user", content: "" }], estimate) +
			estimate(PREVIOUS_SUMMARY_PREFIX) +
			maxTokens +
			4;
		const pieceLimit = this.opts.requestBudget - frame;
		if (entries.length === 0) return { text: prev ?? "", fallback: false };
		if (this.failed || pieceLimit < MIN_PIECE_TOKENS) {
			return { text: naiveSummary(prev, entries.join("\n\n"), maxTokens, estimate), fallback: true };
		}
		let pieces = packPieces(entries, pieceLimit, estimate);
		let summary = prev;
		const allowed = Math.max(0, Math.min(MAX_SUMMARY_REQUESTS, (this.opts.maxRequests ?? MAX_COMPACTION_REQUESTS) - this.requests));
		if (pieces.length > allowed) {
			// Too much to send in bounded time: the oldest part is shortened without the model.
			const oldest = pieces.slice(0, pieces.length - allowed);
			summary = naiveSummary(summary, oldest.join("\n\n"), maxTokens, estimate, OLDEST_SHORTENED);
			pieces = pieces.slice(pieces.length - allowed);
		}
		for (let i = 0; i < pieces.length; i++) {
			const piece = pieces[i] ?? "";
			try {
				summary = await this.request(summary, piece, maxTokens, instruction);
			} catch (err) {
				if (isAbort(err, this.opts.signal)) throw err;
				this.failed = true;
				// Offline or failing: don't keep knocking; shorten the rest without the model.
				return { text: naiveSummary(summary, pieces.slice(i).join("\n\n"), maxTokens, estimate), fallback: true };
			}
		}
		return { text: summary ?? "", fallback: false };
	}

	private async request(previous: string | undefined, piece: string, maxTokens: number, instruction: string): Promise<string> {
		if (!this.started) {
			this.started = true;
			this.opts.onFirstRequest?.();
		}
		const lead = previous !== undefined ? `${PREVIOUS_SUMMARY_PREFIX}${previous}\n\n` : "";
		let content = lead + piece;
		const over = promptCost([{ role: "system", content: instruction }, { role: "user", content }], this.opts.estimate) - this.opts.requestBudget;
		// Estimates are not exactly additive over pieces; never let a request outgrow the window.
		if (over > 0) content = lead + truncateToTokens(piece, Math.max(1, this.opts.estimate(piece) - over - 2), this.opts.estimate);
		// Stopped while an earlier request was out: send nothing more.
		if (this.opts.signal?.aborted === true) throw abortedError();
		this.requests++;
		const messages: PromptMessage[] = [
			{ role: "system", content: instruction },
			{ role: "user", content },
		];
		const request = this.opts.adapter.generate({
			purpose: "summary",
			messages,
			maxTokens,
			contextWindow: this.opts.contextWindow,
			signal: this.opts.signal,
		});
		const result: unknown = await untilAborted(request, this.opts.signal);
		const answer = typeof result === "object" && result !== null ? (result as { text?: unknown }).text : undefined;
		if (typeof answer !== "string") throw new Error("The summarizer returned no text.");
		// Answered, so billed (even an empty or overlong summary): counted before it is judged.
		this.opts.onAnswered?.({ usage: usageOf(result), estimatedPrompt: promptCost(messages, this.opts.estimate), estimatedAnswer: this.opts.estimate(answer) });
		const text = answer.trim();
		if (text === "") throw new Error("The summarizer returned nothing.");
		// A model may overshoot maxTokens by our estimate; the next request and the prompt rely on the bound.
		return truncateToTokens(text, maxTokens, this.opts.estimate);
	}
}

/** The usage of an adapter's result, when it is one (adapters of other makers may return less). */
function usageOf(result: unknown): Usage | undefined {
	const usage = typeof result === "object" && result !== null ? (result as { usage?: unknown }).usage : undefined;
	return typeof usage === "object" && usage !== null ? usage : undefined;
}
