import { LLMError } from "../providers/errors";
import { parseOverflowReport, type OverflowReport } from "../providers/overflowReport";
import type { CompactionBudget } from "./compaction";
import { safeBudget } from "./tokens";
import type { ChatSettings } from "../core/types";

/**
 * The retry after "prompt too long" is at most this share of the prompt that failed: the server
 * counts more than we estimated, so anything close to the same size would fail again.
 */
export const OVERFLOW_RETRY_SHRINK = 0.7;

/** Tokenizers differ, but not by more than this (calibration.ts drops ratios beyond it too). */
const MAX_PLAUSIBLE_RATIO = 5;

const fmt = (n: number): string => Math.max(0, Math.round(n)).toLocaleString("en-US");

/**
 * What the server said about the prompt it refused: from the error's `overflow` (providers parse
 * it from the body), else from its message (adapters of other makers may only have the words).
 */
export function overflowReportOf(err: unknown): OverflowReport {
	if (typeof err !== "object" || err === null) return {};
	const { overflow, message } = err as { overflow?: unknown; message?: unknown };
	if (typeof overflow === "object" && overflow !== null) {
		const { window, promptTokens } = overflow as OverflowReport;
		const report: OverflowReport = {};
		if (typeof window === "number" && window > 0) report.window = window;
		if (typeof promptTokens === "number" && promptTokens > 0) report.promptTokens = promptTokens;
		if (report.window !== undefined || report.promptTokens !== undefined) return report;
	}
	return typeof message === "string" ? parseOverflowReport(message) : {};
}

/**
 * How many of the server's tokens one of our estimated tokens turned out to be, from its count of
 * the refused prompt: never below 1 (an overestimate is no reason to send more), and a count far
 * off any tokenizer's is not about this prompt (the calibration sets it aside for the same reason).
 */
export function serverTokensPerEstimated(report: OverflowReport, failedEstimate: number): number {
	const counted = report.promptTokens !== undefined && failedEstimate > 0 ? report.promptTokens / failedEstimate : 1;
	return counted > MAX_PLAUSIBLE_RATIO ? 1 : Math.max(1, counted);
}

/**
 * The budget for the one retry, in the engine's estimated tokens: at most 0.7× the estimate of
 * the prompt that failed (so never the same prompt again), below the turn's budget, and, when the
 * server named its window, within that window less the answer's reserve. The server's count of
 * the failed prompt says how far our estimate was off; the window is scaled by it.
 */
export function overflowRetryBudget(
	budget: CompactionBudget,
	settings: Pick<ChatSettings, "reservedResponseTokens">,
	failedEstimate: number,
	report: OverflowReport,
	/** The model's margin (share to use), already widened by this surprise. */
	keep?: number,
): CompactionBudget {
	let prompt = Math.min(Math.floor(failedEstimate * OVERFLOW_RETRY_SHRINK), budget.prompt - 1);
	const ratio = serverTokensPerEstimated(report, failedEstimate);
	const window = report.window;
	let summaryMaxTokens = budget.summaryMaxTokens;
	let summaryRequest = budget.summaryRequest;
	if (window !== undefined) {
		prompt = Math.min(prompt, Math.floor(safeBudget(window - settings.reservedResponseTokens, keep) / ratio));
	}
	prompt = Math.max(0, prompt);
	summaryMaxTokens = Math.max(16, Math.min(summaryMaxTokens, Math.floor(prompt / 5)));
	if (window !== undefined) summaryRequest = Math.min(summaryRequest, Math.floor(safeBudget(window - summaryMaxTokens, keep) / ratio));
	return { ...budget, prompt, summaryMaxTokens, summaryRequest };
}

/**
 * The turn's end when even the shortest retry is not smaller than `limit`: the message and the
 * instructions alone are too big for what the server takes. Says what would help. When the server
 * counted the refused prompt (`report.promptTokens`, of a prompt the engine estimated at
 * `failedEstimate`), the numbers are the server's: the engine's own estimate understated them by as
 * much as the tokenizer differs (3,682 counted where 1,344 was estimated).
 */
export function retryTooBigError(cause: unknown, retryEstimate: number, limit: number, report: OverflowReport, settings: Pick<ChatSettings, "reservedResponseTokens">, failedEstimate = 0): LLMError {
	const ratio = serverTokensPerEstimated(report, failedEstimate);
	const counted = report.promptTokens !== undefined && failedEstimate > 0;
	const said = counted ? `The server counted the prompt at ${fmt(report.promptTokens ?? 0)} tokens, more than it can take.` : "The server said the prompt was too long.";
	const size = counted ? `about ${fmt(retryEstimate * ratio)} of the server's tokens` : `about ${fmt(retryEstimate)} tokens`;
	const room =
		report.window !== undefined
			? `the server's window of ${fmt(report.window)} tokens (${fmt(settings.reservedResponseTokens)} of them kept for the answer) leaves room for ${counted ? fmt(report.window - settings.reservedResponseTokens) : `about ${fmt(limit)}`}`
			: `the server refused a prompt of about ${fmt(counted ? report.promptTokens ?? 0 : limit / OVERFLOW_RETRY_SHRINK)}`;
	return new LLMError(
		"context_overflow",
		`${said} Even shortened to its minimum (the instructions, a summary and your message), it is ${size}, and ${room}. Shorten the message or the system prompt, or load the model with a larger context.`,
		{ cause, overflow: report },
	);
}
