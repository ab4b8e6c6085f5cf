// Discover's settings tab: model and connection, the conversation budget, chat and storage.
import { Notice, PluginSettingTab, Setting, type App, type Plugin } from "obsidian";
import { promptBudget } from "../../chat/chatSettings";
import { estimateTokens } from "../../chat/tokens";
import { DEFAULT_SETTINGS, FIELD_LABELS, validateSettings, type DiscoverSettings } from "../../settings/settings";
import { BudgetSection, type SettingsStore } from "./settingsBudget";
import { renderPromptLayout } from "./settingsPromptLayout";
import { ProviderSection, type SettingsAdapterFactory } from "./settingsProvider";
import { ToolsSection } from "./settingsTools";
import { PricesSection } from "./settingsPrices";
import { AgentsSection } from "./settingsAgents";
import { McpSection } from "./settingsMcp";
import { ModelBudgetsSection } from "./settingsModelBudgets";
import { UseContextLength } from "./useContextLength";
import { t } from "../../i18n";
import { vaultSearchSection } from "./settingsVaultSearch";
import { imageSettings } from "./settingsImages";

/** The real adapter, loaded when the tab first needs it so the plugin's onload stays small. */

type FolderField = "sessionsFolder" | "exportFolder";

export class DiscoverSettingTab extends PluginSettingTab {
	private readonly budget: BudgetSection;
	private readonly provider: ProviderSection;
	private readonly tools: ToolsSection;
	private readonly prices: PricesSection;
	private readonly agents: AgentsSection;
	private readonly mcp: McpSection;
	private readonly modelBudgets: ModelBudgetsSection;
	// Typed as the store, not as Plugin: Plugin.settings (1.13) is not what we read here.
	private readonly host: SettingsStore;
	private readonly useContextLength: UseContextLength;
	private promptSizeEl: HTMLElement | null = null;

	constructor(app: App, plugin: Plugin & SettingsStore, makeAdapter: SettingsAdapterFactory) {
		super(app, plugin);
		this.host = plugin;
		this.budget = new BudgetSection(plugin, () => this.showPromptSize());
		this.provider = new ProviderSection(app, plugin, makeAdapter, (tokens, model) => this.useContextLength.show(tokens, model));
		this.tools = new ToolsSection(plugin, (message) => new Notice(message));
		this.prices = new PricesSection(plugin, (message) => new Notice(message));
		this.agents = new AgentsSection(plugin, (message) => new Notice(message));
		this.mcp = new McpSection(app, plugin);
		this.modelBudgets = new ModelBudgetsSection(plugin);
		// The server's context length goes into the model's own budget, shown in the section below.
		this.useContextLength = new UseContextLength(plugin, () => this.modelBudgets.refresh());
	}

	private get s(): DiscoverSettings {
		return this.host.settings;
	}

	override display(): void {
		this.redraw();
	}

