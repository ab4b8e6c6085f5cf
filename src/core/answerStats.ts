// What answers cost, read back from saved messages: a saved `stats` checked field by field (a
// damaged one is dropped, never the answer), tokens per second, and a chat's totals per model,
// summary requests included (what the history list and the chat total are computed from). Pure:
// no clock, no I/O.
import type { AnswerStats, ChatMessage, SummaryStats } from "./types";

/** One model's share of a chat's tokens. */
export interface ModelUsage {
	model: string;
	promptTokens: number;
	answerTokens: number;
	/** The provider of the model's answers (its default cached-input price depends on it), when known. */
	provider?: string;
	/** Of `promptTokens`, those the server said it read from its cache; absent when no answer said. */
	cachedPromptTokens?: number;
	/** Of `promptTokens`, those the server said it wrote to its cache; absent when no answer said. */
	cacheWriteTokens?: number;
}

/** A chat's tokens, summed from its answers' saved stats (their turns' summary requests included). */
export interface ChatUsage {
	promptTokens: number;
	answerTokens: number;
	/** Answers that carried stats. */
	answers: number;
	/** Requests those answers took, their turns' summary requests included. */
	requests: number;
	/** Per model, in the order each first answered: prices are per model. */
	models: ModelUsage[];
	/** Every count was reported by the server (none estimated). */
	reported: boolean;
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `reported` may be one flag for both counts (older or hand-written records) or one per count. */
function asReported(reported: unknown): AnswerStats["reported"] | undefined {
	if (typeof reported === "boolean") return { prompt: reported, answer: reported };
	if (isObject(reported) && typeof reported.prompt === "boolean" && typeof reported.answer === "boolean") return { prompt: reported.prompt, answer: reported.answer };
	return undefined;
}

const asRequests = (n: unknown): number => (isCount(n) && n >= 1 ? Math.round(n) : 1);

/** A saved `stats.summary`; undefined when damaged (then the answer keeps its other stats). */
function asSummaryStats(value: unknown): SummaryStats | undefined {
	if (!isObject(value)) return undefined;
	const { promptTokens, answerTokens, reported, requests } = value;
	const flags = asReported(reported);
	if (!isCount(promptTokens) || !isCount(answerTokens) || flags === undefined) return undefined;
	return { promptTokens, answerTokens, reported: flags, requests: asRequests(requests) };
}

/** A saved `stats` as AnswerStats; undefined when it is damaged (then the answer keeps no stats). */
export function asAnswerStats(value: unknown): AnswerStats | undefined {
	if (!isObject(value)) return undefined;
	const { promptTokens, answerTokens, reported, firstTokenMs, streamMs, durationMs, requests, model, provider, summary, refused } = value;
	if (!isCount(promptTokens) || !isCount(answerTokens) || typeof model !== "string") return undefined;
	const flags = asReported(reported);
	if (flags === undefined) return undefined;
	// Fields this version does not know are kept, as on messages.
	const stats: AnswerStats = { ...value, promptTokens, answerTokens, reported: flags, model, requests: asRequests(requests) };
	for (const [key, ms] of [["firstTokenMs", firstTokenMs], ["streamMs", streamMs], ["durationMs", durationMs]] as const) {
		if (isCount(ms)) stats[key] = ms;
		else delete stats[key];
	}
	if (typeof provider === "string") stats.provider = provider;
	else delete stats.provider;
	// Older answers have neither; a damaged one is dropped alone, like an unreadable time.
	const summaryStats = asSummaryStats(summary);
	if (summaryStats !== undefined) stats.summary = summaryStats;
	else delete stats.summary;
	if (isCount(refused) && refused >= 1) stats.refused = Math.round(refused);
	else delete stats.refused;
	// A cached part no larger than the prompt it is part of; else it is dropped alone.
	for (const key of ["cachedPromptTokens", "cacheWriteTokens"] as const) {
		const n = value[key];
		if (isCount(n) && n <= promptTokens) stats[key] = n;
		else delete stats[key];
	}
	return stats;
}

/**
 * The tokens an answer was billed for: its own requests' and its turn's summary requests' (same
 * model). What its cost and the chat's totals are computed from.
 */
export function billedTokens(stats: AnswerStats): { promptTokens: number; answerTokens: number } {
	const summary = stats.summary;
	if (summary === undefined) return { promptTokens: stats.promptTokens, answerTokens: stats.answerTokens };
	return { promptTokens: stats.promptTokens + summary.promptTokens, answerTokens: stats.answerTokens + summary.answerTokens };
}

/** Answer tokens per second of streaming (after the first token); undefined when the answer did not stream. */
export function tokensPerSecond(stats: AnswerStats): number | undefined {
	if (stats.streamMs === undefined || stats.streamMs <= 0 || stats.answerTokens <= 0) return undefined;
	return stats.answerTokens / (stats.streamMs / 1000);
}

/** A chat's totals from its answers' stats; undefined when no answer has any (older chats). */
export function chatUsage(messages: readonly ChatMessage[]): ChatUsage | undefined {
	let usage: ChatUsage | undefined;
	const byModel = new Map<string, ModelUsage>();
	for (const message of messages) {
		const stats = message.stats;
		if (message.role !== "assistant" || stats === undefined) continue;
		usage ??= { promptTokens: 0, answerTokens: 0, answers: 0, requests: 0, models: [], reported: true };
		// Summary requests count with the answer whose turn made them: a chat's total is what it was billed.
		const { promptTokens, answerTokens } = billedTokens(stats);
		const summary = stats.summary;
		usage.promptTokens += promptTokens;
		usage.answerTokens += answerTokens;
		usage.answers++;
		usage.requests += stats.requests + (summary?.requests ?? 0);
		usage.reported &&= stats.reported.prompt && stats.reported.answer && (summary === undefined || (summary.reported.prompt && summary.reported.answer));
		let model = byModel.get(stats.model);
		if (model === undefined) {
			model = { model: stats.model, promptTokens: 0, answerTokens: 0 };
			byModel.set(stats.model, model);
			usage.models.push(model);
		}
		model.promptTokens += promptTokens;
		model.answerTokens += answerTokens;
		if (stats.provider !== undefined) model.provider ??= stats.provider;
		if (stats.cachedPromptTokens !== undefined) model.cachedPromptTokens = (model.cachedPromptTokens ?? 0) + stats.cachedPromptTokens;
		if (stats.cacheWriteTokens !== undefined) model.cacheWriteTokens = (model.cacheWriteTokens ?? 0) + stats.cacheWriteTokens;
	}
	return usage;
}

/** A saved ChatUsage (the session index's copy); undefined when damaged, so it is recomputed. */
export function asChatUsage(value: unknown): ChatUsage | undefined {
	if (!isObject(value)) return undefined;
	const { promptTokens, answerTokens, answers, requests, models, reported } = value;
	if (!isCount(promptTokens) || !isCount(answerTokens) || !isCount(answers) || !isCount(requests) || typeof reported !== "boolean" || !Array.isArray(models)) return undefined;
	const kept: ModelUsage[] = [];
	for (const m of models as unknown[]) {
		if (!isObject(m) || typeof m.model !== "string" || !isCount(m.promptTokens) || !isCount(m.answerTokens)) return undefined;
		const model: ModelUsage = { model: m.model, promptTokens: m.promptTokens, answerTokens: m.answerTokens };
		if (typeof m.provider === "string") model.provider = m.provider;
		if (isCount(m.cachedPromptTokens) && m.cachedPromptTokens <= m.promptTokens) model.cachedPromptTokens = m.cachedPromptTokens;
		if (isCount(m.cacheWriteTokens) && m.cacheWriteTokens <= m.promptTokens) model.cacheWriteTokens = m.cacheWriteTokens;
		kept.push(model);
	}
	return { promptTokens, answerTokens, answers, requests, models: kept, reported };
}
