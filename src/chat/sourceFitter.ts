// The contract between the budget (sourceBudget.ts) and whatever fits one source into its share.
// The shapes match src/context/relevanceFit.ts's `fitSource`, so that fitter plugs in unchanged;
// they are declared here so the engine does not depend on it.
import type { EstimateFn } from "./promptCost";
import type { SentPassage } from "../core/types";

export interface FitInput {
	id: string;
	name: string;
	text: string;
}

export interface FittedSource {
	/** What to send in place of the source's text (excerpts joined with gap marks, a cut note…). */
	text: string;
	sentTokens: number;
	totalTokens: number;
	fit: "whole" | "excerpts" | "none";
	/** The ranges of the source's text that `text` carries, in document order. */
	passages: SentPassage[];
}

/**
 * Fits `source` into `budgetTokens` (estimated with `estimate`), choosing what to keep by `query`
 * (the person's message and the last few turns). The caller re-checks the result: a fitter that
 * overshoots costs its source, never the budget.
 */
export type SourceFitter = (source: FitInput, budgetTokens: number, query: string, estimate: EstimateFn) => FittedSource;
