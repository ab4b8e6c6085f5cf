import type { GenerateRequest, Usage } from "../core/types";
import { LLMError } from "./errors";
import { MAX_ANSWER_CHARS } from "./limits";
import { ThinkTagSplitter } from "./thinkTags";
import { ToolCallCollector } from "./toolCalls";
import type { ProviderGenerateResult } from "./types";

/** Who hears a streamed answer: `GenerateRequest`'s listeners. */
export type AnswerListener = Pick<GenerateRequest, "onToken" | "onThinking" | "onTextRetracted" | "onToolCall">;

/**
 * Collects a streamed answer: text (passed on to `onToken`), thinking kept apart (passed on to
 * `onThinking`), tool calls (`tools`, progress to `onToolCall`), usage. Text goes through a
 * ThinkTagSplitter: `<think>` in the text is thinking too. Text, thinking and argument text share
 * one size cap.
 */
export class AnswerBuilder {
	private parts: string[] = [];
	private readonly thinkingParts: string[] = [];
	private readonly splitter: ThinkTagSplitter;
	private serverThinks = false;
	usage: Usage | undefined;
	/** Non-empty deltas so far: the request's stall limit restarts only when this grows. */
	progress = 0;
	private size = 0;
	/** The answer's tool calls, as they stream. */
	readonly tools: ToolCallCollector;

	constructor(
		private readonly listener: AnswerListener = {},
		private readonly maxChars = MAX_ANSWER_CHARS,
	) {
		this.tools = new ToolCallCollector({ grow: (chars, what) => this.grow(chars, what), onToolCall: listener.onToolCall });
		this.splitter = new ThinkTagSplitter({
			text: (delta) => {
				this.parts.push(delta);
				this.listener.onToken?.(delta);
			},
			thinking: (delta) => this.addThinking(delta),
			retract: () => {
				this.parts = [];
				this.listener.onTextRetracted?.();
			},
		});
	}

	text(delta: string): void {
		if (!delta) return;
		this.grow(delta.length);
		this.splitter.push(delta);
	}

	/** The server's own thinking field (Ollama `thinking`, Anthropic thinking blocks, `reasoning_content`). */
	thinking(delta: string): void {
		if (!delta) return;
		this.grow(delta.length);
		if (!this.serverThinks) {
			this.serverThinks = true;
			this.splitter.serverThinks();
		}
		this.addThinking(delta);
	}

	private addThinking(delta: string): void {
		this.thinkingParts.push(delta);
		this.listener.onThinking?.(delta);
	}

	/** A runaway answer (a server repeating itself for ever) stops at the cap; what came is kept. */
	private grow(chars: number, what: "text" | "arguments" = "text"): void {
		this.progress++;
		this.size += chars;
		if (this.size <= this.maxChars) return;
		if (what === "arguments") {
			throw new LLMError(
				"protocol",
				`A tool call's arguments took the answer past ${this.maxChars.toLocaleString("en-US")} characters, far more than the length asked for, so it was cut off there and the call was not made; the server may be stuck repeating itself. The text before it is kept.`,
				{ partialText: this.parts.join("") },
			);
		}
		throw new LLMError(
			"protocol",
			`The answer passed ${this.maxChars.toLocaleString("en-US")} characters, far more than the length asked for, so it was cut off there; the server may be stuck repeating itself. The partial answer is kept.`,
			{ partialText: this.parts.join("") },
		);
	}

	addUsage(usage: Usage): void {
		const next: Usage = { ...this.usage };
		if (usage.promptTokens !== undefined) next.promptTokens = usage.promptTokens;
		if (usage.completionTokens !== undefined) next.completionTokens = usage.completionTokens;
		if (usage.cachedPromptTokens !== undefined) next.cachedPromptTokens = usage.cachedPromptTokens;
		if (usage.cacheWriteTokens !== undefined) next.cacheWriteTokens = usage.cacheWriteTokens;
		this.usage = next;
	}

	result(): ProviderGenerateResult {
		this.splitter.end();
		const result: ProviderGenerateResult = { text: this.parts.join("") };
		if (this.usage) result.usage = this.usage;
		if (this.thinkingParts.length > 0) result.thinking = this.thinkingParts.join("");
		if (this.tools.size > 0) result.toolCalls = this.tools.result();
		return result;
	}
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function numberOrUndefined(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** Streamed answer decoders share this shape, so the request pump and benchmarks can drive any of them. */
export interface StreamDecoder {
	/** Sees the response's headers before the body (a dialect checks the content type). */
	begin?(response: Response): void;
	push(text: string): void;
	/** Answer text, thinking and the end seen so far, as a count that grows (not keep-alives). */
	progress?(): number;
	/** The body ended: returns the answer, or throws when the stream never reached its terminator. */
	finish(): ProviderGenerateResult;
}
