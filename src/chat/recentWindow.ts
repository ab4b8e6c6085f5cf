// The window of recent messages: how many are sent verbatim, which older ones go into the summary,
// and what the fixed parts of the prompt (instructions, summary, current message) cost around them.
import { MESSAGE_OVERHEAD_TOKENS, promptCost, promptMessageCost, type EstimateFn } from "./promptCost";
import { composeSystemMessage, summaryBlock } from "./prompt";
import type { PromptMessage } from "../core/types";

/** How many recent messages are sent verbatim before older ones are summarized. */
export interface WindowSettings {
	recentMessagesToKeep: number;
	minRecentMessagesToKeep: number;
}

export interface WindowInput {
	systemPrompt: string;
	previousSummary?: string;
	/** Messages after the summary (user/assistant, oldest first), without the current message. */
	history: readonly PromptMessage[];
	current: string;
	settings: WindowSettings;
	/** Estimated tokens the prompt may take. */
	promptBudget: number;
	/** The most tokens a new summary may take. */
	summaryMaxTokens: number;
	estimate: EstimateFn;
}

export interface WindowPlan {
	/** Everything fits with the existing summary: nothing to summarize or compress. */
	fits: boolean;
	/** `history.slice(split)` is sent verbatim; `history.slice(0, split)` is to be summarized. */
	split: number;
	/** Even the smallest window is over the budget: recent messages must be compressed. */
	needsCompression: boolean;
}

/** Caches per-message estimates and suffix sums, computed from the newest message backwards only as far as asked. */
export class HistoryCosts {
	private readonly costs: number[] = [];
	/** `suffix[i]` = estimated tokens of history.slice(i), filled from the end down to `lowest`. */
	private readonly suffix: number[] = [];
	private lowest: number;

	constructor(
		private readonly history: readonly PromptMessage[],
		private readonly estimate: EstimateFn,
	) {
		this.lowest = history.length;
	}

	cost(i: number): number {
		let c = this.costs[i];
		if (c === undefined) {
			const m = this.history[i];
			c = m === undefined ? promptMessageCost({ role: "user", content: "" }, this.estimate) : promptMessageCost(m, this.estimate);
			this.costs[i] = c;
		}
		return c;
	}

	/** Estimated tokens of `history.slice(from)`. */
	suffixCost(from: number): number {
		if (from >= this.history.length) return 0;
		const start = Math.max(0, from);
		while (this.lowest > start) {
			this.lowest--;
			this.suffix[this.lowest] = (this.suffix[this.lowest + 1] ?? 0) + this.cost(this.lowest);
		}
		return this.suffix[start] ?? 0;
	}
}

/** Estimated tokens of the prompt without document and history: system message and current message. */
export function fixedCost(systemPrompt: string, summary: string | undefined, current: string, estimate: EstimateFn): number {
	const system = composeSystemMessage(systemPrompt, "", summary);
	const messages: PromptMessage[] = system === "" ? [] : [{ role: "system", content: system }];
	messages.push({ role: "user", content: current });
	return promptCost(messages, estimate);
}

/** What a new summary of at most `summaryMaxTokens` can add to the fixed part, at worst. */
export function summaryAllowance(summaryMaxTokens: number, estimate: EstimateFn): number {
	return summaryMaxTokens + estimate(summaryBlock("")) + estimate("\n\n") + MESSAGE_OVERHEAD_TOKENS + 2;
}

/**
 * Where the older block ends so that it ends on an assistant turn: the latest such point at or
 * before `limit` (a few messages back at most), else `limit` itself.
 */
export function splitPoint(history: readonly PromptMessage[], limit: number): number {
	if (limit <= 0) return 0;
	for (let j = limit; j >= Math.max(1, limit - 8); j--) {
		const before = history[j - 1];
		if ((before?.role === "assistant" || before?.role === "tool") && keepsCallsWhole(history, j)) return j;
	}
	// A tool call and its results are one unit: never cut between them, not even for a summary.
	for (let j = limit; j > 0; j--) if (keepsCallsWhole(history, j)) return j;
	return 0;
}

/** Cutting before `j` leaves every call with its results: no result at `j`, no calls just before it. */
export function keepsCallsWhole(history: readonly PromptMessage[], j: number): boolean {
	if (history[j]?.role === "tool") return false;
	const before = history[j - 1];
	return before === undefined || before.toolCalls === undefined || before.toolCalls.length === 0;
}

/**
 * Decides, without calling the model, which messages stay verbatim. Walks back from the newest
 * message only as far as the budget reaches, so a long session costs no more than a short one.
 */
export function planWindow(input: WindowInput, costs = new HistoryCosts(input.history, input.estimate)): WindowPlan {
	const { history, estimate, promptBudget } = input;
	const n = history.length;
	const fixedPrev = fixedCost(input.systemPrompt, input.previousSummary, input.current, estimate);
	let total = fixedPrev;
	let i = n;
	while (i > 0 && total + costs.cost(i - 1) <= promptBudget) {
		total += costs.cost(i - 1);
		i--;
	}
	if (i === 0 && total <= promptBudget) return { fits: true, split: 0, needsCompression: false };

	const withSummary = fixedCost(input.systemPrompt, undefined, input.current, estimate) + summaryAllowance(input.summaryMaxTokens, estimate);
	const minKeep = Math.max(0, Math.min(input.settings.minRecentMessagesToKeep, n));
	const maxKeep = Math.max(minKeep, Math.min(input.settings.recentMessagesToKeep, n));
	for (let keep = maxKeep; keep >= minKeep; keep--) {
		const split = splitPoint(history, n - keep);
		if (split === 0) continue; // nothing older to summarize: only compression can help
		if (withSummary + costs.suffixCost(split) <= promptBudget) return { fits: false, split, needsCompression: false };
	}
	return { fits: false, split: splitPoint(history, n - minKeep), needsCompression: true };
}
