import { Notice, setIcon, setTooltip } from "obsidian";
import { isContinuable } from "../../../chat/branching";
import type { ChatMessage } from "../../../core/types";
import type { ChatRuntime } from "../../host";
import type { ChatPort } from "../../ports";
import type { MessageItem } from "../MessageItem";
import type { MessageList } from "../MessageList";
import type { Turn } from "../turns";
import { renderBranchNav } from "./BranchNav";
import { continueTurn, editTurn, regenerateTurn } from "./branchTurns";
import { MessageEditor } from "./MessageEditor";
import { t } from "../../../i18n";

/** What the branch controls use of the panel. */
export interface BranchParts {
	runtime: () => ChatRuntime | undefined;
	list: MessageList;
	/** Runs a turn like a typed one (TurnFlow.send): streamed, with Stop, a failure shown with Retry. */
	send: (turn: Turn) => Promise<void>;
	/** An answer is on its way: the chat cannot change under it. */
	busy: () => boolean;
	/** The chat on screen changed (a switch, a deleted or restored turn). */
	changed: () => void;
}

const ACTION_CLS = "discover-chat-branch-action";
const LAST_CLS = "discover-chat-message-last";

/**
 * The panel side of branches: on each message, the arrows between its alternatives and the actions
 * Regenerate and Continue (the last answer), Edit (the person's messages) and Delete turn; they
 * run through the engine's branch operations and show the active branch afterwards.
 */
export class BranchControls {
	/** The newest alternatives request per message element: a late answer for an older state is dropped. */
	private readonly asked = new WeakMap<HTMLElement, number>();
	private editor: MessageEditor | undefined;
	/** After a switch with the arrows, the arrow to focus again once the new message's arrows are drawn. */
	private refocus: { id: string; direction: -1 | 1 } | undefined;

	constructor(private readonly parts: BranchParts) {}

	private chat(): (ChatPort & { alternatives: NonNullable<ChatPort["alternatives"]> }) | undefined {
		const chat = this.parts.runtime()?.chat;
		return chat?.alternatives ? (chat as ChatPort & { alternatives: NonNullable<ChatPort["alternatives"]> }) : undefined;
	}

	/** Adds the arrows and the actions to a saved message (MessageItem calls it on each apply). */
	decorate(item: MessageItem, message: ChatMessage): void {
		const chat = this.chat();
		if (!chat || (message.role !== "user" && message.role !== "assistant")) return;
		const messages = chat.messages;
		const last = messages[messages.length - 1]?.id === message.id;
		if (last) item.el.parentElement?.querySelectorAll(`.${LAST_CLS}`).forEach((el) => el.removeClass(LAST_CLS));
		item.el.toggleClass(LAST_CLS, last);
		const actionsEl = item.el.querySelector<HTMLElement>(".discover-chat-message-actions");
		if (actionsEl) {
			actionsEl.querySelectorAll(`.${ACTION_CLS}`).forEach((el) => el.remove());
			if (message.role === "user") {
				this.action(actionsEl, "pencil", t("branch.edit"), "discover-chat-edit-message", () => this.edit(item, message.id));
			} else {
				this.action(actionsEl, "refresh-cw", t("branch.regenerate"), "discover-chat-regenerate", () => this.regenerate(message.id));
				if (isContinuable(message)) this.action(actionsEl, "step-forward", t("branch.continue"), "discover-chat-continue", () => this.continueAnswer(message.id));
				// On the answer only: the person's bubble shares its line with its buttons, and a phone's line is short.
				this.action(actionsEl, "trash-2", t("branch.deleteTurn"), "discover-chat-delete-turn", () => void this.deleteTurn(message.id));
			}
		}
		void this.showAlternatives(item, message.id);
	}

	private async showAlternatives(item: MessageItem, id: string): Promise<void> {
		const chat = this.chat();
		if (!chat) return;
		const seq = (this.asked.get(item.el) ?? 0) + 1;
		this.asked.set(item.el, seq);
		const alternatives = await chat.alternatives(id).catch(() => undefined);
		if (this.asked.get(item.el) !== seq || item.id !== id || !item.el.isConnected) return;
		item.el.querySelector(".discover-chat-branch-nav")?.remove();
		if (!alternatives || alternatives.ids.length < 2) return;
		const meta = item.el.querySelector<HTMLElement>(".discover-chat-message-meta") ?? item.el;
		// Last in the row: beside the person's bubble, at the end of an answer's label line.
		const nav = renderBranchNav(meta, alternatives, (target, direction) => void this.switchTo(target, direction));
		if (this.refocus?.id === id) {
			const wanted = nav.querySelector<HTMLButtonElement>(this.refocus.direction < 0 ? ".discover-chat-branch-prev" : ".discover-chat-branch-next");
			const button = wanted && !wanted.disabled ? wanted : nav.querySelector<HTMLButtonElement>(".discover-chat-branch-arrow:not([disabled])");
			button?.focus();
			this.refocus = undefined;
		}
	}

