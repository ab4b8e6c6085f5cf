// The four budget settings as number inputs with inline messages. A value is saved the moment the
// budget it makes is valid; an invalid one stays in its input, with the reason under it, unsaved.
import { Setting } from "obsidian";
import { FIELD_LABELS, LIMITS, validateSettings, type DiscoverSettings, type SettingsIssue } from "../../settings/settings";
import { t, type PlainKey } from "../../i18n";

export type BudgetField = "maxPromptTokens" | "reservedResponseTokens" | "recentMessagesToKeep" | "minRecentMessagesToKeep";

export const BUDGET_FIELDS: readonly BudgetField[] = ["maxPromptTokens", "reservedResponseTokens", "recentMessagesToKeep", "minRecentMessagesToKeep"];

const DESCRIPTIONS: Record<BudgetField, PlainKey> = {
	maxPromptTokens: "settings.maxPromptTokensDesc",
	reservedResponseTokens: "settings.reservedDesc",
	recentMessagesToKeep: "settings.recentDesc",
	minRecentMessagesToKeep: "settings.minRecentDesc",
};

const MAXIMUMS: Partial<Record<BudgetField, number>> = {
	maxPromptTokens: LIMITS.maxPromptTokens.max,
	recentMessagesToKeep: LIMITS.recentMessagesToKeep.max,
};

const MINIMUMS: Record<BudgetField, number> = {
	maxPromptTokens: LIMITS.maxPromptTokens.min,
	reservedResponseTokens: LIMITS.reservedResponseTokens.min,
	recentMessagesToKeep: LIMITS.recentMessagesToKeep.min,
	minRecentMessagesToKeep: LIMITS.minRecentMessagesToKeep.min,
};

export interface SettingsStore {
	readonly settings: DiscoverSettings;
	saveSettings(): Promise<void>;
}

/** Reads what was typed: a number, or NaN for anything else (validation explains). */
function parse(text: string): number {
	const t = text.trim();
	return t === "" ? Number.NaN : Number(t);
}

function budgetIssues(s: DiscoverSettings): SettingsIssue[] {
	return validateSettings(s).filter((i) => (BUDGET_FIELDS as readonly string[]).includes(i.field));
}

interface Row {
	input: HTMLInputElement;
	messageEl: HTMLElement;
	settingEl: HTMLElement;
}

export class BudgetSection {
	/** Text typed but not saved because it made the budget invalid, by field. */
	private drafts = new Map<BudgetField, string>();
	private rows = new Map<BudgetField, Row>();

	constructor(
		private readonly store: SettingsStore,
		/** Called after a budget change was saved. */
		private readonly onSaved: () => void = () => undefined,
	) {}

	/** Adds the four settings to `containerEl`; `extra` decorates a row (e.g. a button). */
	render(containerEl: HTMLElement, extra?: (field: BudgetField, setting: Setting) => void): void {
		this.rows.clear();
		this.drafts.clear();
		for (const field of BUDGET_FIELDS) {
			const setting = new Setting(containerEl).setName(FIELD_LABELS[field]).setDesc(t(DESCRIPTIONS[field]));
			const messageEl = setting.infoEl.createDiv({ cls: ["discover-chat-setting-message", "discover-chat-hidden"], attr: { role: "alert" } });
			setting.addText((text) => {
				const input = text.inputEl;
				input.type = "number";
				input.min = String(MINIMUMS[field]);
				const max = MAXIMUMS[field];
				if (max !== undefined) input.max = String(max);
				input.step = "1";
				input.setAttr("aria-label", FIELD_LABELS[field]);
				text.setValue(String(this.store.settings[field]));
				text.onChange((value) => this.edit(field, value));
				this.rows.set(field, { input, messageEl, settingEl: setting.settingEl });
			});
			extra?.(field, setting);
		}
	}

	/** Sets a field from code (e.g. "use the model's context length") as if typed. */
	set(field: BudgetField, value: number): Promise<void> {
		const row = this.rows.get(field);
		if (row) row.input.value = String(value);
		return this.edit(field, String(value));
	}

	/** The settings as they would be with every typed value applied. */
	private candidate(): DiscoverSettings {
		const c: DiscoverSettings = { ...this.store.settings };
		for (const [field, text] of this.drafts) c[field] = parse(text);
		return c;
	}

	private async edit(field: BudgetField, text: string): Promise<void> {
		this.drafts.set(field, text);
		// All typed values together first; else each alone against what is saved. Saving one can
		// make another valid (raising the context size frees the reserved tokens), so repeat.
		const saved = this.store.settings;
		let changed = false;
		if (budgetIssues(this.candidate()).length === 0) {
			Object.assign(saved, this.candidate());
			this.drafts.clear();
			changed = true;
		} else {
			let progress = true;
			while (progress) {
				progress = false;
				for (const [f, t] of [...this.drafts]) {
					const trial = { ...saved, [f]: parse(t) };
					if (budgetIssues(trial).length === 0) {
						saved[f] = parse(t);
						this.drafts.delete(f);
						progress = changed = true;
					}
				}
			}
		}
		this.showMessages();
		if (!changed) return;
		await this.store.saveSettings();
		this.onSaved();
	}

	private showMessages(): void {
		const issues = budgetIssues(this.candidate());
		for (const [field, row] of this.rows) {
			const mine = issues.filter((i) => i.field === field || i.related === field);
			const invalid = issues.some((i) => i.field === field);
			row.messageEl.setText(mine.map((i) => i.message).join(" "));
			row.messageEl.toggleClass("discover-chat-hidden", mine.length === 0);
			row.settingEl.toggleClass("discover-chat-setting-invalid", invalid);
			row.input.setAttr("aria-invalid", invalid ? "true" : null);
		}
	}

	/** Not saved: fields whose typed value is still invalid. */
	get pending(): BudgetField[] {
		return [...this.drafts.keys()];
	}
}
