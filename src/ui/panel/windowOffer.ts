import { validateSettings } from "../../settings/settings";
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
export function windowOffer(settings: PanelSettings, reported: number): WindowOffer {
	const configured = settings.maxPromptTokens;
	const usable = validateSettings({ ...settings, maxPromptTokens: reported }).length === 0;
	const vars = { reported: Math.round(reported), configured: Math.round(configured) };
	if (usable) return { text: t("window.offer", vars), action: t("window.use", vars) };
	return { text: t("window.tooSmall", vars) };
}

/** Sets the context size to the server's window and saves it; the sentence that replaces the offer. */
export async function useReportedWindow(host: { settings: PanelSettings; saveSettings(): Promise<void> }, reported: number): Promise<string> {
	host.settings.maxPromptTokens = reported;
	await host.saveSettings();
	return t("window.set", { reported: Math.round(reported) });
}
