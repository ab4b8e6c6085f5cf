import { attachmentSrc } from "../images/attachmentStore";
import { Component } from "obsidian";
import type { ChatMessage } from "../../core/types";
import type { Diagnosis } from "./errorDiagnosis";
import { MessageItem, type MessageContext } from "./MessageItem";
import { isVisibleMessage } from "../ports";
import { RenderScheduler, type RenderSchedulerOptions } from "./RenderScheduler";
import type { ToolCard } from "../../chat/toolCard";
import type { ToolsPort } from "../toolsPort";
import { ToolCards, type ShowPermissionPrompt } from "./tools/ToolCards";
import { t } from "../../i18n";
import { clearErrors, showError, showNote, showOffer, type TranscriptTail } from "./transcriptNotices";

/** Id of the answer being streamed, until the engine hands over the saved message. */
const STREAMING_ID = "discover-chat-streaming";
/** Messages rendered at once: what fits on screen plus a page. */
export const PAGE_SIZE = 30;
/** The least time between two renders of a streaming answer. */
const STREAM_RENDER_INTERVAL_MS = 50;
/** Within this many pixels of the bottom counts as "at the bottom". */
const BOTTOM_SLACK_PX = 32;

export interface MessageListOptions extends Omit<MessageContext, "onRendered"> {
	scheduler?: RenderSchedulerOptions;
	pageSize?: number;
	/** The engine's vault tools (undo); absent: cards offer no Revert. */
	tools?: () => ToolsPort | undefined;
	/** Mounts a call's permission prompt in its card. */
	permissionPrompt?: ShowPermissionPrompt;
}

/**
 * The transcript. Long sessions render lazily: the newest page first, earlier pages when the
 * person scrolls up. While an answer streams it re-renders at most once per frame, and follows the
 * answer down until the person scrolls up (and again once they return to the bottom).
 */
export class MessageList extends Component {
	readonly scrollEl: HTMLElement;
	private readonly earlierEl: HTMLButtonElement;
	private readonly itemsEl: HTMLElement;
	private readonly tailEl: HTMLElement;
	private readonly items = new Map<string, MessageItem>();
	private messages: ChatMessage[] = [];
	/** Index in `messages` of the first rendered message. */
	private firstRendered = 0;
	private summaryOf: string | undefined;
	private summaryLineEl: HTMLElement | undefined;
	private streaming: MessageItem | undefined;
	private scheduler: RenderScheduler;
	private readonly schedulerOptions: RenderSchedulerOptions | undefined;
	private readonly pageSize: number;
	private following = true;
	private unsavedCount = 0;
	private readonly ctx: MessageContext;
	/** Tool calls' cards, by call id; `tool` messages show in them, never as bubbles. */
	readonly toolCards: ToolCards;

	constructor(parentEl: HTMLElement, options: MessageListOptions) {
		super();
		this.pageSize = options.pageSize ?? PAGE_SIZE;
		this.ctx = {
			app: options.app,
			sourcePath: options.sourcePath,
			loadRemoteImages: options.loadRemoteImages,
			prices: options.prices,
			chatMessages: () => this.messages,
			decorate: options.decorate,
			onRendered: () => this.afterRender(),
			now: options.now ?? options.scheduler?.now,
		};
		this.scrollEl = parentEl.createDiv({ cls: "discover-chat-messages", attr: { role: "log", "aria-live": "polite" } });
		this.earlierEl = this.scrollEl.createEl("button", { cls: "discover-chat-load-earlier", text: t("message.showEarlier"), attr: { type: "button" } });
		this.earlierEl.addEventListener("click", () => this.loadEarlier());
		this.itemsEl = this.scrollEl.createDiv({ cls: "discover-chat-message-items" });
		this.tailEl = this.scrollEl.createDiv({ cls: "discover-chat-tail" });
		this.schedulerOptions = options.scheduler;
		this.scheduler = this.newScheduler();
		this.scrollEl.addEventListener("scroll", () => this.onScroll(), { passive: true });
		this.toolCards = new ToolCards({
			tools: options.tools ?? (() => undefined),
			showPrompt: options.permissionPrompt ?? (() => Promise.resolve({ kind: "deny" })),
			onResize: () => this.afterRender(),
			imageSrc: (ref) => attachmentSrc(options.app, ref),
			liveHost: () => {
				if (!this.streaming) this.startStreaming();
				return this.streaming!.toolCardsEl();
			},
		});
	}

	override onunload(): void {
		this.scheduler.dispose();
		this.clearItems();
	}

	/** Puts `el` above the messages, inside the scrolling area (the empty chat's welcome). */
	addIntro(el: HTMLElement): void {
		this.scrollEl.insertBefore(el, this.itemsEl);
	}

	/** No message is shown or being written. */
	get isEmpty(): boolean {
		return this.messages.length === 0 && this.streaming === undefined;
	}

