// Token estimation without a tokenizer: a branchless linear model over character classes (script
// or kind), their neighbours and the position in a run (tokenFast.ts), with weights fitted against
// exact o200k counts (tokenModel.ts). The fit punishes undercounts more than overcounts, because an
// undercount is what overflows a prompt.

import { modelTokens } from "./tokenFast";

/**
 * Estimated o200k-style token count of `text`: one pass over char codes, no allocation.
 * Always ≥ 0, 0 for "", at least 1 for any other text, never NaN.
 */
export function estimateTokens(text: string): number {
	return text.length === 0 ? 0 : Math.max(1, Math.ceil(modelTokens(text)));
}

/**
 * Lowest estimate/o200k ratio measured on any sample (dev corpus, other scripts and the dense texts'
 * both splits: 0.882, an ASCII table), rounded down with headroom. Seeded synthetic texts go lower
 * (0.667 on run-together words of six tokens, 0.787 on base64): a class model cannot see where a
 * run of letters splits. Words of random letters in scripts the fit never saw stay above 0.8
 * (tokens.classes.test.ts). Fitting a prompt into `budget × this` estimated tokens keeps it within
 * `budget` real tokens. bench/tokens.ts prints the measured lowest ratio; tokens.test.ts fails if
 * any sample falls below this.
 */
export const ESTIMATOR_WORST_RATIO = 0.85;

/**
 * The estimated-token budget that keeps a prompt within `budgetTokens` real tokens. `keep`: the
 * share that may be used, ESTIMATOR_WORST_RATIO before the model's counts are known, its learned
 * margin's `keep` after (safetyMargin.ts).
 */
export function safeBudget(budgetTokens: number, keep: number = ESTIMATOR_WORST_RATIO): number {
	if (!Number.isFinite(budgetTokens) || budgetTokens <= 0) return 0;
	const share = Number.isFinite(keep) ? Math.min(1, Math.max(0, keep)) : ESTIMATOR_WORST_RATIO;
	return Math.floor(budgetTokens * share);
}
