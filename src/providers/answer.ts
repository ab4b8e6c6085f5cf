import type { GenerateRequest, Usage } from "../chat/types";
import { ThinkTagSplitter } from "./thinkTags";
import type { ProviderGenerateResult } from "./types";

/** Who hears a streamed answer: `GenerateRequest`'s listeners. */
export type AnswerListener = Pick<GenerateRequest, "onToken" | "onThinking" | "onTextRetracted">;

/**
 * Collects a streamed answer: text (passed on to `onToken`), thinking kept apart (passed on to
 * `onThinking`), usage. Text goes through a ThinkTagSplitter: `<think>` in the text is thinking too.
 */
export class AnswerBuilder {
	private parts: string[] = [];
	private readonly thinkingParts: string[] = [];
	private readonly splitter: ThinkTagSplitter;
	private serverThinks = false;
	usage: Usage | undefined;

	constructor(private readonly listener: AnswerListener = {}) {
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
		if (delta) this.splitter.push(delta);
	}

	/** The server's own thinking field (Ollama `thinking`, Anthropic thinking blocks, `reasoning_content`). */
	thinking(delta: string): void {
		if (!delta) return;
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

	addUsage(usage: Usage): void {
		const next: Usage = { ...this.usage };
		if (usage.promptTokens !== undefined) next.promptTokens = usage.promptTokens;
		if (usage.completionTokens !== undefined) next.completionTokens = usage.completionTokens;
		this.usage = next;
	}

	result(): ProviderGenerateResult {
		this.splitter.end();
		const result: ProviderGenerateResult = { text: this.parts.join("") };
		if (this.usage) result.usage = this.usage;
		if (this.thinkingParts.length > 0) result.thinking = this.thinkingParts.join("");
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
	/** The body ended: returns the answer, or throws when the stream never reached its terminator. */
	finish(): ProviderGenerateResult;
}
