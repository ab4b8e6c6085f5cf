import { setIcon, setTooltip } from "obsidian";
import { t } from "../../i18n";

/** Text the person chose to ask about ("Ask about selection"), with the note it came from. */
export interface Attachment {
	text: string;
	/** The note's name, when the selection came from one. */
	noteName: string | undefined;
}

/**
 * The selection attached with "Ask about selection", as a pill above the input. It is a snapshot:
 * later clicks in the editor do not change what is sent. It stays until a message with it has been
 * answered, or the person removes it.
 */
export class AttachedSelection {
	private readonly el: HTMLElement;
	private readonly labelEl: HTMLElement;
	private current: Attachment | undefined;

	constructor(parentEl: HTMLElement, private readonly onChange: () => void) {
		this.el = parentEl.createDiv({ cls: ["discover-chat-attachment", "discover-chat-hidden"] });
		setIcon(this.el.createSpan({ cls: "discover-chat-attachment-icon" }), "text-select");
		this.labelEl = this.el.createSpan({ cls: "discover-chat-attachment-label" });
		const remove = this.el.createEl("button", {
			cls: ["clickable-icon", "discover-chat-icon-button", "discover-chat-attachment-remove"],
			attr: { type: "button", "aria-label": t("panel.removeSelection") },
		});
		setIcon(remove, "x");
		setTooltip(remove, t("panel.removeSelection"));
		remove.addEventListener("click", () => {
			this.set(undefined);
			this.onChange();
		});
	}

	get attachment(): Attachment | undefined {
		return this.current;
	}

	set(attachment: Attachment | undefined): void {
		this.current = attachment;
		this.el.toggleClass("discover-chat-hidden", attachment === undefined);
		if (!attachment) return;
		const chars = attachment.text.length;
		this.labelEl.setText(attachment.noteName ? t("panel.selectionFrom", { note: attachment.noteName, count: chars }) : t("panel.selection", { count: chars }));
	}
}
