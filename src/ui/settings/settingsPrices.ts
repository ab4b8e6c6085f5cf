// The settings tab's Prices section: the currency, and each model's prices per million input and
// output tokens, entered by the person (never fetched), with add, edit and remove. A value that
// is not a price shows why under its row and is not saved; what was typed stays in the field.
import { Setting, type TextComponent } from "obsidian";
import { FIELD_LABELS, type DiscoverSettings } from "../../settings/settings";
import { DEFAULT_CURRENCY, isCurrencyCode, modelPriceIssue, parsePrice, type ModelPrice } from "../../settings/prices";
import { t } from "../../i18n";

/** What the section needs: the settings, mutable, and a way to save them. */
export interface PriceSettingsStore {
	readonly settings: DiscoverSettings;
	saveSettings(): Promise<void>;
}

/** A message line under a setting's name (hidden while empty), read out when it changes. */
function messageLine(setting: Setting): (text: string | null) => void {
	const el = setting.infoEl.createDiv({ cls: ["discover-chat-setting-message", "discover-chat-hidden"], attr: { role: "alert" } });
	return (text) => {
		el.setText(text ?? "");
		el.toggleClass("discover-chat-hidden", text === null);
	};
}

export class PricesSection {
	private listEl: HTMLElement | null = null;

	constructor(
		private readonly store: PriceSettingsStore,
		/** Shows a failure to the person (a Notice in the tab). */
		private readonly report: (message: string) => void,
	) {}

	render(containerEl: HTMLElement): void {
		const s = this.store.settings;
		new Setting(containerEl).setName(t("settings.pricesHeading")).setDesc(t("settings.pricesDesc")).setHeading();
		const currency = new Setting(containerEl).setName(FIELD_LABELS.priceCurrency).setDesc(t("settings.currencyDesc"));
		const say = messageLine(currency);
		currency.addText((c) => {
			c.setPlaceholder(DEFAULT_CURRENCY).setValue(s.priceCurrency);
			c.inputEl.setAttr("aria-label", FIELD_LABELS.priceCurrency);
			c.inputEl.addClass("discover-chat-price-currency");
			c.onChange(async (value) => {
				const code = value.trim().toUpperCase();
				if (!isCurrencyCode(code)) return say(t("valid.currency"));
				say(null);
				s.priceCurrency = code;
				await this.save();
			});
		});
		this.listEl = containerEl.createDiv({ cls: "discover-chat-prices" });
		this.renderList();
	}

	private renderList(): void {
		const el = this.listEl;
		if (!el) return;
		el.empty();
		const prices = this.store.settings.modelPrices;
		if (prices.length === 0) el.createDiv({ cls: ["setting-item-description", "discover-chat-prices-none"], text: t("settings.pricesNone") });
		for (const price of prices) this.renderPrice(el, price);
		this.renderAdd(el);
	}

	/** One model's row: its two prices, editable in place, and Remove. */
	private renderPrice(el: HTMLElement, price: ModelPrice): void {
		const setting = new Setting(el).setName(price.model).setDesc(t("settings.priceRowDescCached")).setClass("discover-chat-price-row");
		const say = messageLine(setting);
		for (const side of ["input", "output"] as const) {
			setting.addText((c) => {
				this.priceInput(c, side, String(price[side]));
				c.onChange(async (value) => {
					const parsed = parsePrice(value);
					if ("error" in parsed) return say(parsed.error);
					say(null);
					price[side] = parsed.value;
					await this.save();
				});
			});
		}
		// The cached-input price is optional: empty means the provider's usual share of the input price.
		setting.addText((c) => {
			this.priceInput(c, "cachedInput", price.cachedInput === undefined ? "" : String(price.cachedInput));
			c.onChange(async (value) => {
				if (value.trim() === "") delete price.cachedInput;
				else {
					const parsed = parsePrice(value);
					if ("error" in parsed) return say(parsed.error);
					price.cachedInput = parsed.value;
				}
				say(null);
				await this.save();
			});
		});
		setting.addExtraButton((b) =>
			b
				.setIcon("trash")
				.setTooltip(t("settings.priceRemove"))
				.onClick(async () => {
					const s = this.store.settings;
					s.modelPrices = s.modelPrices.filter((p) => p !== price);
					await this.save();
					this.renderList();
				}),
		);
	}

	/** The row that adds a model: its name, two prices, and Add (checked before anything is saved). */
	private renderAdd(el: HTMLElement): void {
		const setting = new Setting(el).setName(t("settings.priceAddName")).setDesc(t("settings.priceRowDescCached")).setClass("discover-chat-price-add");
		const say = messageLine(setting);
		let name: TextComponent | undefined;
		const inputs: Partial<Record<"input" | "output" | "cachedInput", TextComponent>> = {};
		setting.addText((c) => {
			name = c;
			c.setPlaceholder(t("settings.modelName"));
			c.inputEl.setAttr("aria-label", t("settings.modelName"));
			c.inputEl.addClass("discover-chat-price-model");
		});
		for (const side of ["input", "output", "cachedInput"] as const) setting.addText((c) => this.priceInput((inputs[side] = c), side, ""));
		setting.addButton((b) =>
			b.setButtonText(t("settings.priceAdd")).onClick(async () => {
				const cachedText = (inputs.cachedInput?.getValue() ?? "").trim();
				const cached = cachedText === "" ? undefined : parsePrice(cachedText);
				const parsed = { input: parsePrice(inputs.input?.getValue() ?? ""), output: parsePrice(inputs.output?.getValue() ?? "") };
				const model = (name?.getValue() ?? "").trim();
				// The name first (missing, taken), then each price as typed: the first problem is the one shown.
				const issue = modelPriceIssue({ model, input: 0, output: 0 }, this.store.settings.modelPrices) ?? ("error" in parsed.input ? parsed.input.error : "error" in parsed.output ? parsed.output.error : cached !== undefined && "error" in cached ? cached.error : null);
				if (issue !== null || "error" in parsed.input || "error" in parsed.output || (cached !== undefined && "error" in cached)) return say(issue);
				const candidate: ModelPrice = { model, input: parsed.input.value, output: parsed.output.value, ...(cached === undefined ? {} : { cachedInput: cached.value }) };
				this.store.settings.modelPrices = [...this.store.settings.modelPrices, candidate];
				await this.save();
				this.renderList();
			}),
		);
	}

	private priceInput(c: TextComponent, side: "input" | "output" | "cachedInput", value: string): void {
		const label = side === "input" ? t("settings.priceInput") : side === "output" ? t("settings.priceOutput") : t("settings.priceCachedInput");
		c.setPlaceholder(side === "input" ? t("settings.pricePlaceholderInput") : side === "output" ? t("settings.pricePlaceholderOutput") : t("settings.pricePlaceholderCached")).setValue(value);
		c.inputEl.setAttr("aria-label", label);
		c.inputEl.setAttr("inputmode", "decimal");
		c.inputEl.addClass("discover-chat-price-value");
		c.inputEl.addClass(`discover-chat-price-${side}`);
	}

	private async save(): Promise<void> {
		try {
			await this.store.saveSettings();
		} catch (err) {
			this.report(t("settings.priceSaveFailed", { error: err instanceof Error ? err.message : String(err) }));
		}
	}
}
