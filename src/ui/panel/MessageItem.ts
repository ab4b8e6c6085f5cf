import type { App, Component } from "obsidian";
import type { ChatMessage, Role } from "../../core/types";
import { splitMarkdownBlocks } from "./markdownBlocks";
import { MessageActions } from "./MessageActions";
import { ThinkingBlock } from "./ThinkingBlock";
import { SourcesLine } from "./sources/SourcesLine";
import { renderUntrustedMarkdown } from "../safeMarkdown";
import { t } from "../../i18n";
import { renderAndSwap } from "../renderSwap";
import { renderMessageImages } from "../images/messageImages";
import { attachmentSrc } from "../images/attachmentStore";
import { AnswerInfo, type AnswerInfoContext } from "./AnswerInfo";

interface StreamBlock {
	text: string;
	/** The element on screen. */
	el: HTMLElement;
	/** The Component of what is on screen. */
	shown: Component | undefined;
	/** The newest render started; older renders finishing late are dropped. */
	latest: number;
}

/** Everything a rendered message needs from its surroundings. */
export interface MessageContext extends AnswerInfoContext {
	app: App;
	/** The note links in answers resolve against. */
	sourcePath: () => string;
	/** Called after the body changed size (for auto-scroll). */
	onRendered: () => void;
	/** A clock in milliseconds, for how long a streaming answer thinks. */
	now?: () => number;
	/** The "Load images from the web in answers" setting; off when not given. */
	loadRemoteImages?: () => boolean;
	/** Adds what a saved message offers besides its text (the branch arrows and actions); called on each apply. */
	decorate?: (item: MessageItem, message: ChatMessage) => void;
}

/**
 * One message in the transcript. Its Markdown is rendered with its own Component, unloaded when
 * the body is rendered again or the message leaves the list, so post-processors never leak.
 */
export class MessageItem {
	readonly el: HTMLElement;
	private readonly bodyEl: HTMLElement;
	private readonly metaEl: HTMLElement;
	private imagesEl: HTMLElement | undefined;
	private component: Component | undefined;
	private renderSeq = 0;
	private renderedText: string | undefined;
	private stopped = false;
	private interrupted = false;
	/** The streamed answer's blocks, each rendered with its own Component. */
	private blocks: StreamBlock[] = [];
	private blocksEl: HTMLElement | undefined;
	content: string;
	/** The model's thinking, shown above the answer. */
	private thinking = "";
	private thinkingMs: number | undefined;
	/** While streaming: when the first thinking or text arrived, and whether the model is thinking now. */
	private streamStartedAt: number | undefined;
	private thinkingLive = false;
	private thinkingBlock: ThinkingBlock | undefined;
	/** What the model was given with this answer; made when an answer first has sources. */
	private sourcesLine: SourcesLine | undefined;
	/** The answer's tool cards, after its text; made with the first call. */
	private cardsEl: HTMLElement | undefined;
	/** What the answer cost; made when an answer first has stats. */
	private answerInfo: AnswerInfo | undefined;

	constructor(
		parentEl: HTMLElement,
		private readonly ctx: MessageContext,
		public id: string,
		readonly role: Role,
		content: string,
		before?: HTMLElement | null,
	) {
		this.content = content;
		this.el = parentEl.createDiv({ cls: ["discover-chat-message", `discover-chat-message-${role}`] });
		this.el.dataset.messageId = id;
		if (before) parentEl.insertBefore(this.el, before);
		this.bodyEl = this.el.createDiv({ cls: "discover-chat-message-body" });
		this.metaEl = this.el.createDiv({ cls: "discover-chat-message-meta" });
		new MessageActions(this.metaEl, ctx.app, role, () => this.content, this.el);
	}

	/** Applies a saved message: content, the "stopped" or "interrupted" mark, an error note. */
	apply(message: ChatMessage): void {
		if (message.id !== this.id) {
			this.id = message.id;
			this.el.dataset.messageId = message.id;
		}
		this.content = message.content;
		this.thinking = message.thinking ?? "";
		// The streamed measure stands until the saved one arrives; both time the same span.
		this.thinkingMs = message.thinkingMs ?? this.thinkingMs;
		this.thinkingLive = false;
		this.setStopped(message.cancelled === true);
		this.setInterrupted(message.interrupted === true);
		this.el.toggleClass("discover-chat-message-failed", message.error !== undefined);
		this.showSources(message);
		this.showImages(message);
		this.showStats(message);
		this.render();
		this.ctx.decorate?.(this, message);
	}