	private action(parentEl: HTMLElement, icon: string, label: string, cls: string, onClick: () => void): void {
		const button = parentEl.createEl("button", { cls: ["clickable-icon", "discover-chat-icon-button", ACTION_CLS, cls], attr: { "aria-label": label, type: "button" } });
		setIcon(button, icon);
		setTooltip(button, label);
		button.addEventListener("click", onClick);
	}

	/** True (after telling the person) when the chat cannot change now. */
	private refused(): boolean {
		if (!this.parts.busy()) return false;
		new Notice(t("branch.busy"));
		return true;
	}

	private isLast(id: string): boolean {
		const messages = this.chat()?.messages ?? [];
		return messages[messages.length - 1]?.id === id;
	}

	regenerate(answerId: string): void {
		const chat = this.chat();
		if (!chat || this.refused() || !this.isLast(answerId)) return;
		void this.parts.send(regenerateTurn(chat.messages, this.parts.list));
	}

	continueAnswer(answerId: string): void {
		const chat = this.chat();
		const answer = chat?.messages[chat.messages.length - 1];
		if (!chat || this.refused() || answer?.id !== answerId || !isContinuable(answer)) return;
		void this.parts.send(continueTurn(chat.messages, answer, this.parts.list));
	}

	/** Replaces the message's bubble with an editor; Send branches the chat there. */
	edit(item: MessageItem, id: string): void {
		const chat = this.chat();
		const message = chat?.messages.find((m) => m.id === id);
		if (!chat || !message || this.refused()) return;
		this.openEditor(item.body, id, message.content);
	}

	private openEditor(bodyEl: HTMLElement, id: string, text: string): void {
		this.editor?.cancel();
		this.editor = new MessageEditor(bodyEl, text, {
			canSend: () => !this.refused(),
			onSend: (edited) => {
				this.editor = undefined;
				void this.parts.send(editTurn(id, edited, this.parts.list, (unsent) => this.reopen(id, unsent)));
			},
			onCancel: () => (this.editor = undefined),
		});
	}

	/**
	 * An edit that was never saved: its box opens again on the message, with the edited text (the
	 * engine left the chat on the branch that holds it). False when the message is no longer in the
	 * chat on screen (or the panel closed): the caller keeps the text elsewhere.
	 */
	private reopen(id: string, text: string): boolean {
		const chat = this.chat();
		if (!chat?.messages.some((m) => m.id === id && m.role === "user")) return false;
		// The turn took the message off the screen when it went out: the branch comes back first.
		if (!this.find(id)) this.show(id);
		const bodyEl = this.find(id)?.querySelector<HTMLElement>(":scope > .discover-chat-message-body");
		if (!bodyEl) return false;
		this.openEditor(bodyEl, id, text);
		return true;
	}

	private find(id: string): HTMLElement | null {
		return this.parts.list.scrollEl.querySelector<HTMLElement>(`.discover-chat-message[data-message-id="${CSS.escape(id)}"]`);
	}

	/** Opens the alternative `id` (its branch, down to its newest message) and shows it. */
	async switchTo(id: string, direction?: -1 | 1): Promise<void> {
		const chat = this.chat();
		if (!chat?.switchBranch || this.refused()) return;
		try {
			await chat.switchBranch(id);
		} catch (err) {
			new Notice(t("branch.failed", { error: errorText(err) }));
			return;
		}
		if (direction !== undefined) this.refocus = { id, direction };
		this.show(id);
	}

	async deleteTurn(id: string): Promise<void> {
		const chat = this.chat();
		if (!chat?.deleteTurn || this.refused()) return;
		const sessionId = chat.sessionId;
		try {
			await chat.deleteTurn(id);
		} catch (err) {
			new Notice(t("branch.failed", { error: errorText(err) }));
			return;
		}
		this.show();
		const notice = new Notice(t("branch.turnDeleted"), 8000);
		const undo = notice.messageEl.createEl("button", { cls: "discover-chat-undo", text: t("branch.undo"), attr: { type: "button" } });
		undo.addEventListener("click", () => {
			notice.hide();
			// The chat on screen is still the one the turn was deleted from: else the history browser restores it.
			if (this.chat()?.sessionId === sessionId) void this.restore(id);
		});
	}

	/** Brings back a deleted turn of the chat on screen. */
	async restore(id: string): Promise<void> {
		const chat = this.chat();
		if (!chat?.restoreTurn || this.refused()) return;
		try {
			await chat.restoreTurn(id);
		} catch (err) {
			new Notice(t("branch.failed", { error: errorText(err) }));
			return;
		}
		this.show(id);
	}

	/** Shows the active branch, with message `reveal` rendered and in view. */
	private show(reveal?: string): void {
		const list = this.parts.list;
		list.setMessages(this.chat()?.messages ?? []);
		this.parts.changed();
		if (reveal === undefined) return;
		const find = (): HTMLElement | null => this.find(reveal);
		// An alternative far up a long chat: earlier pages are rendered until it is there.
		while (!find()) {
			const before = list.renderedCount;
			list.loadEarlier();
			if (list.renderedCount === before) break;
		}
		find()?.scrollIntoView({ block: "nearest" });
	}
}

function errorText(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}
