import { setIcon, type App } from "obsidian";
import type { ChatMessage } from "../../core/types";
import { iconButton } from "../panel/ChatHeader";
import { copyToClipboard } from "../clipboard";
import { formatWhen } from "../../i18n";
import { roleName } from "../ports";
import { LazyMarkdown } from "../LazyMarkdown";
import type { ToolRowLabel } from "./toolRows";
import { outcomeForPerson } from "../panel/tools/toolOutcomeText";
import { RESULT_SHOWN_CHARS } from "../panel/tools/ToolCardView";
import { visibleText } from "../panel/permissionText";
import { t } from "../../i18n";

/** Messages added at a time: more than a tall modal shows, so scrolling never waits. */
export const TRANSCRIPT_PAGE_SIZE = 40;
/** Within this many pixels of the end, the next page is added. */
const NEAR_END_PX = 600;
/** At most this many rounds (frames) of laying out a restored position before it is shown anyway. */
const RESTORE_ROUNDS = 8;

export interface HistoryTranscriptHandlers {
	onToPrompt: (text: string) => void;
	/** The person scrolled (the position is restored on reopen). */
	onScroll: (scrollTop: number) => void;
	/** More messages are on screen (as many are rendered on reopen, so the scroll can be restored). */
	onShown: (count: number) => void;
	/** The "Load images from the web in answers" setting; off when not given. */
	loadRemoteImages?: () => boolean;
	/** A tool result's row: its call's title and icon (toolRowLabels); none: "Tool result". */
	toolLabel?: (message: ChatMessage) => ToolRowLabel | undefined;
}

/**
 * The selected chat's messages in the history browser, oldest first. A long chat is added page by
 * page as the person scrolls, and its Markdown rendered only when it comes into view.
 */
export class HistoryTranscript {
	readonly el: HTMLElement;
	private readonly markdown: LazyMarkdown;
	private readonly messages: readonly ChatMessage[];
	private shown = 0;
	private restoring = false;
	private destroyed = false;

	constructor(parentEl: HTMLElement, app: App, messages: readonly ChatMessage[], private readonly handlers: HistoryTranscriptHandlers, minShown = 0) {
		this.messages = messages;
		this.el = parentEl.createDiv({ cls: "discover-chat-history-messages" });
		this.markdown = new LazyMarkdown(app, this.el, "", () => handlers.loadRemoteImages?.() === true);
		this.el.addEventListener("scroll", () => this.onScroll(), { passive: true });
		if (messages.length === 0) this.el.createDiv({ cls: "discover-chat-history-empty", text: t("history.noMessages") });
		this.renderUpTo(Math.max(TRANSCRIPT_PAGE_SIZE, minShown));
		this.markdown.load();
	}