	/** Shows a session: the newest page, scrolled to the end. */
	setMessages(all: readonly ChatMessage[]): void {
		this.clearItems();
		const summary = all[0]?.role === "system" ? all[0] : undefined;
		this.summaryOf = summary?.summaryOf;
		this.toolCards.setResults(all);
		this.messages = all.filter(shownAsItem);
		this.firstRendered = Math.max(0, this.messages.length - this.pageSize);
		for (let i = this.firstRendered; i < this.messages.length; i++) this.addItem(this.messages[i]!);
		this.updateEarlier();
		this.placeSummaryLine();
		this.following = true;
		this.scrollToEnd();
	}

	/** Adds or updates one saved message (from the engine's events). */
	upsert(message: ChatMessage): void {
		if (message.role === "tool") {
			this.toolCards.result(message);
			return;
		}
		if (message.role === "system") {
			this.summaryOf = message.summaryOf;
			this.placeSummaryLine();
			return;
		}
		const index = this.messages.findIndex((m) => m.id === message.id);
		if (index >= 0) this.messages[index] = message;
		const existing = this.items.get(message.id);
		if (existing) {
			existing.apply(message);
			this.attachCards(existing, message, true);
			return;
		}
		if (message.role === "assistant" && this.streaming) {
			// The streamed bubble becomes the saved message; what is on screen is kept if it matches.
			this.scheduler.flush();
			this.scheduler.dispose();
			const item = this.streaming;
			this.streaming = undefined;
			this.items.delete(STREAMING_ID);
			this.scrollEl.setAttr("aria-busy", "false");
			item.setStreaming(false);
			this.items.set(message.id, item);
			item.apply(message);
			this.attachCards(item, message, true);
		} else {
			this.addItem(message, undefined, true);
		}
		if (index < 0) this.messages.push(message);
		this.placeSummaryLine();
	}

	/** Starts an empty answer bubble that tokens stream into. */
	startStreaming(): void {
		this.endStreaming();
		// A fresh scheduler per answer: the previous one was disposed with its bubble.
		this.scheduler.dispose();
		this.scheduler = this.newScheduler();
		const item = new MessageItem(this.itemsEl, this.ctx, STREAMING_ID, "assistant", "");
		addRoleLabel(item);
		markContinued(item);
		item.setStreaming(true);
		item.render();
		this.streaming = item;
		this.items.set(STREAMING_ID, item);
		// Screen readers read the answer once it is complete, not every frame of it.
		this.scrollEl.setAttr("aria-busy", "true");
		this.following = true;
		this.scrollToEnd();
	}

	appendToken(delta: string): void {
		if (!this.streaming) return;
		this.streaming.appendText(delta);
		this.scheduler.schedule();
	}

	/** The model's thinking, streamed into the block above the answer. */
	appendThinking(delta: string): void {
		if (!this.streaming) return;
		this.streaming.appendThinking(delta);
		this.scheduler.schedule();
	}

	/** What streamed as answer text was thinking after all; it comes again through `appendThinking`. */
	retractAnswer(): void {
		if (!this.streaming) return;
		this.streaming.retractText();
		this.scheduler.schedule();
	}

	/** The stream ended without a saved message (an error, or Stop before the engine saved it). */
	endStreaming(opts: { stopped?: boolean } = {}): void {
		const item = this.streaming;
		if (!item) return;
		this.scheduler.flush();
		this.streaming = undefined;
		this.items.delete(STREAMING_ID);
		this.scrollEl.setAttr("aria-busy", "false");
		if (item.content === "" && !item.hasThinking && !item.hasToolCards) {
			item.destroy();
			return;
		}
		// Kept under its own key so clearing the list still unloads it.
		item.id = `${STREAMING_ID}-${++this.unsavedCount}`;
		this.items.set(item.id, item);
		item.setStreaming(false);
		item.setStopped(opts.stopped === true);
		item.render();
	}

	get isStreaming(): boolean {
		return this.streaming !== undefined;
	}

	/** The partial answer on screen right now. */
	get streamedText(): string {
		return this.streaming?.content ?? "";
	}

	/**
	 * An inline error: its title, one message (the connection check's diagnosis replaces the advice
	 * once it comes), Retry when it can help, and the provider's own words folded under "Details".
	 */
	showError(diagnosis: Diagnosis, onRetry?: () => void): { setProbe(text: string): void } {
		return showError(this.tail(), diagnosis, onRetry);
	}

	/** A quiet line in the transcript (e.g. a warning from the engine); `said`: raw words, folded under "Details". */
	showNote(text: string, said?: string): void {
		showNote(this.tail(), text, said);
	}

	/** A note with one action, e.g. the server's real window with a button to use it. */
	showOffer(text: string, action: string, onAction: () => Promise<string>): HTMLElement {
		return showOffer(this.tail(), text, action, onAction);
	}

	clearError(): void {
		clearErrors(this.tailEl);
	}

