// The budget a chat uses: its model's own settings over the general ones. A combination that
// fails the settings' checks (a model's reserve larger than the general window...) is not used:
// the general budget is, which the settings tab already validated.
import { generalBudget, type Budget, type BudgetField } from "./modelBudget";
import { validateSettings, type DiscoverSettings } from "./settings";

export function budgetFor(s: DiscoverSettings, model: string): Budget {
	const general = generalBudget(s);
	const own = s.modelBudgets[model.trim()];
	if (!own) return general;
	const merged: Budget = { ...general, ...own };
	const fields: readonly string[] = ["maxPromptTokens", "reservedResponseTokens", "recentMessagesToKeep", "minRecentMessagesToKeep"] satisfies BudgetField[];
	return validateSettings({ ...s, ...merged }).some((i) => fields.includes(i.field)) ? general : merged;
}

/** Saves `patch` as model `model`'s own budget (a field equal to nothing stays following the general one). */
export function setModelBudget(s: DiscoverSettings, model: string, patch: Partial<Budget>): void {
	const name = model.trim();
	if (name === "") return;
	s.modelBudgets = { ...s.modelBudgets, [name]: { ...s.modelBudgets[name], ...patch } };
}

/** Forgets model `model`'s own budget: it follows the general settings again. */
export function clearModelBudget(s: DiscoverSettings, model: string): void {
	const { [model.trim()]: _dropped, ...rest } = s.modelBudgets;
	s.modelBudgets = rest;
}
