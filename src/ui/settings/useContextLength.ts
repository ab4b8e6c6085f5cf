// "Use N" beside the context size: the server reported the selected model's context length, and one
// click saves it as that model's own context size (Budgets per model), never as the general one every
// other model follows. A combination the checks refuse (the model's reserve no longer fits) is not
// saved, and the reason shows under the button.
//
// Only on a click, never filled in silently (here or when the panel sends): Ollama reports the
// length the model was TRAINED on (often 131,072), and Discover sends its context size as
// `num_ctx`, for which Ollama allocates memory up front. A window filled in unasked could make a
// small machine swap or fail to load the model. A window the server *refuses* a prompt over is
// different: the panel offers it (windowOffer.ts), also on a click.
import type { ButtonComponent, Setting } from "obsidian";
import { budgetFor, setModelBudget } from "../../settings/budgetFor";
import { BUDGET_FIELDS } from "../../settings/modelBudget";
import { LIMITS, validateSettings } from "../../settings/settings";
import { t } from "../../i18n";
import type { SettingsStore } from "./settingsBudget";

export class UseContextLength {
	private button: ButtonComponent | null = null;
	private messageEl: HTMLElement | null = null;
	/** The length the server reported, and the model it is for. */
	private reported: { tokens: number; model: string } | undefined;

	constructor(
		private readonly store: SettingsStore,
		/** A model's budget was saved (the per-model section shows it). */
		private readonly onSaved: () => void,
	) {}

	/** Adds the (hidden) button and its message to the context size's row. */
	attach(setting: Setting): void {
		this.messageEl = setting.infoEl.createDiv({ cls: ["discover-chat-setting-message", "discover-chat-hidden"], attr: { role: "status" } });
		setting.addButton((b) => {
			this.button = b;
			// Named by its figure once known (show), so it stays one short line beside the input.
			b.setButtonText(t("settings.useModels")).onClick(() => this.apply());
			b.buttonEl.addClass("discover-chat-setting-use-context");
			b.buttonEl.addClass("discover-chat-hidden");
		});
		this.show(this.reported?.tokens, this.reported?.model ?? "");
	}

	/** The tab was drawn again: the old row is gone. */
	detach(): void {
		this.button = null;
		this.messageEl = null;
	}

	/** The server reported `tokens` for `model` (undefined: it did not say). */
	show(tokens: number | undefined, model: string): void {
		const name = model.trim();
		this.reported = tokens === undefined || name === "" ? undefined : { tokens, model: name };
		this.say("", false);
		const b = this.button;
		if (!b) return;
		const tokensShown = this.reported === undefined ? 0 : Math.min(this.reported.tokens, LIMITS.maxPromptTokens.max);
		// Not offered when the model already uses that size ("Use 8,192" beside a field that says 8192).
		const usable = this.reported !== undefined && this.reported.tokens >= LIMITS.maxPromptTokens.min && budgetFor(this.store.settings, name).maxPromptTokens !== tokensShown;
		b.buttonEl.toggleClass("discover-chat-hidden", !usable);
		if (!usable || !this.reported) return;
		b.setButtonText(t("settings.useTokens", { tokens: tokensShown }));
		b.setTooltip(t("settings.useTokensTooltip", { tokens: tokensShown, model: name }));
	}

	private async apply(): Promise<void> {
		const reported = this.reported;
		if (!reported) return;
		const { model } = reported;
		const tokens = Math.min(reported.tokens, LIMITS.maxPromptTokens.max);
		const s = this.store.settings;
		const own = { ...s.modelBudgets[model], maxPromptTokens: tokens };
		const issue = validateSettings({ ...s, ...own }).find((i) => (BUDGET_FIELDS as readonly string[]).includes(i.field));
		if (issue) {
			this.say(t("settings.useTokensRefused", { model, reason: issue.message }), true);
			return;
		}
		setModelBudget(s, model, { maxPromptTokens: tokens });
		await this.store.saveSettings();
		// Done: the button goes (the model uses that size now), the message says what was saved.
		this.show(reported.tokens, model);
		this.say(t("settings.useTokensSet", { model, tokens }), false);
		this.onSaved();
	}

	private say(text: string, problem: boolean): void {
		const el = this.messageEl;
		if (!el) return;
		el.setText(text);
		el.toggleClass("discover-chat-hidden", text === "");
		el.toggleClass("mod-info", !problem);
		el.setAttr("role", problem ? "alert" : "status");
	}
}
