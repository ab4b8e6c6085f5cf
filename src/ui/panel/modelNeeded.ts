import type { PanelSettings } from "../host";
import { t } from "../../i18n";

/**
 * No model chosen yet (a fresh install): the server would only answer "model is required", which
 * reads as a broken request. The panel asks for a model instead, before anything is sent or saved.
 */
export function modelMissing(settings: Pick<PanelSettings, "model">): boolean {
	return settings.model.trim() === "";
}

/** Getters: read when shown, in the language set when the plugin loaded (after this module). */
export const MODEL_NEEDED = {
	get text(): string {
		return t("modelNeeded.text");
	},
	get action(): string {
		return t("modelNeeded.action");
	},
	/** Replaces the text once settings are open. */
	get opened(): string {
		return t("modelNeeded.opened");
	},
	/** This Obsidian has no settings window the plugin can open. */
	get noWindow(): string {
		return t("modelNeeded.noWindow");
	},
};
