// The server's own count of a prompt, asked before the first send of a model the calibration has
// never seen: llama.cpp answers `POST {chat url}/input_tokens` (its OpenAI-compatible dialect) and
// `POST /v1/messages/count_tokens` (its Anthropic dialect, as Anthropic's API does) with
// `{"input_tokens": N}`, the same count the answer's usage would report. The request is the chat
// request's own address and headers with a path added, through the same transport: it goes to the
// host the person configured and nowhere else. Bounded in time; a server that cannot count (Ollama,
// the OpenAI API, vLLM: 404) is skipped silently, and remembered per address and model.
import { isRecord } from "./answer";
import type { HttpCall } from "./dialect";
import { LLMError } from "./errors";
import { requestJson, type RequestContext } from "./request";
import { startTimer, stopTimer } from "../core/timers";
import type { ProviderName } from "./types";

/** A count that takes longer is not worth the wait before the first token: the send goes without it. */
export const COUNT_TIME_LIMIT_MS = 300;
/** Addresses remembered as unable to count; the oldest is forgotten first. */
const MAX_REMEMBERED = 64;
/** The fields Anthropic's count_tokens accepts (it refuses others, max_tokens and stream among them). */
const ANTHROPIC_COUNT_FIELDS = ["model", "messages", "system", "tools", "tool_choice", "thinking"];

/** Count addresses (with the model) that answered with an error or nothing usable. */
const cannotCount = new Set<string>();

/**
 * The count request for `chat` (the dialect's chat call for the same prompt), or undefined where the
 * provider has no count endpoint (Ollama's own API).
 */
export function countCallOf(provider: ProviderName, chat: HttpCall): HttpCall | undefined {
	const headers = { ...chat.headers, accept: "application/json" };
	if (provider === "openai") return { url: `${chat.url}/input_tokens`, headers, body: chat.body };
	if (provider !== "anthropic") return undefined;
	const body = JSON.parse(chat.body) as Record<string, unknown>;
	return { url: `${chat.url}/count_tokens`, headers, body: JSON.stringify(Object.fromEntries(ANTHROPIC_COUNT_FIELDS.filter((k) => k in body).map((k) => [k, body[k]]))) };
}

/** `{"input_tokens": N}` → N; undefined for anything else. */
export function readInputTokens(body: unknown): number | undefined {
	const n = isRecord(body) ? body.input_tokens : undefined;
	return typeof n === "number" && Number.isInteger(n) && n > 0 && n < 1e8 ? n : undefined;
}

/**
 * The server's count of the prompt `chat` would send, within COUNT_TIME_LIMIT_MS; undefined when the
 * provider or server cannot count, is slow, fails, or `signal` stops it. Never throws.
 */
export async function countPromptTokens(ctx: RequestContext, chat: HttpCall, signal?: AbortSignal, limitMs = COUNT_TIME_LIMIT_MS): Promise<number | undefined> {
	const call = countCallOf(ctx.provider, chat);
	if (call === undefined || signal?.aborted === true) return undefined;
	const key = `${call.url}\u0000${ctx.model}`;
	if (cannotCount.has(key)) return undefined;
	const limit = new AbortController();
	const stop = (): void => limit.abort();
	signal?.addEventListener("abort", stop, { once: true });
	const timer = startTimer(stop, limitMs);
	try {
		const body = await requestJson({ ...ctx, firstByteTimeoutMs: limitMs, stallTimeoutMs: limitMs }, { url: call.url, method: "POST", headers: call.headers, body: call.body, signal: limit.signal, maxBytes: 4096 });
		const tokens = readInputTokens(body);
		if (tokens === undefined) remember(key);
		return tokens;
	} catch (err) {
		// Out of time or stopped: maybe next time. An error the server answered with: not this address.
		if (!limit.signal.aborted && !(err instanceof LLMError && err.kind === "network")) remember(key);
		return undefined;
	} finally {
		stopTimer(timer);
		signal?.removeEventListener("abort", stop);
	}
}

function remember(key: string): void {
	cannotCount.add(key);
	for (const old of cannotCount) {
		if (cannotCount.size <= MAX_REMEMBERED) break;
		cannotCount.delete(old);
	}
}

/** For tests: forget every address remembered as unable to count. */
export function forgetCountFailures(): void {
	cannotCount.clear();
}