	/** The images the person sent, from their vault files, above the text. */
	private showImages(message: ChatMessage): void {
		const images = message.role === "user" ? (message.attachments ?? []) : [];
		if (images.length === 0 && !this.imagesEl) return;
		if (!this.imagesEl) {
			this.imagesEl = this.el.createDiv({ cls: "discover-chat-message-images" });
			this.el.insertBefore(this.imagesEl, this.bodyEl);
		}
		renderMessageImages(this.imagesEl, images, (ref) => attachmentSrc(this.ctx.app, ref));
	}

	private showSources(message: ChatMessage): void {
		const sources = message.role === "assistant" ? (message.sources ?? []) : [];
		if (sources.length === 0 && !this.sourcesLine) return;
		this.sourcesLine ??= new SourcesLine(this.el, this.ctx.app, this.metaEl);
		void this.sourcesLine.update(sources, message.createdAt);
	}

	private showStats(message: ChatMessage): void {
		const stats = message.role === "assistant" ? message.stats : undefined;
		if (stats === undefined) return;
		if (this.answerInfo) this.answerInfo.update(stats);
		else this.answerInfo = new AnswerInfo(this.metaEl.querySelector<HTMLElement>(".discover-chat-message-actions") ?? this.metaEl, stats, this.ctx);
	}

	setStopped(stopped: boolean): void {
		this.stopped = stopped;
		let mark = this.metaEl.querySelector<HTMLElement>(".discover-chat-message-stopped");
		if (stopped && !mark) {
			mark = this.metaEl.createSpan({ cls: "discover-chat-message-stopped", text: t("message.stopped") });
			this.metaEl.prepend(mark);
		} else if (!stopped && mark) mark.remove();
	}

	/** The app stopped while this answer streamed: what was saved of it is shown, marked. */
	setInterrupted(interrupted: boolean): void {
		this.interrupted = interrupted;
		let mark = this.metaEl.querySelector<HTMLElement>(".discover-chat-message-interrupted");
		if (interrupted && !mark) {
			mark = this.metaEl.createSpan({ cls: "discover-chat-message-interrupted", text: t("message.interrupted") });
			this.metaEl.prepend(mark);
		} else if (!interrupted && mark) mark.remove();
	}

	setStreaming(streaming: boolean): void {
		this.el.toggleClass("discover-chat-message-streaming", streaming);
		if (!streaming && this.thinkingLive) {
			// Ended while still thinking (stopped, or an error): it thought until now.
			this.thinkingLive = false;
			this.thinkingMs = this.elapsed();
		}
	}

	/** Streams answer text; the first after thinking folds the thinking away. */
	appendText(delta: string): void {
		this.streamStartedAt ??= this.clock();
		this.content += delta;
		if (this.thinkingLive && this.content !== "") {
			this.thinkingLive = false;
			this.thinkingMs = this.elapsed();
			this.renderThinking();
			this.thinkingBlock?.fold();
		}
	}

	appendThinking(delta: string): void {
		this.streamStartedAt ??= this.clock();
		this.thinking += delta;
		this.thinkingLive = this.content === "";
	}

	get hasThinking(): boolean {
		return this.thinking !== "";
	}

	/** Where this answer's tool cards go (after its text, before its actions). */
	toolCardsEl(): HTMLElement {
		if (!this.cardsEl) {
			this.cardsEl = createDiv({ cls: "discover-tool-cards" });
			this.el.insertBefore(this.cardsEl, this.metaEl);
			// An answer that is only calls shows no "…" for text that will not come.
			this.render();
		}
		return this.cardsEl;
	}

	get hasToolCards(): boolean {
		return this.cardsEl !== undefined && this.cardsEl.childElementCount > 0;
	}

	/** The text streamed so far was thinking after all (it comes again as thinking). */
	retractText(): void {
		this.content = "";
	}

