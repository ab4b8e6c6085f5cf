import { Notice } from "obsidian";
import type { ChatMessage } from "../../core/types";
import { plainSnippet } from "./plainSnippet";
import { t } from "../../i18n";

/**
 * The deleted turns of the selected chat, folded under the history browser's toolbar, each with
 * Restore: a deleted turn is hidden, never erased, so it can always come back.
 */
export class HiddenTurns {
	readonly el: HTMLElement;

	constructor(
		parentEl: HTMLElement,
		private readonly load: () => Promise<ChatMessage[]>,
		private readonly restore: (messageId: string) => Promise<void>,
		/** A turn came back: the transcript is shown again. */
		private readonly restored: () => void,
	) {
		this.el = parentEl.createEl("details", { cls: ["discover-chat-history-hidden", "discover-chat-hidden"] });
	}

	async refresh(): Promise<void> {
		const turns = await this.load().catch(() => []);
		this.el.empty();
		this.el.toggleClass("discover-chat-hidden", turns.length === 0);
		if (turns.length === 0) return;
		this.el.createEl("summary", { text: t("history.deletedTurns", { count: turns.length }) });
		const list = this.el.createDiv({ cls: "discover-chat-history-hidden-list" });
		for (const message of turns) {
			const row = list.createDiv({ cls: "discover-chat-history-hidden-turn" });
			row.dataset.messageId = message.id;
			row.createSpan({ cls: "discover-chat-history-hidden-text", text: plainSnippet(message.content) });
			const button = row.createEl("button", { cls: "discover-chat-history-restore", text: t("history.restore"), attr: { type: "button" } });
			button.addEventListener("click", () => void this.restoreTurn(message.id, button));
		}
	}

	private async restoreTurn(id: string, button: HTMLButtonElement): Promise<void> {
		button.disabled = true;
		try {
			await this.restore(id);
		} catch (err) {
			button.disabled = false;
			new Notice(t("history.restoreFailed", { error: err instanceof Error ? err.message : String(err) }));
			return;
		}
		this.restored();
	}
}
