// The contract between the budget (sourceBudget.ts) and whatever fits one source into its share:
// the shapes of src/context/relevanceFit.ts's `fitSource`, the default fitter.
import type { EstimateFn } from "./promptCost";
import type { FitInput, FittedSource } from "../context/relevanceFit";

export type { FitInput, FittedSource };

/**
 * Fits `source` into `budgetTokens` (estimated with `estimate`), choosing what to keep by `query`
 * (the person's message and the last few turns). The caller re-checks the result: a fitter that
 * overshoots costs its source, never the budget.
 */
export type SourceFitter = (source: FitInput, budgetTokens: number, query: string, estimate: EstimateFn) => FittedSource;
