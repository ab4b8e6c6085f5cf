// The images setting: what one image costs an Ollama model, for the budget (OpenAI and Anthropic
// price images by their own published rules, so they need no setting).
import { Setting } from "obsidian";
import { DEFAULT_SETTINGS, FIELD_LABELS, validateSettings } from "../../settings/settings";
import type { SettingsStore } from "./settingsBudget";
import { t } from "../../i18n";

export function imageSettings(containerEl: HTMLElement, host: SettingsStore): void {
	new Setting(containerEl)
		.setName(FIELD_LABELS.sendNoteImages)
		.setDesc(t("settings.sendNoteImagesDesc"))
		.addToggle((c) =>
			c.setValue(host.settings.sendNoteImages).onChange(async (on) => {
				host.settings.sendNoteImages = on;
				await host.saveSettings();
			}),
		);
	const setting = new Setting(containerEl).setName(FIELD_LABELS.ollamaImageTokens).setDesc(t("settings.ollamaImageTokensDesc"));
	const messageEl = setting.infoEl.createDiv({ cls: ["discover-chat-setting-message", "discover-chat-hidden"], attr: { role: "alert" } });
	setting.addText((c) => {
		c.setPlaceholder(String(DEFAULT_SETTINGS.ollamaImageTokens)).setValue(String(host.settings.ollamaImageTokens));
		c.inputEl.type = "number";
		c.inputEl.setAttr("aria-label", FIELD_LABELS.ollamaImageTokens);
		c.onChange(async (value) => {
			const n = value.trim() === "" ? Number.NaN : Number(value);
			const issue = validateSettings({ ...host.settings, ollamaImageTokens: n }).find((i) => i.field === "ollamaImageTokens");
			messageEl.setText(issue?.message ?? "");
			messageEl.toggleClass("discover-chat-hidden", !issue);
			if (issue) return;
			host.settings.ollamaImageTokens = n;
			await host.saveSettings();
		});
	});
}
