// Measures what one turn's answer cost: each request's tokens (the server's counts when it
// reported them, else the engine's estimate) and timing on the injected clock, summed over the
// requests of the turn (a tool loop makes one per round). The answer that ends the turn carries it.
import type { AnswerStats, Usage } from "../core/types";

/** One request as the meter sees it. */
export interface MeteredRequest {
	/** When the request was sent (the injected clock). */
	sentAt: number;
	/** When its first token (text or thinking) came; undefined when none streamed. */
	firstTokenAt: number | undefined;
	/** The server's counts, when it gave any. */
	usage: Usage | undefined;
	/** The engine's estimate of the prompt sent. */
	estimatedPrompt: number;
	/** The engine's estimate of what the model wrote (text, thinking, tool calls). */
	estimatedAnswer: number;
}

const counted = (n: number | undefined): n is number => typeof n === "number" && Number.isFinite(n) && n >= 0;

export class AnswerMeter {
	private requests = 0;
	private promptTokens = 0;
	private answerTokens = 0;
	private promptReported = true;
	private answerReported = true;
	private firstSentAt: number | undefined;
	private firstTokenMs: number | undefined;
	private streamMs = 0;
	private streamed = false;
	private endedAt: number | undefined;

	constructor(
		private readonly now: () => number,
		private readonly model: string,
		private readonly provider: string | undefined,
	) {}

	/** Adds one request that reached the model (answered, stopped, or cut off). */
	add(request: MeteredRequest): void {
		const end = this.now();
		this.requests++;
		this.firstSentAt ??= request.sentAt;
		this.endedAt = end;
		const prompt = request.usage?.promptTokens;
		const answer = request.usage?.completionTokens;
		// A count of 0 for a prompt is no count: some servers send zeros when they measured nothing.
		const promptKnown = counted(prompt) && prompt > 0;
		this.promptTokens += promptKnown ? prompt : request.estimatedPrompt;
		this.promptReported &&= promptKnown;
		this.answerTokens += counted(answer) ? answer : request.estimatedAnswer;
		this.answerReported &&= counted(answer);
		if (request.firstTokenAt !== undefined) {
			// Time to the first token is the first request's: what the person waited before anything showed.
			if (this.requests === 1) this.firstTokenMs = Math.max(0, request.firstTokenAt - request.sentAt);
			this.streamMs += Math.max(0, end - request.firstTokenAt);
			this.streamed = true;
		}
	}

	/** The turn's stats so far; undefined before any request was added. */
	stats(): AnswerStats | undefined {
		if (this.requests === 0) return undefined;
		const stats: AnswerStats = {
			promptTokens: Math.round(this.promptTokens),
			answerTokens: Math.round(this.answerTokens),
			reported: { prompt: this.promptReported, answer: this.answerReported },
			requests: this.requests,
			model: this.model,
		};
		if (this.firstTokenMs !== undefined) stats.firstTokenMs = this.firstTokenMs;
		if (this.streamed) stats.streamMs = this.streamMs;
		if (this.firstSentAt !== undefined && this.endedAt !== undefined) stats.durationMs = Math.max(0, this.endedAt - this.firstSentAt);
		if (this.provider !== undefined) stats.provider = this.provider;
		return stats;
	}
}

/** The provider's name, when the adapter says (ProviderAdapter.provider); the engine takes any LLMAdapter. */
export function providerOf(adapter: unknown): string | undefined {
	const provider = (adapter as { provider?: unknown } | null)?.provider;
	return typeof provider === "string" && provider !== "" ? provider : undefined;
}
