import type { Usage } from "../chat/types";
import type { ProviderGenerateResult } from "./types";

/** Collects a streamed answer: text (passed on to `onToken`), thinking kept apart, usage. */
export class AnswerBuilder {
	private readonly parts: string[] = [];
	private readonly thinkingParts: string[] = [];
	usage: Usage | undefined;

	constructor(private readonly onToken?: (delta: string) => void) {}

	text(delta: string): void {
		if (!delta) return;
		this.parts.push(delta);
		this.onToken?.(delta);
	}

	thinking(delta: string): void {
		if (delta) this.thinkingParts.push(delta);
	}

	addUsage(usage: Usage): void {
		const next: Usage = { ...this.usage };
		if (usage.promptTokens !== undefined) next.promptTokens = usage.promptTokens;
		if (usage.completionTokens !== undefined) next.completionTokens = usage.completionTokens;
		this.usage = next;
	}

	result(): ProviderGenerateResult {
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
