import { Platform } from "obsidian";
import { t } from "../../../i18n";

export interface MessageEditorHandlers {
	/** Whether the text may go now (false: the box stays open with the text, e.g. while an answer runs). */
	canSend?: () => boolean;
	onSend: (text: string) => void;
	onCancel: () => void;
}

/**
 * Edits a message of the person's in place: a textarea where the bubble's text was, with Send and
 * Cancel. Escape cancels, Ctrl/Cmd+Enter sends; an empty text cannot be sent. The bubble's text is
 * only hidden meanwhile, so Cancel shows it again exactly as it was.
 */
export class MessageEditor {
	readonly el: HTMLElement;
	readonly inputEl: HTMLTextAreaElement;
	private readonly sendEl: HTMLButtonElement;

	constructor(
		private readonly bodyEl: HTMLElement,
		text: string,
		private readonly handlers: MessageEditorHandlers,
	) {
		this.el = createDiv({ cls: "discover-chat-edit" });
		bodyEl.before(this.el);
		bodyEl.addClass("discover-chat-hidden");
		this.inputEl = this.el.createEl("textarea", { cls: "discover-chat-edit-input", attr: { "aria-label": t("branch.editLabel"), rows: "3" } });
		this.inputEl.value = text;
		const buttons = this.el.createDiv({ cls: "discover-chat-edit-buttons" });
		const cancel = buttons.createEl("button", { cls: "discover-chat-edit-cancel", text: t("branch.cancel"), attr: { type: "button" } });
		this.sendEl = buttons.createEl("button", {
			cls: ["mod-cta", "discover-chat-edit-send"],
			text: t("branch.send"),
			attr: { type: "button", "aria-keyshortcuts": Platform.isMacOS ? "Meta+Enter" : "Control+Enter" },
		});
		cancel.addEventListener("click", () => this.cancel());
		this.sendEl.addEventListener("click", () => this.send());
		this.inputEl.addEventListener("input", () => this.updateSend());
		this.inputEl.addEventListener("keydown", (e) => {
			if (e.key === "Escape") {
				e.preventDefault();
				e.stopPropagation();
				this.cancel();
			} else if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.isComposing) {
				e.preventDefault();
				this.send();
			}
		});
		this.updateSend();
		this.inputEl.focus();
		this.inputEl.setSelectionRange(text.length, text.length);
	}

	private updateSend(): void {
		this.sendEl.disabled = this.inputEl.value.trim() === "";
	}

	private send(): void {
		const text = this.inputEl.value;
		if (text.trim() === "" || this.handlers.canSend?.() === false) return;
		this.close();
		this.handlers.onSend(text);
	}

	cancel(): void {
		this.close();
		this.handlers.onCancel();
	}

	/** Takes the editor away and shows the bubble's text again. */
	close(): void {
		this.el.remove();
		this.bodyEl.removeClass("discover-chat-hidden");
	}
}
