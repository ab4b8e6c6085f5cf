// The vault search section of the settings tab: the switch for the whole feature (the index and
// `@vault`) and the folders it leaves out.
import { Setting } from "obsidian";
import { FIELD_LABELS, INDEX_NOTE_LIMIT_MB, validateSettings, type DiscoverSettings } from "../../settings/settings";
import type { SettingsStore } from "./settingsBudget";
import { t } from "../../i18n";

/** One folder a line; blank lines and surrounding spaces and slashes do not count. */
export function parseFolderList(text: string): string[] {
	const folders = text
		.split("\n")
		.map((line) => line.trim().replace(/^\/+|\/+$/g, ""))
		.filter((line) => line !== "");
	return [...new Set(folders)];
}

export function vaultSearchSection(containerEl: HTMLElement, host: SettingsStore): void {
	const s = (): DiscoverSettings => host.settings;
	new Setting(containerEl).setName(t("settings.vaultHeading")).setHeading();
	new Setting(containerEl)
		.setName(FIELD_LABELS.vaultIndex)
		.setDesc(t("settings.vaultIndexDesc"))
		.addToggle((t) =>
			t.setValue(s().vaultIndex).onChange(async (on) => {
				s().vaultIndex = on;
				await host.saveSettings();
			}),
		);
	const setting = new Setting(containerEl)
		.setName(FIELD_LABELS.indexExcludedFolders)
		.setDesc(t("settings.excludedFoldersDesc"));
	const messageEl = setting.infoEl.createDiv({ cls: ["discover-chat-setting-message", "discover-chat-hidden"], attr: { role: "alert" } });
	setting.addTextArea((t) => {
		t.setValue(s().indexExcludedFolders.join("\n"));
		t.inputEl.rows = 3;
		t.inputEl.setAttr("aria-label", FIELD_LABELS.indexExcludedFolders);
		t.onChange(async (value) => {
			const folders = parseFolderList(value);
			const issue = validateSettings({ ...s(), indexExcludedFolders: folders }).find((i) => i.field === "indexExcludedFolders");
			messageEl.setText(issue?.message ?? "");
			messageEl.toggleClass("discover-chat-hidden", !issue);
			if (issue) return;
			s().indexExcludedFolders = folders;
			await host.saveSettings();
		});
	});
	const limit = new Setting(containerEl).setName(FIELD_LABELS.indexNoteLimitMb).setDesc(t("settings.indexNoteLimitDesc"));
	const limitMessageEl = limit.infoEl.createDiv({ cls: ["discover-chat-setting-message", "discover-chat-hidden"], attr: { role: "alert" } });
	limit.addText((text) => {
		text.inputEl.type = "number";
		text.inputEl.min = String(INDEX_NOTE_LIMIT_MB.min);
		text.inputEl.max = String(INDEX_NOTE_LIMIT_MB.max);
		text.inputEl.setAttr("aria-label", FIELD_LABELS.indexNoteLimitMb);
		text.setValue(String(s().indexNoteLimitMb));
		text.onChange(async (value) => {
			const mb = value.trim() === "" ? NaN : Number(value);
			const issue = validateSettings({ ...s(), indexNoteLimitMb: mb }).find((i) => i.field === "indexNoteLimitMb");
			limitMessageEl.setText(issue?.message ?? "");
			limitMessageEl.toggleClass("discover-chat-hidden", !issue);
			// A bad value is shown as such and not saved: the limit in use stays.
			if (issue) return;
			s().indexNoteLimitMb = mb;
			await host.saveSettings();
		});
	});
}
