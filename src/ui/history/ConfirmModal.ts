import { Modal } from "obsidian";
import type { App } from "obsidian";
import { t } from "../../i18n";

/** A yes/no question; resolves false when dismissed (Esc, click outside). */
export function confirmAction(app: App, title: string, message: string, confirmText: string): Promise<boolean> {
	return new Promise((resolve) => new ConfirmModal(app, title, message, confirmText, resolve).open());
}

class ConfirmModal extends Modal {
	private answered = false;

	constructor(
		app: App,
		private readonly heading: string,
		private readonly message: string,
		private readonly confirmText: string,
		private readonly resolve: (ok: boolean) => void,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle(this.heading);
		this.modalEl.addClass("discover-chat-confirm");
		this.contentEl.createEl("p", { text: this.message });
		const buttons = this.contentEl.createDiv({ cls: "modal-button-container" });
		const ok = buttons.createEl("button", { cls: "mod-warning", text: this.confirmText, attr: { type: "button" } });
		const cancel = buttons.createEl("button", { text: t("confirm.cancel"), attr: { type: "button" } });
		ok.addEventListener("click", () => this.answer(true));
		cancel.addEventListener("click", () => this.answer(false));
		cancel.focus();
	}

	override onClose(): void {
		this.contentEl.empty();
		this.answer(false);
	}

	private answer(ok: boolean): void {
		if (this.answered) return;
		this.answered = true;
		this.resolve(ok);
		this.close();
	}
}
