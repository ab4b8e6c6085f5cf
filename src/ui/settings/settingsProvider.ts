// Provider settings: provider, base URL, API key (secret storage), model (list from the server,
// with refresh, and "Other…" for a name it does not list) and Test connection with its diagnosis shown inline.
import { debounce, SecretComponent, Setting, type App, type TextComponent } from "obsidian";
import { DEFAULT_BASE_URLS, PROVIDERS, type ConnectionDiagnosis, type ModelInfo, type ProviderName } from "../../providers/types";
import { FIELD_LABELS, isHttpUrl, type DiscoverSettings } from "../../settings/settings";
import type { SettingsStore } from "./settingsBudget";
import { t } from "../../i18n";
import { ModelPicker } from "./modelPicker";
import { appendSaid } from "../saidDetails";
import { connectionText } from "../engine/connectionText";
import { errorLine } from "../engine/errorLine";

/** What the settings tab asks of a provider adapter. */
export interface SettingsAdapter {
	listModels(signal?: AbortSignal): Promise<ModelInfo[]>;
	modelContextLength(model: string, signal?: AbortSignal): Promise<number | undefined>;
	testConnection(signal?: AbortSignal): Promise<ConnectionDiagnosis>;
}

export type SettingsAdapterFactory = (app: App, settings: DiscoverSettings) => Promise<SettingsAdapter>;

/** The provider dropdown's names, in the person's language (read when the tab is drawn). */
function providerNames(): Record<ProviderName, string> {
	return { ollama: t("provider.ollama"), openai: t("settings.providerOpenai"), anthropic: t("provider.anthropic") };
}

function message(settingEl: Setting): HTMLElement {
	return settingEl.infoEl.createDiv({ cls: ["discover-chat-setting-message", "discover-chat-hidden"], attr: { role: "status" } });
}

function show(el: HTMLElement, text: string, kind: "error" | "ok" | "info"): void {
	el.setText(text);
	el.toggleClass("discover-chat-hidden", text === "");
	el.toggleClass("mod-ok", kind === "ok");
	el.toggleClass("mod-info", kind === "info");
}

export class ProviderSection {
	private controller = new AbortController();
	private modelPicker: ModelPicker | null = null;
	private modelMessage: HTMLElement | null = null;
	/** The server's last model list; a listed context length saves asking again. */
	private models: ModelInfo[] = [];
	/** Only the latest listing may fill the dropdown (an older, slower one may finish last). */
	private listing = 0;
	// Typing (an address, a model name) asks the server only once the person pauses.
	private readonly refreshSoon = debounce(() => void this.refreshModels(), 600, true);
	private readonly lookUpSoon = debounce(() => void this.lookUpContextLength(), 600, true);

	constructor(
		private readonly app: App,
		private readonly store: SettingsStore,
		private readonly makeAdapter: SettingsAdapterFactory,
		/** Told the selected model's context length when the server reports one (and which model it is for). */
		private readonly onContextLength: (tokens: number | undefined, model: string) => void,
	) {}

	private get s(): DiscoverSettings {
		return this.store.settings;
	}

