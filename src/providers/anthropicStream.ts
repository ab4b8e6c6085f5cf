import type { EventSourceMessage } from "eventsource-parser";
import { AnswerBuilder, isRecord, numberOrUndefined, type AnswerListener, type StreamDecoder } from "./answer";
import { classifyStreamError, type ErrorContext } from "./classify";
import { LLMError } from "./errors";
import { SseReader } from "./sse";
import type { ProviderGenerateResult } from "./types";
import type { Usage } from "../core/types";

function protocolError(message: string): LLMError {
	return new LLMError("protocol", message, { provider: "anthropic" });
}

/** Content blocks are numbered by `index`; a block without one is keyed apart from every real one. */
function blockKey(index: unknown): string {
	return typeof index === "number" ? `block${index}` : "block?";
}

/**
 * Anthropic's `/v1/messages` SSE stream, ending with `message_stop`. A `stop_reason` of
 * `tool_use` needs nothing special: the calls are the `tool_use` blocks, and a call cut short
 * (`max_tokens` inside its input) comes back marked `invalidArguments`.
 */
export class AnthropicStreamDecoder implements StreamDecoder {
	private readonly sse = new SseReader();
	private readonly answer: AnswerBuilder;
	private stopped = false;
	/** `stop_reason: "max_tokens"`: the answer hit the token limit. */
	private cut = false;
	/** The prompt's counts so far: input after the last breakpoint, cache writes, cache reads. */
	private readonly promptParts: { input?: number; written?: number; read?: number } = {};
	private readonly onEvent = (event: EventSourceMessage): void => this.event(event);
	private readonly onStray = (line: string): void => {
		if (line.trim().startsWith("{")) throw protocolError(`Anthropic sent a line outside an event: ${line.slice(0, 80)}`);
	};

	constructor(
		private readonly ctx: ErrorContext,
		listener: AnswerListener = {},
		maxChars?: number,
	) {
		this.answer = new AnswerBuilder(listener, maxChars);
	}

	push(text: string): void {
		this.sse.push(text, this.onEvent, this.onStray);
	}

	progress(): number {
		return this.answer.progress + (this.stopped ? 1 : 0);
	}

	finish(): ProviderGenerateResult {
		this.sse.end(this.onEvent, this.onStray);
		if (!this.stopped) throw protocolError("Anthropic's stream ended before message_stop; the answer is incomplete.");
		const result = this.answer.result();
		return this.cut ? { ...result, cut: "length" } : result;
	}

	/**
	 * Input tokens plus cache tokens: cached prompt tokens still occupy the context window.
	 * `input_tokens` is only what came after the last cache breakpoint; the reads and the writes
	 * are kept apart too, for the answer's details and its cost. `message_delta` may repeat some
	 * of the counts: each replaces its own, the others stay as `message_start` gave them.
	 */
	private promptUsage(usage: unknown): void {
		if (!isRecord(usage)) return;
		const parts = this.promptParts;
		parts.input = numberOrUndefined(usage.input_tokens) ?? parts.input;
		parts.written = numberOrUndefined(usage.cache_creation_input_tokens) ?? parts.written;
		parts.read = numberOrUndefined(usage.cache_read_input_tokens) ?? parts.read;
		const known = [parts.input, parts.written, parts.read].filter((n): n is number => n !== undefined);
		if (known.length === 0) return;
		const out: Usage = { promptTokens: known.reduce((a, b) => a + b, 0) };
		if (parts.read !== undefined) out.cachedPromptTokens = parts.read;
		if (parts.written !== undefined) out.cacheWriteTokens = parts.written;
		this.answer.addUsage(out);
	}

	private event(event: EventSourceMessage): void {
		if (event.data.trim() === "") return;
		let data: unknown;
		try {
			data = JSON.parse(event.data);
		} catch {
			throw protocolError(`Anthropic sent an event that is not JSON: ${event.data.slice(0, 80)}`);
		}
		if (!isRecord(data)) throw protocolError("Anthropic sent an event that is not a JSON object.");
		const type = typeof data.type === "string" ? data.type : event.event;
		if (type === "error" || event.event === "error") throw classifyStreamError(this.ctx, data);
		if (this.stopped) return;
		switch (type) {
			case "message_start": {
				const message = data.message;
				if (isRecord(message)) this.promptUsage(message.usage);
				break;
			}
			case "content_block_delta": {
				const delta = data.delta;
				if (!isRecord(delta)) break;
				if (delta.type === "text_delta" && typeof delta.text === "string") this.answer.text(delta.text);
				else if (delta.type === "thinking_delta" && typeof delta.thinking === "string") this.answer.thinking(delta.thinking);
				else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") this.answer.tools.arguments(blockKey(data.index), delta.partial_json);
				// Other deltas (signatures, citations) are not answer text.
				break;
			}
			case "content_block_start": {
				// A `tool_use` block: id and name now, its input as `input_json_delta` text next.
				// Server tools (web search) run on Anthropic's side and are not ours to call.
				const block = data.content_block;
				if (!isRecord(block) || block.type !== "tool_use") break;
				const key = blockKey(data.index);
				this.answer.tools.start(key, typeof block.id === "string" ? block.id : undefined, typeof block.name === "string" ? block.name : "");
				if (isRecord(block.input) && Object.keys(block.input).length > 0) this.answer.tools.whole(key, block.input);
				break;
			}
			case "content_block_stop":
				this.answer.tools.end(blockKey(data.index));
				break;
			case "message_delta": {
				if (isRecord(data.delta) && data.delta.stop_reason === "max_tokens") this.cut = true;
				const usage = data.usage;
				if (isRecord(usage)) {
					// Newer servers repeat the (final) input counts here too.
					if (usage.input_tokens !== undefined && usage.input_tokens !== null) this.promptUsage(usage);
					this.answer.addUsage({ completionTokens: numberOrUndefined(usage.output_tokens) });
				}
				break;
			}
			case "message_stop":
				this.stopped = true;
				break;
			default:
				break; // ping, and event types added later.
		}
	}
}