	/**
	 * While streaming: renders block by block, re-rendering only blocks that changed (in practice
	 * the last one), so the cost per frame stays flat however long the answer grows.
	 */
	renderStreaming(): void {
		this.renderThinking();
		if (this.content === "") {
			this.render();
			return;
		}
		const parts = splitMarkdownBlocks(this.content);
		if (!this.blocksEl) {
			this.renderSeq++;
			this.component?.unload();
			this.component = undefined;
			this.bodyEl.empty();
			this.blocksEl = this.bodyEl.createDiv({ cls: ["discover-chat-message-markdown", "markdown-rendered"] });
		}
		const container = this.blocksEl;
		if (!container) return;
		parts.forEach((text, i) => {
			let block = this.blocks[i];
			if (block?.text === text) return;
			if (!block) {
				block = { text, el: container.createDiv({ cls: "discover-chat-message-block" }), shown: undefined, latest: 0 };
				this.blocks[i] = block;
			}
			block.text = text;
			const seq = ++block.latest;
			const current = block;
			void renderAndSwap({
				render: (target, component) => this.renderMarkdown(text, target, component),
				fallbackText: text,
				cls: "discover-chat-message-block",
				isCurrent: () => seq === current.latest,
				swap: (target, component) => {
					current.shown?.unload();
					current.shown = component;
					current.el.replaceWith(target);
					current.el = target;
					this.ctx.onRendered();
				},
			});
		});
		for (const extra of this.blocks.splice(parts.length)) {
			extra.latest++;
			extra.shown?.unload();
			extra.el.remove();
		}
		this.renderedText = this.content;
	}

	/** Renders the current content unless it is already on screen. */
	render(): void {
		this.renderThinking();
		const waiting = this.thinkingLive || this.cardsEl !== undefined ? "" : "…";
		const text = this.content !== "" || this.role !== "assistant" ? this.content : this.stopped ? `*${t("message.stoppedBeforeAnswer")}*` : this.interrupted ? `*${t("message.interruptedBeforeAnswer")}*` : waiting;
		if (this.renderedText === text) return;
		this.renderedText = text;
		this.dropBlocks();
		const seq = ++this.renderSeq;
		// Rendered off-screen and swapped in, so a slow render never shows an empty bubble.
		void renderAndSwap({
			render: (target, component) => this.renderMarkdown(text, target, component),
			fallbackText: text,
			cls: "discover-chat-message-markdown markdown-rendered",
			isCurrent: () => seq === this.renderSeq,
			swap: (target, component) => {
				this.component?.unload();
				this.component = component;
				this.bodyEl.replaceChildren(target);
				this.ctx.onRendered();
			},
		});
	}

	private renderThinking(): void {
		if (this.thinking === "") {
			this.thinkingBlock?.remove();
			this.thinkingBlock = undefined;
			return;
		}
		// Open while the model thinks; a saved answer's thinking starts folded.
		this.thinkingBlock ??= new ThinkingBlock(this.bodyEl, this.thinkingLive);
		this.thinkingBlock.update(this.thinking, this.thinkingLive, this.thinkingMs);
	}

	private clock(): number {
		return (this.ctx.now ?? (() => performance.now()))();
	}

	private elapsed(): number | undefined {
		return this.streamStartedAt === undefined ? undefined : Math.max(0, this.clock() - this.streamStartedAt);
	}

	private renderMarkdown(text: string, el: HTMLElement, component: Component): Promise<void> {
		return renderUntrustedMarkdown(this.ctx.app, text, el, this.ctx.sourcePath(), component, this.ctx.loadRemoteImages?.() === true);
	}

	/** The message's element carrying the rendered Markdown (for tests and scroll-to). */
	get body(): HTMLElement {
		return this.bodyEl;
	}

	destroy(): void {
		this.dropBlocks();
		this.renderSeq++;
		this.component?.unload();
		this.component = undefined;
		this.el.remove();
	}

	private dropBlocks(): void {
		for (const block of this.blocks) {
			block.latest++;
			block.shown?.unload();
		}
		this.blocks = [];
		this.blocksEl = undefined;
	}
}
