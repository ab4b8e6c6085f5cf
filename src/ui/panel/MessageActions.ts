import { MarkdownView, Notice, setIcon, setTooltip } from "obsidian";
import type { App, Editor } from "obsidian";
import type { Role } from "../../core/types";
import { copyToClipboard } from "../clipboard";
import { t } from "../../i18n";

/** An answer as an Obsidian quote callout: `> [!quote]`, then every line of it quoted. */
export function toCalloutQuote(markdown: string): string {
	const lines = markdown.replace(/\r\n?/g, "\n").replace(/\n+$/, "").split("\n");
	return ["> [!quote]", ...lines.map((line) => (line === "" ? ">" : `> ${line}`))].join("\n");
}

/**
 * The editor of the note the person was last in. The chat panel sits in a sidebar, so the most
 * recent leaf of the main area is that note, even while the panel has focus.
 */
export function lastMarkdownEditor(app: App): { editor: Editor; name: string } | undefined {
	const view = app.workspace.getMostRecentLeaf()?.view;
	if (!(view instanceof MarkdownView) || !view.file) return undefined;
	return { editor: view.editor, name: view.file.basename };
}

/**
 * A message's buttons: Copy, Insert into the note (at its cursor, replacing a selection), and for
 * answers Copy as a quote callout. Insert shows only while there is a note to insert into; it is
 * checked each time the buttons come into view (hover, focus, touch).
 */
export class MessageActions {
	private readonly insertEl: HTMLButtonElement;

	constructor(
		parentEl: HTMLElement,
		private readonly app: App,
		role: Role,
		private readonly text: () => string,
		/** The message's element: the buttons show when it is hovered or focused. */
		messageEl: HTMLElement,
	) {
		const el = parentEl.createDiv({ cls: "discover-chat-message-actions" });
		this.button(el, "copy", t("message.copy"), "discover-chat-copy", () => void copyToClipboard(this.text()));
		this.insertEl = this.button(el, "text-cursor-input", t("message.insert"), "discover-chat-insert", () => this.insert());
		if (role === "assistant") this.button(el, "quote", t("message.copyQuote"), "discover-chat-copy-quote", () => void copyToClipboard(toCalloutQuote(this.text())));
		this.refresh();
		messageEl.addEventListener("pointerenter", () => this.refresh());
		messageEl.addEventListener("focusin", () => this.refresh());
	}

	/** Shows Insert only while a note is there to take the text. */
	refresh(): void {
		this.insertEl.toggleClass("discover-chat-hidden", lastMarkdownEditor(this.app) === undefined);
	}

	private insert(): void {
		const target = lastMarkdownEditor(this.app);
		if (!target) {
			this.refresh();
			new Notice(t("message.openNoteToInsert"));
			return;
		}
		target.editor.replaceSelection(this.text());
		new Notice(t("message.inserted", { note: target.name }));
	}

	private button(parentEl: HTMLElement, icon: string, label: string, cls: string, onClick: () => void): HTMLButtonElement {
		const button = parentEl.createEl("button", { cls: ["clickable-icon", "discover-chat-icon-button", cls], attr: { "aria-label": label, type: "button" } });
		setIcon(button, icon);
		setTooltip(button, label);
		button.addEventListener("click", onClick);
		return button;
	}
}
