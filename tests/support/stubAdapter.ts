import type { GenerateRequest, GenerateResult, LLMAdapter, LLMErrorKind, Usage } from "../../src/core/types";
import { LLMError } from "../../src/providers/errors";

/** A request as the stub saw it (messages copied, so later mutation cannot rewrite history). */
export interface RecordedRequest {
	purpose: GenerateRequest["purpose"];
	messages: { role: string; content: string }[];
	maxTokens: number;
	contextWindow: number;
}

export interface StubAdapterOptions {
	/** The chat answer: fixed text, or computed from the request. Default: "Answer N." */
	reply?: string | ((req: GenerateRequest, index: number) => string);
	/** Characters per streamed piece. Default 4. */
	chunkSize?: number;
	/** Summary answers; default: a short deterministic digest of the request. */
	summary?: (req: GenerateRequest) => string;
	/** Summary requests fail (like an offline server) this many times; `true` for always. */
	failSummaries?: boolean | number;
	/** Chat requests throw `context_overflow` this many times before answering. */
	overflowTimes?: number;
	/** Chat requests fail with this kind (after any overflows). */
	failChatWith?: LLMErrorKind;
	/** Chat answers stream this text, then fail with `failChatWith` (default "server"). */
	failAfter?: string;
	/** Chat answers stream this text, then hang until aborted. */
	hangAfter?: string;
	/** Answer without yielding to the event loop between pieces (benchmarks: no delay at all). */
	noDelay?: boolean;
	/** What to report as usage for a chat request. */
	usage?: (req: GenerateRequest) => Usage | undefined;
}

function abortError(): LLMError {
	return new LLMError("aborted", "The request was stopped.");
}

/** Resolves on the next macrotask, so an abort fired in between is seen, like on a real stream. */
function tick(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}

/** A deterministic stand-in for a model's summary: short, and the same for the same request. */
export function digestSummary(req: GenerateRequest): string {
	const text = req.messages.map((m) => m.content).join("\n");
	let hash = 0;
	for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
	const lines = text.split("\n").filter((l) => l.trim() !== "").length;
	return `Summary ${(hash >>> 0).toString(36)} of ${lines} lines.`;
}

/** A scriptable LLMAdapter for tests: records requests, streams in pieces, fails on demand. */
export class StubAdapter implements LLMAdapter {
	readonly requests: RecordedRequest[] = [];
	private chatCount = 0;
	private overflowsLeft: number;
	private summaryFailuresLeft: number;

	constructor(private readonly opts: StubAdapterOptions = {}) {
		this.overflowsLeft = opts.overflowTimes ?? 0;
		this.summaryFailuresLeft = opts.failSummaries === true ? Infinity : opts.failSummaries === false ? 0 : (opts.failSummaries ?? 0);
	}

	get chatRequests(): RecordedRequest[] {
		return this.requests.filter((r) => r.purpose === "chat");
	}

	get summaryRequests(): RecordedRequest[] {
		return this.requests.filter((r) => r.purpose === "summary");
	}

	async generate(req: GenerateRequest): Promise<GenerateResult> {
		this.requests.push({
			purpose: req.purpose,
			messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
			maxTokens: req.maxTokens,
			contextWindow: req.contextWindow,
		});
		if (req.signal?.aborted) throw abortError();
		if (req.purpose === "summary") {
			if (this.summaryFailuresLeft > 0) {
				this.summaryFailuresLeft--;
				throw new LLMError("network", "Could not reach the server.");
			}
			if (this.opts.noDelay !== true) await tick();
			if (req.signal?.aborted) throw abortError();
			return { text: (this.opts.summary ?? digestSummary)(req) };
		}
		if (this.overflowsLeft > 0) {
			this.overflowsLeft--;
			throw new LLMError("context_overflow", "the prompt is longer than the context length");
		}
		if (this.opts.failChatWith !== undefined && this.opts.failAfter === undefined) throw new LLMError(this.opts.failChatWith, `Stub failure: ${this.opts.failChatWith}`);
		const index = this.chatCount++;
		const hang = this.opts.hangAfter;
		const reply = hang ?? this.opts.failAfter ?? (typeof this.opts.reply === "function" ? this.opts.reply(req, index) : (this.opts.reply ?? `Answer ${index + 1}.`));
		const size = Math.max(1, this.opts.chunkSize ?? 4);
		for (let i = 0; i < reply.length; i += size) {
			if (this.opts.noDelay !== true) await tick();
			if (req.signal?.aborted) throw abortError();
			req.onToken?.(reply.slice(i, i + size));
		}
		if (this.opts.failAfter !== undefined) {
			const kind = this.opts.failChatWith ?? "server";
			throw new LLMError(kind, `Stub failure: ${kind}`);
		}
		if (hang !== undefined) {
			await new Promise<void>((resolve) => {
				if (req.signal === undefined) return;
				if (req.signal.aborted) resolve();
				else req.signal.addEventListener("abort", () => resolve(), { once: true });
			});
			throw abortError();
		}
		return { text: reply, usage: this.opts.usage?.(req) };
	}
}
