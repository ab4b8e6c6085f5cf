// Small pure formatters shared by the panel parts, kept apart so they are trivially testable.

import type { ContextInclusion as EngineContextInclusion } from "../chat/contextTrim";
import { formatPercent, t } from "../i18n";

/** How much of the note fits this turn, as the engine reports it. */
export type ContextFit = EngineContextInclusion;
export type ContextInclusion = ContextFit["included"];

export type MeterLevel = "ok" | "warn" | "danger";

/** Warning from 60% of the budget, danger from 80%. */
export function meterLevel(estimated: number, budget: number): MeterLevel {
	if (budget <= 0) return "danger";
	const ratio = estimated / budget;
	if (ratio >= 0.8) return "danger";
	if (ratio >= 0.6) return "warn";
	return "ok";
}

/** Never claim 100% or 0% for a partial fit: the person would read it as whole or nothing. */
export function partialPercent(fraction: number): number {
	return Math.min(99, Math.max(1, Math.floor(fraction * 100)));
}

/** The context chip's fit text: "whole note", "first 62%", "not included: budget full". */
export function contextFitLabel(fit: ContextFit, unit: "note" | "selection" = "note"): string {
	if (fit.included === "whole") return unit === "note" ? t("context.wholeNote") : t("context.wholeSelection");
	if (fit.included === "none") return t("context.budgetFull");
	return t("context.excerpts", { percent: formatPercent(partialPercent(fit.fraction)) });
}
