import { setIcon } from "obsidian";
import type { ModelShown } from "./ChatModel";
import { partialPercent, type ContextFit } from "../format";
import type { SlashCommand } from "./slashCommands";
import { formatPercent, t } from "../../i18n";

/** The active note as the context row sees it. */
export interface NoteFit {
	/** The open note's name, if one is open. */
	noteName: string | undefined;
	/** The note goes with the next message (its chip is on). */
	included: boolean;
	/** How much of it fits, from the engine's preview (undefined until known). */
	fit: ContextFit | undefined;
}

export interface EmptyChatHandlers {
	/** Sends an example prompt as the first message. */
	onPrompt: (text: string) => void;
	onCommand: (command: SlashCommand) => void;
	/** The model line was clicked: open the model menu under it. */
	onModelMenu: (anchor: HTMLElement) => void;
}

/** Example first messages: about the note by name when one goes with the message, else general. */
export function examplePrompts(note: NoteFit): string[] {
	const name = note.included ? note.noteName : undefined;
	if (name !== undefined) return [t("empty.summarizeNote", { note: name }), t("empty.openQuestions", { note: name }), t("empty.readAfter", { note: name })];
	return [t("empty.helpWith"), t("empty.organize"), t("empty.readNext")];
}

/** One line on how much of the note the next message carries. */
export function noteFitText(note: NoteFit): string {
	const name = note.noteName;
	if (name === undefined) return t("empty.openNote");
	if (!note.included) return t("empty.noteOff", { note: name });
	const fit = note.fit;
	if (fit === undefined) return t("empty.noteGoes", { note: name });
	if (fit.included === "whole") return t("empty.noteFits", { note: name });
	if (fit.included === "none") return t("empty.noteFull", { note: name });
	return t("empty.noteExcerpts", { note: name, percent: formatPercent(partialPercent(fit.fraction)) });
}

/**
 * What a chat with no messages shows: the model and where it runs, a few example prompts that send
 * on click, the `/` commands and how much of the note fits. It hides as soon as a message shows.
 */
export class EmptyChat {
	readonly el: HTMLElement;
	private readonly modelNameEl: HTMLElement;
	private readonly modelWhereEl: HTMLElement;
	private readonly modelEl: HTMLButtonElement;
	private readonly promptsEl: HTMLElement;
	private readonly fitEl: HTMLElement;
	private note: NoteFit = { noteName: undefined, included: false, fit: undefined };
	private shownPrompts = "";

	constructor(parentEl: HTMLElement, commands: readonly SlashCommand[], private readonly handlers: EmptyChatHandlers) {
		this.el = parentEl.createDiv({ cls: "discover-chat-empty" });
		this.modelEl = this.el.createEl("button", { cls: "discover-chat-empty-model", attr: { type: "button", "aria-haspopup": "menu" } });
		setIcon(this.modelEl.createSpan({ cls: "discover-chat-empty-icon" }), "cpu");
		this.modelNameEl = this.modelEl.createSpan({ cls: "discover-chat-empty-model-name" });
		this.modelWhereEl = this.modelEl.createSpan({ cls: "discover-chat-empty-model-where" });
		this.modelEl.addEventListener("click", () => handlers.onModelMenu(this.modelEl));

		this.promptsEl = this.el.createDiv({ cls: "discover-chat-empty-prompts", attr: { role: "group", "aria-label": t("empty.examples") } });

		const fitRow = this.el.createDiv({ cls: "discover-chat-empty-row" });
		setIcon(fitRow.createSpan({ cls: "discover-chat-empty-icon" }), "file-text");
		this.fitEl = fitRow.createSpan({ cls: "discover-chat-empty-fit" });

		const commandRow = this.el.createDiv({ cls: ["discover-chat-empty-row", "discover-chat-empty-commands"] });
		setIcon(commandRow.createSpan({ cls: "discover-chat-empty-icon" }), "slash");
		const list = commandRow.createSpan({ cls: "discover-chat-empty-command-list" });
		list.createSpan({ text: `${t("empty.commands")} ` });
		for (const command of commands) {
			const button = list.createEl("button", { cls: "discover-chat-empty-command", text: `/${command.name}`, attr: { type: "button", "aria-label": command.description } });
			button.addEventListener("click", () => handlers.onCommand(command));
		}
		this.renderNote();
	}

	setModel(shown: ModelShown): void {
		this.modelNameEl.setText(shown.model === "" ? t("empty.noModel") : shown.model);
		this.modelWhereEl.setText(shown.where === "" ? "" : ` · ${shown.where}`);
		this.modelEl.setAttr("aria-label", shown.model === "" ? t("panel.chooseModel") : t("empty.switchModel"));
	}

	setNote(note: NoteFit): void {
		this.note = note;
		this.renderNote();
	}

	setShown(shown: boolean): void {
		this.el.toggleClass("discover-chat-hidden", !shown);
	}

	get isShown(): boolean {
		return !this.el.hasClass("discover-chat-hidden");
	}

	private renderNote(): void {
		this.fitEl.setText(noteFitText(this.note));
		this.fitEl.toggleClass("discover-chat-empty-cut", this.note.included && this.note.fit !== undefined && this.note.fit.included !== "whole");
		const prompts = examplePrompts(this.note);
		// Rebuilt only when the prompts change: a fit update must not replace a button being clicked.
		const key = prompts.join("\n");
		if (key === this.shownPrompts) return;
		this.shownPrompts = key;
		this.promptsEl.empty();
		for (const text of prompts) {
			const button = this.promptsEl.createEl("button", { cls: "discover-chat-empty-prompt", text, attr: { type: "button" } });
			button.addEventListener("click", () => this.handlers.onPrompt(text));
		}
	}
}