	/** Renders down to message `id` and returns its element. */
	reveal(id: string): HTMLElement | undefined {
		const index = this.messages.findIndex((m) => m.id === id);
		if (index < 0) return undefined;
		// The hit and a little after it, so it can sit in the middle of the view.
		this.renderUpTo(index + 1 + TRANSCRIPT_PAGE_SIZE / 2);
		return this.el.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(id)}"]`) ?? undefined;
	}

	/**
	 * Puts the view at `top` while it is hidden, and shows it only once it is in place, so the person
	 * never sees the transcript at its start, as plain text, or moving. Each round adds pages until
	 * the content reaches `top`, renders the Markdown in view, and lets the browser lay out a frame
	 * (messages coming on screen get their real height then, and scroll anchoring reacts); it ends
	 * when a frame changes nothing.
	 */
	async restoreScroll(top: number): Promise<void> {
		this.restoring = true;
		this.el.addClass("is-restoring");
		try {
			for (let round = 0; round < RESTORE_ROUNDS; round++) {
				this.scrollToTop(top);
				const at = this.el.scrollTop;
				const height = this.el.scrollHeight;
				const rendered = await this.markdown.renderInView();
				await nextFrame(this.el);
				if (this.destroyed) return;
				if (rendered === 0 && this.el.scrollTop === at && this.el.scrollHeight === height) return;
			}
			this.scrollToTop(top);
		} finally {
			this.restoring = false;
			this.el.removeClass("is-restoring");
		}
	}

	get renderedCount(): number {
		return this.shown;
	}

	destroy(): void {
		this.destroyed = true;
		this.markdown.unload();
		this.el.remove();
	}

	private renderUpTo(count: number): void {
		const end = Math.min(this.messages.length, count);
		if (end <= this.shown) return;
		for (let i = this.shown; i < end; i++) this.renderMessage(this.messages[i]!);
		this.shown = end;
		this.handlers.onShown(this.shown);
	}

	/** Scrolls to `top`, adding pages while the content is still too short to get there. */
	private scrollToTop(top: number): void {
		this.el.scrollTop = top;
		while (this.el.scrollTop < top - 1 && this.shown < this.messages.length) {
			this.renderUpTo(this.shown + TRANSCRIPT_PAGE_SIZE);
			this.el.scrollTop = top;
		}
	}

	private onScroll(): void {
		const el = this.el;
		// A scroll the browser reports after the history closed comes from a detached element, whose
		// scrollTop reads 0: it says nothing about where the person was. Nor does our own restoring.
		if (!el.isConnected || this.restoring) return;
		if (this.shown < this.messages.length && el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_END_PX) this.renderUpTo(this.shown + TRANSCRIPT_PAGE_SIZE);
		this.handlers.onScroll(el.scrollTop);
	}

	private renderMessage(m: ChatMessage): void {
		// One card style for every message; the label says who wrote it.
		const el = this.el.createDiv({ cls: ["discover-chat-history-message", `discover-chat-history-message-${m.role}`] });
		el.dataset.messageId = m.id;
		const meta = el.createDiv({ cls: "discover-chat-history-message-meta" });
		const tool = m.role === "tool" ? this.handlers.toolLabel?.(m) : undefined;
		if (tool !== undefined) setIcon(meta.createSpan({ cls: "discover-chat-history-tool-icon" }), tool.icon);
		meta.createSpan({ cls: ["discover-chat-history-role", ...(tool !== undefined ? ["discover-chat-history-tool-title"] : [])], text: tool?.title ?? roleName(m.role) });
		meta.createSpan({ cls: "discover-chat-history-when", text: formatWhen(m.createdAt) });
		if (m.cancelled) meta.createSpan({ cls: "discover-chat-message-stopped", text: t("history.stopped") });
		if (m.interrupted) meta.createSpan({ cls: "discover-chat-message-interrupted", text: t("message.interrupted") });
		iconButton(meta, "copy", t("message.copy"), () => void copyToClipboard(m.content));
		if (m.role === "tool") {
			// What a tool gave the model is quoted, as text: a note's "# Tides" is not a heading of this chat,
			// and it is nothing the person wrote, so it is not offered as a prompt.
			el.createDiv({ cls: "discover-chat-history-tool-result", text: capHead(outcomeForPerson(m.content.trim()), RESULT_SHOWN_CHARS).split("\n").map(visibleText).join("\n") });
			return;
		}
		useAsPromptButton(meta, () => this.handlers.onToPrompt(m.content));
		this.markdown.add(el.createDiv({ cls: ["discover-chat-history-message-text", "markdown-rendered"] }), m.content.trim());
	}
}

function capHead(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** "Use as prompt", in words: an icon alone (↵) did not say what it does. */
function useAsPromptButton(parentEl: HTMLElement, onClick: () => void): HTMLButtonElement {
	const button = parentEl.createEl("button", { cls: ["clickable-icon", "discover-chat-history-use"], attr: { type: "button" } });
	setIcon(button.createSpan({ cls: "discover-chat-history-use-icon" }), "corner-down-left");
	button.createSpan({ text: t("history.useAsPrompt") });
	button.addEventListener("click", onClick);
	return button;
}

/**
 * Scrolls `el` up to the top of the first message that the view's top edge cuts, so no card shows
 * cut off under the chat's toolbar; what was in view stays in view, a little lower.
 */
export function alignToMessageTop(el: HTMLElement): void {
	const top = el.getBoundingClientRect().top;
	for (const card of Array.from(el.querySelectorAll<HTMLElement>(".discover-chat-history-message"))) {
		const r = card.getBoundingClientRect();
		if (r.bottom <= top + 1) continue;
		if (r.top < top - 1) el.scrollTop -= top - r.top;
		return;
	}
}

/** Resolves after the browser's next frame (its layout included). */
function nextFrame(el: HTMLElement): Promise<void> {
	return new Promise((resolve) => el.win.requestAnimationFrame(() => resolve()));
}
