import { validateSettings } from "../../settings/settings";
import { budgetFor, setModelBudget } from "../../settings/budgetFor";
import type { PanelSettings } from "../host";
import { t } from "../../i18n";


export interface WindowOffer {
	text: string;
	/** The button's label, when the reported window is a valid context size with the other settings. */
	action?: string;
}

/**
 * What the panel says when the server names a window smaller than the context size in settings:
 * the retry may have worked, but every later prompt would be cut or refused again.
 */
export function windowOffer(settings: PanelSettings, reported: number, model = ""): WindowOffer {
	const budget = budgetFor(settings, model);
	const configured = budget.maxPromptTokens;
	const usable = validateSettings({ ...settings, ...budget, maxPromptTokens: reported }).length === 0;
	const vars = { reported: Math.round(reported), configured: Math.round(configured) };
	if (usable) return { text: t("window.offer", vars), action: t("window.use", vars) };
	return { text: t("window.tooSmall", vars) };
}

/**
 * Sets the context size to the server's window and saves it: as the model's own when the chat's
 * model is known (other models keep theirs), else the general one. Returns the sentence that
 * replaces the offer.
 */
export async function useReportedWindow(host: { settings: PanelSettings; saveSettings(): Promise<void> }, reported: number, model = ""): Promise<string> {
	if (model.trim() !== "") setModelBudget(host.settings, model, { maxPromptTokens: reported });
	else host.settings.maxPromptTokens = reported;
	await host.saveSettings();
	return t("window.set", { reported: Math.round(reported) });
}
