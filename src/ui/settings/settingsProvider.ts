// Provider settings: provider, base URL, API key (secret storage), model (list from the server,
// with refresh and free text) and Test connection with its diagnosis shown inline.
import { debounce, SecretComponent, Setting, type App, type DropdownComponent, type TextComponent } from "obsidian";
import { DEFAULT_BASE_URLS, PROVIDERS, type ConnectionDiagnosis, type ModelInfo, type ProviderName } from "../../providers/types";
import { FIELD_LABELS, isHttpUrl, type DiscoverSettings } from "../../settings/settings";
import type { SettingsStore } from "./settingsBudget";

/** What the settings tab asks of a provider adapter. */
export interface SettingsAdapter {
	listModels(signal?: AbortSignal): Promise<ModelInfo[]>;
	modelContextLength(model: string, signal?: AbortSignal): Promise<number | undefined>;
	testConnection(signal?: AbortSignal): Promise<ConnectionDiagnosis>;
}

export type SettingsAdapterFactory = (app: App, settings: DiscoverSettings) => Promise<SettingsAdapter>;

const PROVIDER_NAMES: Record<ProviderName, string> = {
	ollama: "Ollama",
	openai: "OpenAI-compatible (OpenAI, LM Studio, llama.cpp, vLLM)",
	anthropic: "Anthropic",
};

function errorText(e: unknown): string {
	return e instanceof Error ? e.message : String(e);
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
	private modelDropdown: DropdownComponent | null = null;
	private modelText: TextComponent | null = null;
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
		/** Told the selected model's context length when the server reports one. */
		private readonly onContextLength: (tokens: number | undefined) => void,
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
			.setDesc("Where your model runs. Ollama runs models on this computer.")
			.addDropdown((d) =>
				d
					.addOptions(PROVIDER_NAMES)
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

		const urlSetting = new Setting(containerEl).setName(FIELD_LABELS.baseUrl).setDesc("The server's address. For OpenAI-compatible servers, include /v1.");
		const urlMessage = message(urlSetting);
		urlSetting.addText((t) => {
			urlText = t;
			t.setPlaceholder(DEFAULT_BASE_URLS[this.s.provider]).setValue(this.s.baseUrl);
			t.inputEl.setAttr("aria-label", FIELD_LABELS.baseUrl);
			t.onChange(async (value) => {
				const url = value.trim();
				if (!isHttpUrl(url)) {
					show(urlMessage, "Enter an address starting with http:// or https://, such as http://localhost:11434.", "error");
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
			.setDesc("Kept in Obsidian's secret storage, never in the plugin's data file. Ollama needs none.")
			.addComponent((el) =>
				new SecretComponent(this.app, el).setValue(this.s.apiKeySecret).onChange(async (name) => {
					this.s.apiKeySecret = name;
					await this.store.saveSettings();
					void this.refreshModels();
				}),
			);

		const modelSetting = new Setting(containerEl).setName(FIELD_LABELS.model).setDesc("Pick a model the server has, or type its name.");
		this.modelMessage = message(modelSetting);
		modelSetting
			.addDropdown((d) => {
				this.modelDropdown = d;
				d.selectEl.setAttr("aria-label", "Models on the server");
				this.fillModels([]);
				d.onChange((value) => void this.chooseModel(value));
			})
			.addExtraButton((b) => b.setIcon("refresh-cw").setTooltip("Refresh the model list").onClick(() => void this.refreshModels()))
			.addText((t) => {
				this.modelText = t;
				t.setPlaceholder("Model name").setValue(this.s.model);
				t.inputEl.setAttr("aria-label", "Model name");
				t.onChange(async (value) => {
					const model = value.trim();
					this.s.model = model;
					const d = this.modelDropdown;
					if (d && Array.from(d.selectEl.options).some((o) => o.value === model)) d.setValue(model);
					await this.store.saveSettings();
					this.lookUpSoon();
				});
			});

		const testSetting = new Setting(containerEl).setName("Test connection").setDesc("Checks the server, the API key and the model.");
		const testMessage = message(testSetting);
		testSetting.addButton((b) =>
			b.setButtonText("Test connection").onClick(async () => {
				b.setDisabled(true);
				show(testMessage, "Testing…", "info");
				const signal = this.controller.signal;
				try {
					const adapter = await this.makeAdapter(this.app, this.s);
					const d = await adapter.testConnection(signal);
					if (signal.aborted) return;
					const latency = d.ok && d.latencyMs !== undefined ? ` (${Math.round(d.latencyMs)} ms)` : "";
					show(testMessage, `${d.message}${latency}`, d.ok ? "ok" : "error");
				} catch (e) {
					if (!signal.aborted) show(testMessage, errorText(e), "error");
				} finally {
					b.setDisabled(false);
				}
			}),
		);

		if (isHttpUrl(this.s.baseUrl)) void this.refreshModels();
	}

	/** `listed`: the server answered; only then can a model be said to be missing from it. */
	private fillModels(models: ModelInfo[], listed = false): void {
		const d = this.modelDropdown;
		if (!d) return;
		d.selectEl.empty();
		d.addOption("", models.length ? "Choose a model" : "No models listed");
		const current = this.s.model;
		if (current && !models.some((m) => m.id === current)) d.addOption(current, listed ? `${current} (not on the server)` : current);
		for (const m of models) d.addOption(m.id, m.id);
		d.setValue(current);
	}

	/** Lists the server's models; a failure is shown inline and typing a name still works. */
	async refreshModels(): Promise<void> {
		const signal = this.controller.signal;
		const messageEl = this.modelMessage;
		if (!messageEl) return;
		const run = ++this.listing;
		const stale = (): boolean => signal.aborted || run !== this.listing;
		show(messageEl, "Loading models…", "info");
		try {
			const adapter = await this.makeAdapter(this.app, this.s);
			const models = await adapter.listModels(signal);
			if (stale()) return;
			this.models = models;
			this.fillModels(models, true);
			show(messageEl, models.length ? "" : "The server lists no models. Type the model's name.", "info");
			await this.lookUpContextLength();
		} catch (e) {
			if (stale()) return;
			this.models = [];
			this.fillModels([]);
			show(messageEl, `Could not list models: ${errorText(e)}`, "error");
			this.onContextLength(undefined);
		}
	}

	private async chooseModel(model: string): Promise<void> {
		this.s.model = model;
		this.modelText?.setValue(model);
		await this.store.saveSettings();
		await this.lookUpContextLength();
	}

	private async lookUpContextLength(): Promise<void> {
		const model = this.s.model;
		if (!model) return this.onContextLength(undefined);
		const listed = this.models.find((m) => m.id === model)?.contextLength;
		if (listed !== undefined) return this.onContextLength(listed);
		const signal = this.controller.signal;
		try {
			const adapter = await this.makeAdapter(this.app, this.s);
			const tokens = await adapter.modelContextLength(model, signal);
			if (!signal.aborted && this.s.model === model) this.onContextLength(tokens);
		} catch {
			if (!signal.aborted) this.onContextLength(undefined);
		}
	}

	/** Stops requests in flight; their late answers are dropped. */
	dispose(): void {
		this.controller.abort();
		this.refreshSoon.cancel();
		this.lookUpSoon.cancel();
	}
}
