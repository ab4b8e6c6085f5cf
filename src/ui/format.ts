// Small pure formatters shared by the panel parts, kept apart so they are trivially testable.

import type { ContextInclusion as EngineContextInclusion } from "../chat/contextTrim";

/** How much of the note fits this turn, as the engine reports it. */
export type ContextFit = EngineContextInclusion;
export type ContextInclusion = ContextFit["included"];

/** 950 → "950", 3140 → "3.1k", 12500 → "12.5k", 130000 → "130k". */
export function formatTokens(tokens: number): string {
	const n = Math.max(0, Math.round(tokens));
	if (n < 1000) return String(n);
	const k = n / 1000;
	// One decimal below 100k is readable; above it the decimal is noise.
	const text = k < 100 ? (Math.round(k * 10) / 10).toFixed(1) : String(Math.round(k));
	return `${text.replace(/\.0$/, "")}k`;
}

export type MeterLevel = "ok" | "warn" | "danger";

/** Warning from 60% of the budget, danger from 80%. */
export function meterLevel(estimated: number, budget: number): MeterLevel {
	if (budget <= 0) return "danger";
	const ratio = estimated / budget;
	if (ratio >= 0.8) return "danger";
	if (ratio >= 0.6) return "warn";
	return "ok";
}

/** The context chip's fit text: "whole note", "first 62%", "not included: budget full". */
export function contextFitLabel(fit: ContextFit, unit = "note"): string {
	if (fit.included === "whole") return `whole ${unit}`;
	if (fit.included === "none") return "not included: budget full";
	// Never claim 100% or 0% for a partial fit: the person would read it as whole or nothing.
	const percent = Math.min(99, Math.max(1, Math.floor(fit.fraction * 100)));
	return `first ${percent}%`;
}

/**
 * When a message or chat was written, in the person's locale (`Intl`: the system's, unless `locale`
 * names one): today the time alone ("7:51 AM" in the US, "07:51" in Germany), earlier the date with
 * it. The locale decides the clock (12 or 24 hours) and the order of the parts.
 */
export function formatWhen(iso: string, now: Date = new Date(), locale?: string): string {
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return "";
	const today = date.toDateString() === now.toDateString();
	return new Intl.DateTimeFormat(locale, today ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" }).format(date);
}
