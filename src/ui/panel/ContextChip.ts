import { setIcon } from "obsidian";
import { contextFitLabel, type ContextFit } from "../format";
import { t } from "../../i18n";

export interface ContextState {
	/** The note that would be sent, if any is open. */
	noteName: string | undefined;
	/** Characters selected in that note's editor (0 when none). */
	selectionLength: number;
	/** How much fits this turn, from the engine's preview. */
	fit: ContextFit | undefined;
}

/**
 * The active note as a chip: its name, a toggle to include it, and how much of it fits. When text
 * is selected in the editor, a second toggle sends the selection instead of the whole note.
 */
export class ContextChip {
	readonly el: HTMLElement;
	private readonly toggleEl: HTMLButtonElement;
	private readonly nameEl: HTMLElement;
	private readonly fitEl: HTMLElement;
	private readonly selectionEl: HTMLButtonElement;
	private include: boolean;
	private selection = false;
	private state: ContextState = { noteName: undefined, selectionLength: 0, fit: undefined };

	constructor(parentEl: HTMLElement, includeByDefault: boolean, private readonly onToggle: () => void) {
		this.include = includeByDefault;
		this.el = parentEl.createDiv({ cls: "discover-chat-context" });
		this.toggleEl = this.el.createEl("button", { cls: ["discover-chat-context-chip"], attr: { type: "button" } });
		setIcon(this.toggleEl.createSpan({ cls: "discover-chat-context-icon" }), "file-text");
		this.nameEl = this.toggleEl.createSpan({ cls: "discover-chat-context-name" });
		this.fitEl = this.el.createSpan({ cls: "discover-chat-context-fit" });
		this.selectionEl = this.el.createEl("button", { cls: ["discover-chat-context-selection"], attr: { type: "button" } });
		this.toggleEl.addEventListener("click", () => {
			this.include = !this.include;
			this.render();
			this.onToggle();
		});
		this.selectionEl.addEventListener("click", () => {
			this.selection = !this.selection;
			this.render();
			this.onToggle();
		});
		this.render();
	}

	/** The note (or selection) is to be sent with the next message. */
	get includeNote(): boolean {
		return this.include && this.state.noteName !== undefined;
	}

	get useSelection(): boolean {
		return this.includeNote && this.selection && this.state.selectionLength > 0;
	}

	update(state: Partial<ContextState>): void {
		this.state = { ...this.state, ...state };
		this.render();
	}

	private render(): void {
		const { noteName, selectionLength, fit } = this.state;
		const hasNote = noteName !== undefined;
		this.el.toggleClass("discover-chat-context-empty", !hasNote);
		this.toggleEl.disabled = !hasNote;
		this.toggleEl.toggleClass("is-active", this.includeNote);
		this.toggleEl.setAttr("aria-pressed", String(this.includeNote));
		this.nameEl.setText(hasNote ? noteName : t("context.noNote"));
		this.toggleEl.setAttr(
			"aria-label",
			hasNote ? (this.includeNote ? t("context.stopIncluding", { note: noteName }) : t("context.include", { note: noteName })) : t("context.noNote"),
		);
		const showSelection = this.includeNote && selectionLength > 0;
		this.selectionEl.toggleClass("discover-chat-hidden", !showSelection);
		this.selectionEl.toggleClass("is-active", this.useSelection);
		this.selectionEl.setAttr("aria-pressed", String(this.useSelection));
		this.selectionEl.setText(this.useSelection ? t("context.selectionOnly", { count: selectionLength }) : t("context.sendSelection"));
		let fitText = "";
		if (hasNote && !this.includeNote) fitText = t("context.notIncluded");
		else if (this.includeNote && fit) fitText = contextFitLabel(fit, this.useSelection ? "selection" : "note");
		this.fitEl.setText(fitText);
		this.fitEl.toggleClass("discover-chat-context-cut", fit !== undefined && fit.included !== "whole" && this.includeNote);
	}
}