	render(containerEl: HTMLElement): void {
		this.dispose();
		this.controller = new AbortController();

		let urlText: TextComponent | null = null;
		new Setting(containerEl)
			.setName(FIELD_LABELS.provider)
			.setDesc(t("settings.providerDesc"))
			.addDropdown((d) =>
				d
					.addOptions(providerNames())
					.setValue(this.s.provider)
					.onChange(async (value) => {
						if (!(PROVIDERS as readonly string[]).includes(value)) return;
						const previous = this.s.provider;
						this.s.provider = value as ProviderName;
						// Follow the provider's usual address unless the person typed their own.
						if (!this.s.baseUrl.trim() || this.s.baseUrl === DEFAULT_BASE_URLS[previous]) {
							this.s.baseUrl = DEFAULT_BASE_URLS[this.s.provider];
							urlText?.setValue(this.s.baseUrl);
						}
						urlText?.setPlaceholder(DEFAULT_BASE_URLS[this.s.provider]);
						await this.store.saveSettings();
						void this.refreshModels();
					}),
			);

		const urlSetting = new Setting(containerEl).setName(FIELD_LABELS.baseUrl).setDesc(t("settings.baseUrlDesc"));
		const urlMessage = message(urlSetting);
		urlSetting.addText((c) => {
			urlText = c;
			c.setPlaceholder(DEFAULT_BASE_URLS[this.s.provider]).setValue(this.s.baseUrl);
			c.inputEl.type = "url";
			c.inputEl.setAttr("aria-label", FIELD_LABELS.baseUrl);
			c.onChange(async (value) => {
				const url = value.trim();
				if (!isHttpUrl(url)) {
					show(urlMessage, t("valid.baseUrl"), "error");
					return;
				}
				show(urlMessage, "", "error");
				this.s.baseUrl = url;
				await this.store.saveSettings();
				this.refreshSoon();
			});
		});

		new Setting(containerEl)
			.setName(FIELD_LABELS.apiKeySecret)
			.setDesc(t("settings.apiKeyDesc"))
			.addComponent((el) =>
				new SecretComponent(this.app, el).setValue(this.s.apiKeySecret).onChange(async (name) => {
					this.s.apiKeySecret = name;
					await this.store.saveSettings();
					void this.refreshModels();
				}),
			);

		const modelSetting = new Setting(containerEl).setName(FIELD_LABELS.model).setDesc(t("settings.modelDesc"));
		this.modelMessage = message(modelSetting);
		this.modelPicker = new ModelPicker(modelSetting, () => this.s.model, (model) => void this.chooseModel(model));
		modelSetting.addExtraButton((b) => b.setIcon("refresh-cw").setTooltip(t("settings.refreshModels")).onClick(() => void this.refreshModels()));
		if (!isHttpUrl(this.s.baseUrl)) this.modelPicker.fill([], "failed");

		const testSetting = new Setting(containerEl).setName(t("settings.testConnection")).setDesc(t("settings.testConnectionDesc"));
		const testMessage = message(testSetting);
		testSetting.addButton((b) =>
			b.setButtonText(t("settings.testConnection")).onClick(async () => {
				b.setDisabled(true);
				show(testMessage, t("settings.testing"), "info");
				const signal = this.controller.signal;
				try {
					const adapter = await this.makeAdapter(this.app, this.s);
					const d = await adapter.testConnection(signal);
					if (signal.aborted) return;
					const found = connectionText(d);
					const text = d.ok && d.latencyMs !== undefined ? t("settings.latency", { message: found.text, ms: Math.round(d.latencyMs) }) : found.text;
					show(testMessage, text, d.ok ? "ok" : "error");
					if (found.said) appendSaid(testMessage, found.said);
				} catch (e) {
					if (!signal.aborted) {
						const failed = errorLine(e);
						show(testMessage, failed.text, "error");
						if (failed.said) appendSaid(testMessage, failed.said);
					}
				} finally {
					b.setDisabled(false);
				}
			}),
		);

		if (isHttpUrl(this.s.baseUrl)) void this.refreshModels();
	}

	/** Lists the server's models; a failure is shown inline and typing a name still works. */
	async refreshModels(): Promise<void> {
		const signal = this.controller.signal;
		const messageEl = this.modelMessage;
		if (!messageEl) return;
		const run = ++this.listing;
		const stale = (): boolean => signal.aborted || run !== this.listing;
		show(messageEl, t("settings.loadingModels"), "info");
		this.modelPicker?.fill(this.models, "loading");
		try {
			const adapter = await this.makeAdapter(this.app, this.s);
			const models = await adapter.listModels(signal);
			if (stale()) return;
			this.models = models;
			this.modelPicker?.fill(models, "listed");
			show(messageEl, models.length ? "" : t("settings.noModelsType"), "info");
			await this.lookUpContextLength();
		} catch (e) {
			if (stale()) return;
			this.models = [];
			this.modelPicker?.fill([], "failed");
			const failed = errorLine(e);
			show(messageEl, t("models.listFailed", { error: failed.text }), "error");
			if (failed.said) appendSaid(messageEl, failed.said);
			this.onContextLength(undefined, this.s.model);
		}
	}

	private async chooseModel(model: string): Promise<void> {
		this.s.model = model;
		await this.store.saveSettings();
		// Typed names are looked up once the person pauses; a chosen one at once.
		if (this.models.some((m) => m.id === model)) await this.lookUpContextLength();
		else this.lookUpSoon();
	}

	private async lookUpContextLength(): Promise<void> {
		const model = this.s.model;
		if (!model) return this.onContextLength(undefined, model);
		const listed = this.models.find((m) => m.id === model)?.contextLength;
		if (listed !== undefined) return this.onContextLength(listed, model);
		const signal = this.controller.signal;
		try {
			const adapter = await this.makeAdapter(this.app, this.s);
			const tokens = await adapter.modelContextLength(model, signal);
			if (!signal.aborted && this.s.model === model) this.onContextLength(tokens, model);
		} catch {
			if (!signal.aborted) this.onContextLength(undefined, model);
		}
	}

	/** Stops requests in flight; their late answers are dropped. */
	dispose(): void {
		this.controller.abort();
		this.refreshSoon.cancel();
		this.lookUpSoon.cancel();
	}
}
