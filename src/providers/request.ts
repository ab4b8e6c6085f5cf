import { LLMError } from "./errors";
import { classifyHttpError, type ErrorContext } from "./classify";
import { describeSize, MAX_BODY_BYTES, readLimitedText } from "./limits";
import { redactParams, redactSecret } from "./redact";
import { isRedirect, redirectError } from "./redirect";
import { startTimer, stopTimer, type TimerHandle } from "../core/timers";
import type { Transport } from "./transport";
import { PROVIDER_LABELS, providerSubject } from "./types";

export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 60_000;
export const DEFAULT_STALL_TIMEOUT_MS = 60_000;

export interface RequestContext extends ErrorContext {
	transport: Transport;
	apiKey?: string;
	firstByteTimeoutMs: number;
	stallTimeoutMs: number;
	/** Requests come from the app, where a refused origin looks like an unreachable server. */
	fromApp?: boolean;
	/** The configured base URL, to suggest an address when a server redirects. */
	baseUrl?: string;
}

export interface StreamingRequest {
	url: string;
	method: "GET" | "POST";
	headers: Record<string, string>;
	body?: string;
	signal?: AbortSignal;
	/** Sees an OK response before its body is read (a dialect checks its content type). */
	onResponse?: (response: Response) => void;
	/** Receives decoded text as it arrives; a multibyte character split across chunks comes out whole. */
	onText: (text: string) => void;
	/** A body longer than this is a `protocol` error, and the rest is not read. Unlimited when absent. */
	maxBytes?: number;
	/**
	 * How much real progress the body has made (answer text, thinking, the end): the stall limit
	 * restarts only when it grows, so keep-alive comments cannot hold a dead answer open. When
	 * absent, every byte counts.
	 */
	progress?: () => number;
}

