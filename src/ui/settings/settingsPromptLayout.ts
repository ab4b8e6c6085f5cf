// The "Prompt layout" row (settings/promptLayout.ts): answer faster on a local server by letting it
// reuse its prompt cache, or fill the window on every turn.
import { Setting } from "obsidian";
import { FIELD_LABELS, type DiscoverSettings } from "../../settings/settings";
import { isPromptLayout, type PromptLayout } from "../../settings/promptLayout";
import { t, type PlainKey } from "../../i18n";

const OPTION_KEYS: Record<PromptLayout, PlainKey> = {
	auto: "settings.promptLayoutAuto",
	cache: "settings.promptLayoutCache",
	window: "settings.promptLayoutWindow",
};

export function renderPromptLayout(containerEl: HTMLElement, store: { readonly settings: DiscoverSettings; saveSettings(): Promise<void> }): void {
	new Setting(containerEl)
		.setName(FIELD_LABELS.promptLayout)
		.setDesc(t("settings.promptLayoutDesc"))
		.addDropdown((d) => {
			for (const layout of Object.keys(OPTION_KEYS) as PromptLayout[]) d.addOption(layout, t(OPTION_KEYS[layout]));
			d.setValue(store.settings.promptLayout).onChange(async (value) => {
				store.settings.promptLayout = isPromptLayout(value) ? value : "auto";
				await store.saveSettings();
			});
		});
}
