import type { DropdownComponent, Setting, TextComponent } from "obsidian";
import type { ModelInfo } from "../../providers/types";
import { t } from "../../i18n";

/** The dropdown's "Other…" entry: a value no model name can have (names are trimmed). */
const OTHER = " other";

/** Where the model list stands: asked for, answered, or unavailable (server down, bad address). */
export type ModelListState = "loading" | "listed" | "failed";

/**
 * The Model setting as one control: a dropdown of the server's models ending in "Other…", which
 * reveals a text field for a name the server does not list. A saved model the server does not list
 * shows as itself, selected. Without a list (the server did not answer, or lists nothing) the
 * text field is the control.
 */
export class ModelPicker {
	private dropdown!: DropdownComponent;
	private text!: TextComponent;
	/** The person chose "Other…" and types a name. */
	private typing = false;
	private state: ModelListState = "loading";

	constructor(
		setting: Setting,
		private readonly current: () => string,
		/** A model was chosen or typed (already trimmed). */
		private readonly onChoose: (model: string) => void,
	) {
		setting.addDropdown((d) => {
			this.dropdown = d;
			d.selectEl.setAttr("aria-label", t("settings.modelsOnServer"));
			d.onChange((value) => this.onSelect(value));
		});
		setting.addText((c) => {
			this.text = c;
			c.setPlaceholder(t("settings.modelName")).setValue(current());
			c.inputEl.setAttr("aria-label", t("settings.modelName"));
			c.onChange((value) => this.onChoose(value.trim()));
		});
		this.fill([], "loading");
	}

	/** Shows the server's models (`listed`), or the text field when there is no list to show. */
	fill(models: readonly ModelInfo[], state: ModelListState): void {
		this.state = state;
		const d = this.dropdown;
		const current = this.current();
		d.selectEl.empty();
		d.addOption("", t("panel.chooseModel"));
		if (current && !models.some((m) => m.id === current)) d.addOption(current, state === "listed" ? t("settings.notOnServer", { model: current }) : current);
		for (const m of models) d.addOption(m.id, m.id);
		d.addOption(OTHER, t("settings.modelOther"));
		d.setValue(this.typing ? OTHER : current);
		this.layout();
	}

	private onSelect(value: string): void {
		this.typing = value === OTHER;
		if (this.typing) {
			this.layout();
			this.text.inputEl.focus();
			return;
		}
		this.text.setValue(value);
		this.layout();
		this.onChoose(value);
	}

	/** One control in sight: the dropdown, the dropdown and the field after "Other…", or the field alone. */
	private layout(): void {
		const noList = this.state === "failed" || (this.state === "listed" && this.dropdown.selectEl.options.length <= 2);
		this.dropdown.selectEl.toggleClass("discover-chat-hidden", noList);
		this.text.inputEl.toggleClass("discover-chat-hidden", !noList && !this.typing);
	}
}
