// The settings tab's "Budgets per model": each model with its own budget (a context size the
// server reported for it, or one typed here), its four fields editable (empty: follows the general
// setting above), Remove to follow the general settings again, and Add for another model.
import { Setting } from "obsidian";
import { BUDGET_FIELDS, type BudgetField } from "../../settings/modelBudget";
import { clearModelBudget, setModelBudget } from "../../settings/budgetFor";
import { FIELD_LABELS, validateSettings, type DiscoverSettings } from "../../settings/settings";
import { t } from "../../i18n";

export interface ModelBudgetStore {
	readonly settings: DiscoverSettings;
	saveSettings(): Promise<void>;
}

export class ModelBudgetsSection {
	private el: HTMLElement | null = null;

	constructor(private readonly store: ModelBudgetStore) {}

	render(containerEl: HTMLElement): void {
		new Setting(containerEl).setName(FIELD_LABELS.modelBudgets).setDesc(t("settings.modelBudgetsDesc")).setHeading();
		this.el = containerEl.createDiv({ cls: "discover-chat-model-budgets" });
		this.draw();
	}

	/** Draws the models again (a budget was set from outside the section). */
	refresh(): void {
		this.draw();
	}

	private draw(): void {
		const el = this.el;
		if (!el) return;
		el.empty();
		const s = this.store.settings;
		for (const model of Object.keys(s.modelBudgets).sort()) {
			new Setting(el)
				.setName(model)
				.setClass("discover-chat-model-budget-name")
				.addButton((b) =>
					b.setButtonText(t("settings.modelBudgetRemove")).onClick(async () => {
						clearModelBudget(s, model);
						await this.store.saveSettings();
						this.draw();
					}),
				);
			for (const field of BUDGET_FIELDS) this.fieldSetting(el, model, field);
		}
		let typed = "";
		new Setting(el)
			.setName(t("settings.modelBudgetAddName"))
			.addText((c) => {
				c.setPlaceholder(s.model).onChange((v) => (typed = v.trim()));
				c.inputEl.setAttr("aria-label", t("settings.modelBudgetAddName"));
			})
			.addButton((b) =>
				b.setButtonText(t("settings.modelBudgetAdd")).onClick(async () => {
					if (typed === "" || s.modelBudgets[typed]) return;
					setModelBudget(s, typed, {});
					await this.store.saveSettings();
					this.draw();
				}),
			);
	}

	private fieldSetting(el: HTMLElement, model: string, field: BudgetField): void {
		const s = this.store.settings;
		const setting = new Setting(el).setName(FIELD_LABELS[field]).setClass("discover-chat-model-budget-field");
		const messageEl = setting.infoEl.createDiv({ cls: ["discover-chat-setting-message", "discover-chat-hidden"], attr: { role: "alert" } });
		setting.addText((c) => {
			const own = s.modelBudgets[model]?.[field];
			// Empty: the model follows the general setting, shown as the placeholder.
			c.setPlaceholder(String(s[field])).setValue(own === undefined ? "" : String(own));
			c.inputEl.setAttr("aria-label", `${model}: ${FIELD_LABELS[field]}`);
			c.inputEl.type = "number";
			c.onChange(async (value) => {
				const text = value.trim();
				const { [field]: _old, ...rest } = s.modelBudgets[model] ?? {};
				const next = text === "" ? rest : { ...rest, [field]: Number(text) };
				const issue = validateSettings({ ...s, ...next }).find((i) => (BUDGET_FIELDS as readonly string[]).includes(i.field));
				messageEl.setText(issue?.message ?? "");
				messageEl.toggleClass("discover-chat-hidden", !issue);
				if (issue) return;
				s.modelBudgets = { ...s.modelBudgets, [model]: next };
				await this.store.saveSettings();
			});
		});
	}
}