function seconds(ms: number): string {
	return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function describeCause(err: unknown): string {
	if (!(err instanceof Error)) return String(err);
	const cause = (err as { cause?: unknown }).cause;
	const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined;
	const inner = cause instanceof Error ? cause.message : undefined;
	const parts = [err.message];
	if (inner && !parts.includes(inner)) parts.push(inner);
	if (code && !parts.some((p) => p.includes(code))) parts.push(code);
	return parts.join(": ");
}

/** Makes sure no error leaving an adapter carries the API key, in its message or anywhere else. */
export function scrubError(err: unknown, ctx: { apiKey?: string; provider: string }): LLMError {
	if (err instanceof LLMError) {
		const message = redactSecret(err.message, ctx.apiKey);
		const partialText = err.partialText === undefined ? undefined : redactSecret(err.partialText, ctx.apiKey);
		// The server's words travel apart from the message too (for "Details"): the key leaves both.
		const said = err.said === undefined ? undefined : redactSecret(err.said, ctx.apiKey);
		const params = redactParams(err.params, ctx.apiKey);
		if (message === err.message && partialText === err.partialText && said === err.said && params === err.params) return err;
		return new LLMError(err.kind, message, {
			status: err.status,
			retryAfterMs: err.retryAfterMs,
			provider: err.provider,
			partialText,
			overflow: err.overflow,
			toolsUnsupported: err.toolsUnsupported,
			imagesUnsupported: err.imagesUnsupported,
			code: err.code,
			params,
			said,
		});
	}
	return new LLMError("protocol", redactSecret(`Unexpected failure: ${describeCause(err)}`, ctx.apiKey), { provider: ctx.provider });
}

/**
 * Sends one request and pumps its body through `onText`, enforcing the first-byte and stall time
 * limits and the caller's `signal`. Resolves when the body ends; everything else is an LLMError
 * (`aborted`, `network`, or the server's classified HTTP error). No retries.
 */
export async function streamRequest(ctx: RequestContext, req: StreamingRequest): Promise<void> {
	const { signal } = req;
	const label = PROVIDER_LABELS[ctx.provider];
	const subject = providerSubject(ctx.provider);
	if (signal?.aborted) throw new LLMError("aborted", "Stopped.", { provider: ctx.provider });

	const controller = new AbortController();
	let timedOut: string | undefined;
	let timer: TimerHandle;
	let rejectAbort: (err: LLMError) => void = () => undefined;
	// Settles the moment the caller stops or a time limit passes, whatever the transport is doing.
	const aborted = new Promise<never>((_, reject) => {
		rejectAbort = reject;
	});
	aborted.catch(() => undefined);
	const stop = (reason: LLMError): void => {
		if (reason.kind === "network") timedOut = reason.message;
		rejectAbort(reason);
		controller.abort();
	};
	const onAbort = (): void => stop(new LLMError("aborted", "Stopped.", { provider: ctx.provider }));
	signal?.addEventListener("abort", onAbort, { once: true });
	const arm = (ms: number, message: string): void => {
		stopTimer(timer);
		timer = startTimer(() => stop(new LLMError("network", message, { provider: ctx.provider })), ms);
	};
	arm(ctx.firstByteTimeoutMs, `${subject} sent nothing for ${seconds(ctx.firstByteTimeoutMs)}. It may still be loading the model, or it is not answering; try again.`);
	const stallMessage = `${subject} stopped sending mid-answer for ${seconds(ctx.stallTimeoutMs)}; the answer is incomplete.`;
	const idleMessage = `${subject} kept the connection open but sent no answer for ${seconds(ctx.stallTimeoutMs)}. It may be stuck or still loading the model; try again.`;
	const race = <T>(p: Promise<T>): Promise<T> => Promise.race([p, aborted]);

	let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
	try {
		let response: Response;
		try {
			response = await Promise.race([ctx.transport(req.url, { method: req.method, headers: req.headers, body: req.body, signal: controller.signal }), aborted]);
		} catch (err) {
			if (err instanceof LLMError) throw err;
			const originHint = ctx.fromApp && !ctx.sendsNoOrigin ? " If it is, it may be refusing requests from Obsidian; the connection test in settings tells which, and how to fix it." : "";
			throw new LLMError("network", `Could not reach ${label} at ${ctx.origin}: ${describeCause(err)}. Is the server running?${originHint}`, { provider: ctx.provider });
		}
		if (isRedirect(response)) {
			response.body?.cancel().catch(() => undefined);
			throw redirectError(ctx, req.url, response);
		}
		if (!response.ok) {
			// Only the start of an error body can matter, and an endless one must not be read whole.
			const text = await readLimitedText(response, MAX_BODY_BYTES, race).catch((err: unknown) => {
				if (err instanceof LLMError) throw err;
				return "";
			});
			throw classifyHttpError(ctx, response.status, text, response.headers);
		}
		if (/text\/html/i.test(response.headers.get("content-type") ?? "")) {
			// A web page where an API should be: usually a base URL missing its API path.
			throw new LLMError("protocol", `${ctx.origin} answered with a web page, not ${label}'s API. Check the base URL${ctx.provider === "openai" ? " (for OpenAI-compatible servers it ends in /v1)" : ""}.`, { provider: ctx.provider });
		}
		req.onResponse?.(response);
		if (!response.body) throw new LLMError("protocol", `${subject} answered without a body.`, { provider: ctx.provider });
		reader = response.body.getReader();
		const decoder = new TextDecoder("utf-8");
		let first = true;
		let received = 0;
		let progress = req.progress?.() ?? 0;
		for (;;) {
			let chunk: ReadableStreamReadResult<Uint8Array>;
			try {
				chunk = await Promise.race([reader.read(), aborted]);
			} catch (err) {
				if (err instanceof LLMError) throw err;
				throw new LLMError("network", `The connection to ${label} broke mid-answer (${describeCause(err)}); the answer is incomplete.`, { provider: ctx.provider });
			}
			if (chunk.done) break;
			received += chunk.value.byteLength;
			if (req.maxBytes !== undefined && received > req.maxBytes) {
				throw new LLMError("protocol", `${subject} sent more than ${describeSize(req.maxBytes)} where a short reply was expected, so the rest was not read. Check the base URL.`, { provider: ctx.provider });
			}
			const text = decoder.decode(chunk.value, { stream: true });
			if (text) req.onText(text);
			// From the first byte on, the limit is the gap between steps of progress (or bytes).
			const now = req.progress ? req.progress() : received;
			if (first || now > progress) arm(ctx.stallTimeoutMs, now > 0 || !req.progress ? stallMessage : idleMessage);
			first = false;
			progress = now;
		}
		const tail = decoder.decode();
		if (tail) req.onText(tail);
		reader = undefined;
	} catch (err) {
		// Whatever failed, close the connection so the server stops generating.
		controller.abort();
		if (signal?.aborted) throw new LLMError("aborted", "Stopped.", { provider: ctx.provider });
		if (timedOut !== undefined) throw new LLMError("network", timedOut, { provider: ctx.provider });
		throw err;
	} finally {
		stopTimer(timer);
		signal?.removeEventListener("abort", onAbort);
		if (reader) reader.cancel().catch(() => undefined);
	}
}

/**
 * A small JSON request (model lists, model details), under the same limits as a stream; its body is
 * read up to `maxBytes` (64 KB unless the caller expects more).
 */
export async function requestJson(ctx: RequestContext, req: Omit<StreamingRequest, "onText">): Promise<unknown> {
	let text = "";
	await streamRequest(ctx, { maxBytes: MAX_BODY_BYTES, ...req, onText: (t) => (text += t) });
	try {
		return JSON.parse(text) as unknown;
	} catch {
		throw new LLMError("protocol", `${providerSubject(ctx.provider)} answered with something that is not JSON.`, { provider: ctx.provider });
	}
}