	/** Where the notices go, and what they ask of the list once shown. */
	private tail(): TranscriptTail {
		return { el: this.tailEl, scrollToEnd: () => this.scrollToEnd(), afterRender: () => this.afterRender() };
	}

	/** Renders the previous page above, keeping what is on screen in place. */
	loadEarlier(): void {
		if (this.firstRendered === 0) return;
		const fromBottom = this.scrollEl.scrollHeight - this.scrollEl.scrollTop;
		const start = Math.max(0, this.firstRendered - this.pageSize);
		const anchor = this.itemsEl.firstElementChild as HTMLElement | null;
		for (let i = start; i < this.firstRendered; i++) this.addItem(this.messages[i]!, anchor);
		this.firstRendered = start;
		this.updateEarlier();
		this.placeSummaryLine();
		this.scrollEl.scrollTop = this.scrollEl.scrollHeight - fromBottom;
	}

	get renderedCount(): number {
		return this.items.size;
	}

	scrollToEnd(): void {
		this.scrollEl.scrollTop = this.scrollEl.scrollHeight;
	}

	private newScheduler(): RenderScheduler {
		// Text arriving 20 times a second reads as smooth, and leaves the browser most frames free.
		return new RenderScheduler(() => this.streaming?.renderStreaming(), { minIntervalMs: STREAM_RENDER_INTERVAL_MS, ...this.schedulerOptions });
	}

	/** A call's card changed (the engine's `tool` event): updated in place, or made in the answer being written. */
	showToolCard(card: ToolCard): void {
		this.toolCards.show(card);
	}

	private addItem(message: ChatMessage, before?: HTMLElement | null, live = false): MessageItem {
		const item = new MessageItem(this.itemsEl, this.ctx, message.id, message.role, message.content, before);
		addRoleLabel(item);
		item.apply(message);
		this.attachCards(item, message, live);
		markContinued(item);
		this.items.set(message.id, item);
		return item;
	}

	private attachCards(item: MessageItem, message: ChatMessage, live: boolean): void {
		if (message.role !== "assistant" || (message.toolCalls?.length ?? 0) === 0) return;
		this.toolCards.attach(item.toolCardsEl(), message, live);
	}

	private clearItems(): void {
		this.toolCards.clear();
		for (const item of this.items.values()) item.destroy();
		this.items.clear();
		this.streaming = undefined;
		this.summaryLineEl?.remove();
		this.summaryLineEl = undefined;
		this.tailEl.empty();
	}

	private updateEarlier(): void {
		this.earlierEl.toggleClass("discover-chat-hidden", this.firstRendered === 0);
	}

	private placeSummaryLine(): void {
		const anchor = this.summaryOf ? this.items.get(this.summaryOf)?.el : undefined;
		if (!anchor) {
			this.summaryLineEl?.remove();
			return;
		}
		this.summaryLineEl ??= createSummaryLine();
		anchor.after(this.summaryLineEl);
	}

	private onScroll(): void {
		const el = this.scrollEl;
		this.following = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX;
		if (el.scrollTop < 80 && this.firstRendered > 0) this.loadEarlier();
	}

	private afterRender(): void {
		if (this.following) this.scrollToEnd();
	}
}

/** Who wrote a message, named above it (the person's is read by screen readers only: its shape says it). */
export function roleLabel(role: "user" | "assistant" | "tool"): string {
	return role === "user" ? t("message.you") : role === "tool" ? t("message.toolResult") : t("message.assistant");
}

function addRoleLabel(item: MessageItem): void {
	if (item.role === "system") return;
	// Outside the body, which re-renders: the label stays put while the text changes.
	item.el.prepend(createDiv({ cls: ["discover-chat-message-role", `discover-chat-message-role-${item.role}`], text: roleLabel(item.role) }));
}

/**
 * An answer that goes on after tool calls (the same turn, the model's next round) reads as one
 * answer: it is marked, and styles.css drops its repeated role label; the one before it, which made
 * the calls, leaves its sources line to the last answer of the turn.
 */
function markContinued(item: MessageItem): void {
	if (item.role !== "assistant") return;
	const previous = item.el.previousElementSibling;
	const afterCalls = previous?.hasClass("discover-chat-message-assistant") === true && previous.querySelector(".discover-tool-card") !== null;
	item.el.toggleClass("discover-chat-message-continued", afterCalls);
	// An answer rendered above (an earlier page) may continue this one.
	const next = item.el.nextElementSibling;
	if (next?.hasClass("discover-chat-message-assistant") && item.el.querySelector(".discover-tool-card")) next.addClass("discover-chat-message-continued");
}

/** A transcript item: tool results fold into their call's card instead. */
function shownAsItem(m: ChatMessage): boolean {
	return isVisibleMessage(m) && m.role !== "tool";
}

function createSummaryLine(): HTMLElement {
	return createDiv({ cls: "discover-chat-summary-line", text: t("message.summarized") });
}
