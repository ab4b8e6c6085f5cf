import type { EventSourceMessage } from "eventsource-parser";
import { AnswerBuilder, isRecord, numberOrUndefined, type AnswerListener, type StreamDecoder } from "./answer";
import { classifyStreamError, type ErrorContext } from "./classify";
import { LLMError } from "./errors";
import { describeSize, MAX_ANSWER_CHARS, MAX_BODY_BYTES } from "./limits";
import { SseReader } from "./sse";
import type { ProviderGenerateResult } from "./types";
import type { Usage } from "../core/types";

function protocolError(message: string): LLMError {
	return new LLMError("protocol", message, { provider: "openai" });
}

/**
 * An OpenAI-compatible `/chat/completions` SSE stream, ending with `[DONE]` or a `finish_reason`.
 * Also reads a plain JSON body, since some servers (LM Studio) answer a stream request with a JSON
 * error and HTTP 200.
 */
export class OpenAIStreamDecoder implements StreamDecoder {
	private readonly sse = new SseReader();
	private readonly answer: AnswerBuilder;
	private done = false;
	private finished = false;
	/** `finish_reason: "length"`: the answer hit the token limit. */
	private cut = false;
	private jsonBody: string[] | undefined;
	/** llama.cpp's prompt timings, when its final chunk carried them. */
	private llamaTimings: { cached: number; evaluated: number } | undefined;
	private jsonBodySize = 0;
	/** Tool calls: the server's index → the collector's key, and each call's server-given id. */
	private readonly callKeys = new Map<number, number>();
	private readonly serverIds = new Map<number, string>();
	private lastCallKey: number | undefined;
	private nextCallKey = 0;
	private readonly onEvent = (event: EventSourceMessage): void => this.event(event);
	private readonly onStray = (line: string): void => this.stray(line);

	constructor(
		private readonly ctx: ErrorContext,
		listener: AnswerListener = {},
		private readonly maxChars = MAX_ANSWER_CHARS,
	) {
		this.answer = new AnswerBuilder(listener, maxChars);
	}

	begin(response: Response): void {
		const type = response.headers.get("content-type") ?? "";
		if (/json/i.test(type) && !/event-stream/i.test(type)) this.jsonBody = [];
	}

	push(text: string): void {
		if (!this.jsonBody) {
			this.sse.push(text, this.onEvent, this.onStray);
			return;
		}
		// A whole answer in one JSON body: the answer's cap, plus room for the JSON around it.
		this.jsonBodySize += text.length;
		if (this.jsonBodySize > this.maxChars + MAX_BODY_BYTES) throw protocolError(`The server's JSON answer passed ${describeSize(this.maxChars + MAX_BODY_BYTES)} without ending, so it was not read further.`);
		this.jsonBody.push(text);
	}

	progress(): number {
		// A JSON body has no events: every piece of it is progress.
		if (this.jsonBody) return this.jsonBodySize;
		return this.answer.progress + (this.done || this.finished ? 1 : 0);
	}

	finish(): ProviderGenerateResult {
		if (this.jsonBody) return this.finishJson(this.jsonBody.join(""));
		this.sse.end(this.onEvent, this.onStray);
		if (!this.done && !this.finished) throw protocolError("The server's stream ended before the answer was finished; the answer is incomplete.");
		const result = this.resultWithTimings();
		return this.cut ? { ...result, cut: "length" } : result;
	}

	private finishJson(text: string): ProviderGenerateResult {
		let body: unknown;
		try {
			body = JSON.parse(text);
		} catch {
			throw protocolError("The server answered with JSON that could not be read.");
		}
		if (isRecord(body) && body.error !== undefined) throw classifyStreamError(this.ctx, body);
		// A server that ignored `stream: true` and sent the whole answer at once.
		const choice = isRecord(body) && Array.isArray(body.choices) ? (body.choices[0] as unknown) : undefined;
		const message = isRecord(choice) ? choice.message : undefined;
		const calls = isRecord(message) && Array.isArray(message.tool_calls) ? message.tool_calls : undefined;
		// `content: null` is how a message holding only tool calls comes.
		if (!isRecord(message) || (typeof message.content !== "string" && !(calls && calls.length > 0))) throw protocolError("The server answered with JSON that holds no answer.");
		const reasoning = typeof message.reasoning_content === "string" ? message.reasoning_content : message.reasoning;
		if (typeof reasoning === "string") this.answer.thinking(reasoning);
		if (typeof message.content === "string") this.answer.text(message.content);
		if (calls) this.toolCallFragments(calls);
		if (isRecord(body)) {
			this.usage(body.usage);
			this.timings(body.timings);
		}
		return this.resultWithTimings();
	}

