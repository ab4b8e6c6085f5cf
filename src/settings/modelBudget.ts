// The budget settings kept per model: a model's own context size (and the three others) override
// the general ones, so switching a chat to a smaller model does not send it a prompt sized for a
// larger one. Engine-safe (no 'obsidian'); the settings tab edits them, and a window the server
// reports is saved for the model that reported it.
import type { ChatSettings } from "../core/types";

export const BUDGET_FIELDS = ["maxPromptTokens", "reservedResponseTokens", "recentMessagesToKeep", "minRecentMessagesToKeep"] as const;
export type BudgetField = (typeof BUDGET_FIELDS)[number];
export type Budget = Pick<ChatSettings, BudgetField>;
/** A model's overrides: the fields it sets; the others follow the general settings. */
export type ModelBudget = Partial<Budget>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Saved per-model budgets: model names to objects whose known fields are finite numbers. */
export function isModelBudgets(value: unknown): value is Record<string, ModelBudget> {
	if (!isObject(value)) return false;
	return Object.entries(value).every(
		([model, budget]) => model.trim() !== "" && isObject(budget) && BUDGET_FIELDS.every((f) => budget[f] === undefined || (typeof budget[f] === "number" && Number.isFinite(budget[f]))),
	);
}

/** The general budget fields of `s`. */
export function generalBudget(s: Budget): Budget {
	return { maxPromptTokens: s.maxPromptTokens, reservedResponseTokens: s.reservedResponseTokens, recentMessagesToKeep: s.recentMessagesToKeep, minRecentMessagesToKeep: s.minRecentMessagesToKeep };
}
