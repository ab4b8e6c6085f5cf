import type { PanelSettings } from "../host";

/**
 * No model chosen yet (a fresh install): the server would only answer "model is required", which
 * reads as a broken request. The panel asks for a model instead, before anything is sent or saved.
 */
export function modelMissing(settings: Pick<PanelSettings, "model">): boolean {
	return settings.model.trim() === "";
}

export const MODEL_NEEDED = {
	text: "Choose a model to chat with first: pick one of your server's models in settings. Your message stays in the input.",
	action: "Open settings",
	/** Replaces the text once settings are open. */
	opened: "Pick a model in the settings, then send your message again.",
	/** This Obsidian has no settings window the plugin can open. */
	noWindow: "Open Settings → Discover, pick a model, then send your message again.",
} as const;