	/** Draws the tab afresh. Obsidian calls display() when the tab opens (calling it is deprecated since 1.13). */
	redraw(): void {
		const { containerEl } = this;
		containerEl.empty();
		containerEl.addClass("discover-chat-settings");
		this.useContextLength.detach();

		new Setting(containerEl).setName(t("settings.modelHeading")).setHeading();
		this.provider.render(containerEl);

		new Setting(containerEl)
			.setName(t("settings.budgetHeading"))
			.setDesc(t("settings.budgetDesc"))
			.setHeading();
		this.budget.render(containerEl, (field, setting) => {
			if (field === "maxPromptTokens") this.useContextLength.attach(setting);
		});

		renderPromptLayout(containerEl, this.host);

		this.modelBudgets.render(containerEl);

		new Setting(containerEl).setName(t("settings.chatHeading")).setHeading();
		new Setting(containerEl)
			.setName(FIELD_LABELS.includeActiveNote)
			.setDesc(t("settings.includeNoteDesc"))
			.addToggle((c) =>
				c.setValue(this.s.includeActiveNote).onChange(async (on) => {
					this.s.includeActiveNote = on;
					await this.host.saveSettings();
				}),
			);
		new Setting(containerEl)
			.setName(FIELD_LABELS.loadRemoteImages)
			.setDesc(t("settings.remoteImagesDesc"))
			.addToggle((c) =>
				c.setValue(this.s.loadRemoteImages).onChange(async (on) => {
					this.s.loadRemoteImages = on;
					await this.host.saveSettings();
				}),
			);
		new Setting(containerEl)
			.setName(FIELD_LABELS.sendKey)
			.setDesc(t("settings.sendWithDesc"))
			.addDropdown((d) =>
				d
					.addOption("enter", t("settings.sendEnter"))
					.addOption("mod-enter", t("settings.sendModEnter"))
					.setValue(this.s.sendKey)
					.onChange(async (value) => {
						this.s.sendKey = value === "mod-enter" ? "mod-enter" : "enter";
						await this.host.saveSettings();
					}),
			);
		new Setting(containerEl)
			.setName(FIELD_LABELS.systemPrompt)
			.setDesc(t("settings.systemPromptDesc"))
			// Full width under its name: a prompt is several lines long.
			.setClass("discover-chat-setting-stacked")
			// The reset sits in the box's corner, so the box takes the row's whole width.
			.setClass("discover-chat-setting-prompt")
			.then((setting) => {
				this.promptSizeEl = setting.infoEl.createDiv({ cls: ["discover-chat-setting-message", "mod-info"], attr: { role: "status" } });
			})
			.addTextArea((c) => {
				c.setValue(this.s.systemPrompt).onChange(async (value) => {
					this.s.systemPrompt = value;
					this.showPromptSize();
					await this.host.saveSettings();
				});
				c.inputEl.rows = 6;
				c.inputEl.addClass("discover-chat-settings-prompt");
				c.inputEl.setAttr("aria-label", FIELD_LABELS.systemPrompt);
			})
			.addExtraButton((b) =>
				b
					.setIcon("rotate-ccw")
					.setTooltip(t("settings.restorePrompt"))
					.onClick(async () => {
						this.s.systemPrompt = DEFAULT_SETTINGS.systemPrompt;
						await this.host.saveSettings();
						this.redraw();
					}),
			);

		this.showPromptSize();

		// Images under a heading of their own, after the chat's settings (they were under Storage).
		new Setting(containerEl).setName(t("settings.imagesHeading")).setHeading();
		imageSettings(containerEl, this.host);

		this.tools.render(containerEl);
		this.prices.render(containerEl);
		this.agents.render(containerEl);
		this.mcp.dispose();
		this.mcp.render(containerEl);

		new Setting(containerEl).setName(t("settings.storageHeading")).setHeading();
		this.folderSetting(containerEl, "sessionsFolder", t("settings.chatsFolderDesc"));
		this.folderSetting(containerEl, "exportFolder", t("settings.exportFolderDesc"));
		new Setting(containerEl)
			.setName(FIELD_LABELS.includeThinkingInExports)
			.setDesc(t("settings.thinkingDesc"))
			.addToggle((c) =>
				c.setValue(this.s.includeThinkingInExports).onChange(async (on) => {
					this.s.includeThinkingInExports = on;
					await this.host.saveSettings();
				}),
			);
		vaultSearchSection(containerEl, this.host);
	}

	private folderSetting(containerEl: HTMLElement, field: FolderField, desc: string): void {
		const setting = new Setting(containerEl).setName(FIELD_LABELS[field]).setDesc(desc);
		const messageEl = setting.infoEl.createDiv({ cls: ["discover-chat-setting-message", "discover-chat-hidden"], attr: { role: "alert" } });
		setting.addText((c) => {
			c.setPlaceholder(DEFAULT_SETTINGS[field]).setValue(this.s[field]);
			c.inputEl.setAttr("aria-label", FIELD_LABELS[field]);
			c.onChange(async (value) => {
				const folder = value.trim();
				const issue = validateSettings({ ...this.s, [field]: folder }).find((i) => i.field === field);
				messageEl.setText(issue?.message ?? "");
				messageEl.toggleClass("discover-chat-hidden", !issue);
				if (issue) return;
				this.s[field] = folder;
				await this.host.saveSettings();
			});
		});
	}

	/** The instructions are sent with every message: say how much of the budget they take. */
	private showPromptSize(): void {
		const el = this.promptSizeEl;
		if (!el) return;
		const tokens = estimateTokens(this.s.systemPrompt);
		const budget = promptBudget(this.s);
		const heavy = tokens > budget / 2;
		el.setText(
			heavy
				? t("settings.promptSizeHeavy", { tokens, budget })
				: t("settings.promptSize", { tokens, budget }),
		);
		el.toggleClass("mod-info", !heavy);
	}

	override hide(): void {
		this.provider.dispose();
		this.mcp.dispose();
		super.hide();
	}
}
