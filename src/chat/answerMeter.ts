// Measures what one turn's answer cost: each request's tokens (the server's counts when it
// reported them, else the engine's estimate) and timing on the injected clock, summed over the
// requests of the turn (a tool loop makes one per round). The answer that ends the turn carries it,
// with the turn's summary requests (compaction) apart and the requests refused as too long.
import type { AnswerStats, Usage } from "../core/types";
import { meteredUsage } from "./cacheCounts";
import { TokenTally } from "./tokenTally";

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
	/** The server's prompt count left out its cached part (cacheCounts.ts): the estimate stands in for it. */
	setAside?: boolean;
}

/** One summary request (compaction) the model answered, as the summarizer saw it. */
export interface MeteredSummary {
	/** The server's counts, when it gave any. */
	usage: Usage | undefined;
	/** The engine's estimate of the summary request's prompt. */
	estimatedPrompt: number;
	/** The engine's estimate of the summary as the model wrote it. */
	estimatedAnswer: number;
}

export class AnswerMeter {
	/** The chat requests: what the answer's own counts are. */
	private readonly chat = new TokenTally();
	/** The summary requests that made room for them, kept apart (AnswerStats.summary). */
	private readonly summaries = new TokenTally();
	private refused = 0;
	/** The server's prompt counts set aside as cache-partial, summed (AnswerStats.promptCountSetAside). */
	private setAside: number | undefined;
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
		const aside = request.setAside === true ? request.usage?.promptTokens : undefined;
		if (aside !== undefined) this.setAside = (this.setAside ?? 0) + aside;
		// A count set aside is no count: the answer shows the estimate, and says why.
		this.chat.add(aside === undefined ? request.usage : meteredUsage(request.usage, undefined), request.estimatedPrompt, request.estimatedAnswer);
		this.firstSentAt ??= request.sentAt;
		this.endedAt = end;
		if (request.firstTokenAt !== undefined) {
			// Time to the first token is the first answered request's (a refused one streams none): the model's wait.
			if (this.chat.requests === 1) this.firstTokenMs = Math.max(0, request.firstTokenAt - request.sentAt);
			this.streamMs += Math.max(0, end - request.firstTokenAt);
			this.streamed = true;
		}
	}

	/** Adds a summary request of this turn (compaction before the chat request); same model, counted apart. */
	addSummary(request: MeteredSummary): void {
		this.summaries.add(request.usage, request.estimatedPrompt, request.estimatedAnswer);
	}

	/**
	 * Adds a chat request the server refused as too long (retried smaller next): counted, and its
	 * wait is in the duration, but no tokens (see AnswerStats.refused).
	 */
	addRefused(sentAt: number): void {
		this.refused++;
		this.firstSentAt ??= sentAt;
	}

	/** The stats as an answer carries them: none before any chat request was added. */
	extras(): { stats?: AnswerStats } {
		const stats = this.stats();
		return stats === undefined ? {} : { stats };
	}

	/** The turn's stats so far; undefined before any chat request was added. */
	stats(): AnswerStats | undefined {
		const { chat, summaries } = this;
		if (chat.requests === 0) return undefined;
		const stats: AnswerStats = {
			promptTokens: Math.round(chat.promptTokens),
			answerTokens: Math.round(chat.answerTokens),
			reported: { prompt: chat.promptReported, answer: chat.answerReported },
			requests: chat.requests,
			model: this.model,
		};
		if (chat.cachedPromptTokens !== undefined) stats.cachedPromptTokens = Math.round(chat.cachedPromptTokens);
		if (chat.cacheWriteTokens !== undefined) stats.cacheWriteTokens = Math.round(chat.cacheWriteTokens);
		if (this.firstTokenMs !== undefined) stats.firstTokenMs = this.firstTokenMs;
		if (this.streamed) stats.streamMs = this.streamMs;
		if (this.firstSentAt !== undefined && this.endedAt !== undefined) stats.durationMs = Math.max(0, this.endedAt - this.firstSentAt);
		if (this.provider !== undefined) stats.provider = this.provider;
		if (summaries.requests > 0) {
			const reported = { prompt: summaries.promptReported, answer: summaries.answerReported };
			stats.summary = { promptTokens: Math.round(summaries.promptTokens), answerTokens: Math.round(summaries.answerTokens), reported, requests: summaries.requests };
		}
		if (this.refused > 0) stats.refused = this.refused;
		if (this.setAside !== undefined) stats.promptCountSetAside = Math.round(this.setAside);
		return stats;
	}
}

/** The provider's name, when the adapter says (ProviderAdapter.provider); the engine takes any LLMAdapter. */
export function providerOf(adapter: unknown): string | undefined {
	const provider = (adapter as { provider?: unknown } | null)?.provider;
	return typeof provider === "string" && provider !== "" ? provider : undefined;
}