	private event(event: EventSourceMessage): void {
		const data = event.data.trim();
		if (data === "[DONE]") {
			this.done = true;
			return;
		}
		if (data === "") return;
		let chunk: unknown;
		try {
			chunk = JSON.parse(data);
		} catch {
			throw protocolError(`The server sent an event that is not JSON: ${data.slice(0, 80)}`);
		}
		if (!isRecord(chunk)) throw protocolError("The server sent an event that is not a JSON object.");
		// OpenAI and llama.cpp send `{ error: … }`; vLLM sends `{ object: "error", message, type }`.
		if (event.event === "error" || chunk.error !== undefined || chunk.object === "error") throw classifyStreamError(this.ctx, chunk);
		if (this.done) return;
		this.usage(chunk.usage);
		this.timings(chunk.timings);
		if (!Array.isArray(chunk.choices)) return;
		const choice: unknown = chunk.choices[0];
		if (!isRecord(choice)) return;
		const delta = choice.delta;
		if (isRecord(delta)) {
			const reasoning = typeof delta.reasoning_content === "string" ? delta.reasoning_content : delta.reasoning;
			if (typeof reasoning === "string") this.answer.thinking(reasoning);
			// `content: null` is common (role-only and tool deltas).
			if (typeof delta.content === "string") this.answer.text(delta.content);
			if (Array.isArray(delta.tool_calls)) this.toolCallFragments(delta.tool_calls);
		}
		if (typeof choice.finish_reason === "string") this.finished = true;
		if (choice.finish_reason === "length") this.cut = true;
	}

	/**
	 * Streamed calls come in fragments joined by `index`: the first holds `id` and the name, the
	 * rest pieces of the argument text. Some servers send no index (one call at a time) or give
	 * every call of a batch the same one; a fragment with a new server id at a used index starts a
	 * new call. Whatever `finish_reason` says ("tool_calls", or "stop" from llama.cpp, LM Studio and
	 * some vLLM versions), the calls received are the calls.
	 */
	private toolCallFragments(fragments: unknown[]): void {
		const tools = this.answer.tools;
		for (const fragment of fragments) {
			if (!isRecord(fragment)) continue;
			const fn = isRecord(fragment.function) ? fragment.function : {};
			const index = typeof fragment.index === "number" ? fragment.index : undefined;
			const id = typeof fragment.id === "string" && fragment.id !== "" ? fragment.id : undefined;
			const name = typeof fn.name === "string" ? fn.name : undefined;
			let key = index !== undefined ? this.callKeys.get(index) : this.lastCallKey;
			const knownId = key === undefined ? undefined : this.serverIds.get(key);
			if (key === undefined || (id !== undefined && knownId !== undefined && id !== knownId)) {
				key = this.nextCallKey++;
				if (index !== undefined) this.callKeys.set(index, key);
				if (id !== undefined) this.serverIds.set(key, id);
				tools.start(key, id, name ?? "");
			} else if (name !== undefined) {
				tools.name(key, name);
			}
			this.lastCallKey = key;
			if (typeof fn.arguments === "string") tools.arguments(key, fn.arguments);
			else if (isRecord(fn.arguments)) tools.whole(key, fn.arguments);
		}
	}

	/**
	 * `prompt_tokens` is the whole prompt, cached part included (OpenAI, vLLM, llama.cpp); the
	 * cached part is `prompt_tokens_details.cached_tokens` (DeepSeek: `prompt_cache_hit_tokens`).
	 */
	private usage(usage: unknown): void {
		if (!isRecord(usage)) return;
		const details = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
		const out: Usage = { promptTokens: numberOrUndefined(usage.prompt_tokens), completionTokens: numberOrUndefined(usage.completion_tokens) };
		const cached = numberOrUndefined(details.cached_tokens) ?? numberOrUndefined(usage.prompt_cache_hit_tokens);
		if (cached !== undefined) out.cachedPromptTokens = cached;
		this.answer.addUsage(out);
	}

	/** llama.cpp's `timings` (on its final chunk): `cache_n` tokens reused, `prompt_n` evaluated anew. */
	private timings(timings: unknown): void {
		if (!isRecord(timings)) return;
		const cached = numberOrUndefined(timings.cache_n);
		const evaluated = numberOrUndefined(timings.prompt_n);
		if (cached !== undefined && evaluated !== undefined && cached >= 0 && evaluated >= 0) this.llamaTimings = { cached, evaluated };
	}

	/**
	 * The answer with llama.cpp's timings folded into its usage: the whole prompt is at least
	 * `cache_n + prompt_n` (a server whose `prompt_tokens` left the cached part out, or sent no
	 * usage at all, still gives the whole count), and `cache_n` is the cached part where usage
	 * did not say.
	 */
	private resultWithTimings(): ProviderGenerateResult {
		const result = this.answer.result();
		const timings = this.llamaTimings;
		if (timings === undefined) return result;
		const usage: Usage = { ...result.usage };
		const whole = timings.cached + timings.evaluated;
		if (usage.promptTokens === undefined || usage.promptTokens < whole) usage.promptTokens = whole;
		usage.cachedPromptTokens ??= timings.cached;
		return { ...result, usage };
	}

	private stray(line: string): void {
		const trimmed = line.trim();
		if (!trimmed.startsWith("{")) return; // Not SSE and not JSON: ignored, as the SSE spec says.
		let body: unknown;
		try {
			body = JSON.parse(trimmed);
		} catch {
			throw protocolError(`The server sent a line that is neither an event nor JSON: ${trimmed.slice(0, 80)}`);
		}
		if (isRecord(body) && body.error !== undefined) throw classifyStreamError(this.ctx, body);
		throw protocolError("The server sent JSON outside an event.");
	}
}
