// The vault search section of the settings tab: the switch for the whole feature (the index and
// `@vault`), whether PDFs join it, and the folders it leaves out.
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

type CheckedField = "indexExcludedFolders" | "indexNoteLimitMb";

/** Shows a field's problem under its setting, or saves the value when it has none (the value in use stays until then). */
async function saveIfValid<F extends CheckedField>(host: SettingsStore, messageEl: HTMLElement, field: F, value: DiscoverSettings[F]): Promise<void> {
	const issue = validateSettings({ ...host.settings, [field]: value }).find((i) => i.field === field);
	messageEl.setText(issue?.message ?? "");
	messageEl.toggleClass("discover-chat-hidden", !issue);
	if (issue) return;
	host.settings[field] = value;
	await host.saveSettings();
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
	new Setting(containerEl)
		.setName(FIELD_LABELS.indexPdfs)
		.setDesc(t("settings.indexPdfsDesc"))
		.addToggle((t) =>
			t.setValue(s().indexPdfs).onChange(async (on) => {
				s().indexPdfs = on;
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
		t.onChange((value) => saveIfValid(host, messageEl, "indexExcludedFolders", parseFolderList(value)));
	});
	const limit = new Setting(containerEl).setName(FIELD_LABELS.indexNoteLimitMb).setDesc(t("settings.indexNoteLimitDesc"));
	const limitMessageEl = limit.infoEl.createDiv({ cls: ["discover-chat-setting-message", "discover-chat-hidden"], attr: { role: "alert" } });
	limit.addText((text) => {
		text.inputEl.type = "number";
		text.inputEl.min = String(INDEX_NOTE_LIMIT_MB.min);
		text.inputEl.max = String(INDEX_NOTE_LIMIT_MB.max);
		text.inputEl.setAttr("aria-label", FIELD_LABELS.indexNoteLimitMb);
		text.setValue(String(s().indexNoteLimitMb));
		text.onChange((value) => saveIfValid(host, limitMessageEl, "indexNoteLimitMb", value.trim() === "" ? NaN : Number(value)));
	});
}
