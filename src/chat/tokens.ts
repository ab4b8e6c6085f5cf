// Token estimation without a tokenizer: a single pass that mimics the pre-tokenizer of BPE
// encodings such as o200k (words, 1-3 digit groups, punctuation runs, whitespace) and prices each
// piece by its script. Tuned against exact o200k counts; it leans towards overestimating because
// an undercount is what overflows a prompt.

import type { PromptMessage } from "./types";
import { fractionalTokens } from "./tokenScan";

export { fractionalTokens };

/**
 * Estimated o200k-style token count of `text`: one pass over char codes, no allocation.
 * Always ≥ 0, 0 for "", never NaN.
 */
export function estimateTokens(text: string): number {
	return Math.ceil(fractionalTokens(text));
}

/** Tokens of role framing around each message in a chat prompt (role name, separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens that prime the assistant's reply at the end of a chat prompt. */
export const PROMPT_OVERHEAD_TOKENS = 3;

/**
 * Lowest estimate/o200k ratio measured on any sample (dev corpus and other scripts; 0.886, a
 * Romanian sentence), rounded down with headroom. Fitting a prompt into `budget × this` estimated
 * tokens keeps it within `budget` real tokens. bench/tokens.ts prints the measured lowest ratio;
 * tokens.test.ts fails if any sample falls below this.
 */
export const ESTIMATOR_WORST_RATIO = 0.85;

export function estimateMessageTokens(message: PromptMessage): number {
	return estimateTokens(message.content) + MESSAGE_OVERHEAD_TOKENS;
}

export function estimatePromptTokens(messages: readonly PromptMessage[]): number {
	let total = PROMPT_OVERHEAD_TOKENS;
	for (const m of messages) total += estimateMessageTokens(m);
	return total;
}

/** The estimated-token budget that keeps a prompt within `budgetTokens` real tokens. */
export function safeBudget(budgetTokens: number): number {
	if (!Number.isFinite(budgetTokens) || budgetTokens <= 0) return 0;
	return Math.floor(budgetTokens * ESTIMATOR_WORST_RATIO);
}
