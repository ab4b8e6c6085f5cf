import { validateSettings } from "../../settings/settings";
import type { PanelSettings } from "../host";

const fmt = (n: number): string => Math.round(n).toLocaleString("en-US");

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
	if (usable) return { text: `The server's window is ${fmt(reported)} tokens, not ${fmt(configured)}. Use ${fmt(reported)}?`, action: `Use ${fmt(reported)}` };
	return { text: `The server's window is ${fmt(reported)} tokens, not ${fmt(configured)}. Lower the context size (and the answer's reserve) in settings, or load the model with a larger context.` };
}

/** Sets the context size to the server's window and saves it; the sentence that replaces the offer. */
export async function useReportedWindow(host: { settings: PanelSettings; saveSettings(): Promise<void> }, reported: number): Promise<string> {
	host.settings.maxPromptTokens = reported;
	await host.saveSettings();
	return `Context size set to ${fmt(reported)} tokens.`;
}
