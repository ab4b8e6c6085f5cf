import { Modal, Notice } from "obsidian";
import type { App } from "obsidian";
import type { ChatMessage, Session } from "../chat/types";
import { iconButton } from "./ChatHeader";
import { copyToClipboard } from "./clipboard";
import { confirmAction } from "./ConfirmModal";
import { openNote, writeExportNote } from "./exportNote";
import { formatWhen } from "./format";
import { appendHighlighted } from "./highlight";
import { cachedSessionList, historyStateFor, invalidateSessionList, type HistoryState } from "./historyState";
import type { DiscoverHost } from "./host";
import { LazyMarkdown } from "./LazyMarkdown";
import { renameInput } from "./renameInput";
import { isVisibleMessage, type SearchHit, type SessionSummary, type SessionsPort } from "./ports";
import { SearchRunner, type SearchRunnerOptions } from "./SearchRunner";

export interface HistoryModalOptions {
	activeSessionId: string | undefined;
	onLoad: (id: string) => void;
	onToPrompt: (text: string) => void;
	onDeleted?: (id: string) => void;
	onRenamed?: (id: string, title: string) => void;
	search?: SearchRunnerOptions;
}

/**
 * Every saved chat: sessions on the left, the selected one's messages on the right, and a search
 * over all message text. Selection, query and scroll positions survive closing and reopening.
 */
export class HistoryModal extends Modal {
	private readonly state: HistoryState;
	private readonly runner: SearchRunner<SearchHit[]>;
	private searchEl!: HTMLInputElement;
	private listEl!: HTMLElement;
	private mainEl!: HTMLElement;
	private messagesEl: HTMLElement | undefined;
	private loadSeq = 0;
	private markdown: LazyMarkdown | undefined;

	constructor(
		app: App,
		private readonly host: DiscoverHost,
		private readonly sessions: SessionsPort,
		private readonly options: HistoryModalOptions,
	) {
		super(app);
		this.state = historyStateFor(host);
		this.runner = new SearchRunner(
			(query) => this.sessions.search(query, { limit: 100 }),
			(_query, hits) => this.renderHits(hits),
			(_query, err) => this.renderListMessage(`Search failed: ${err instanceof Error ? err.message : String(err)}`),
			options.search,
		);
	}

	override async onOpen(): Promise<void> {
		this.setTitle("Chat history");
		this.modalEl.addClass("discover-chat-history");
		const body = this.contentEl.createDiv({ cls: "discover-chat-history-body" });
		const side = body.createDiv({ cls: "discover-chat-history-side" });
		this.searchEl = side.createEl("input", {
			cls: "discover-chat-history-search",
			attr: { type: "search", placeholder: "Search all chats", "aria-label": "Search all chats" },
		});
		this.searchEl.value = this.state.query;
		this.searchEl.addEventListener("input", () => this.onQuery());
		this.listEl = side.createDiv({ cls: "discover-chat-history-list", attr: { role: "list" } });
		this.mainEl = body.createDiv({ cls: "discover-chat-history-main" });
		this.listEl.addEventListener("scroll", () => (this.state.listScroll = this.listEl.scrollTop), { passive: true });
		// Arrow keys move between chats (from the search box too); Enter or Space opens one.
		side.addEventListener("keydown", (e) => this.onListKey(e));

		const selected = this.state.selectedId ?? this.options.activeSessionId;
		if (this.state.query.trim() !== "") await this.runner.runNow(this.state.query.trim());
		else await this.renderSessions();
		this.listEl.scrollTop = this.state.listScroll;
		if (selected) await this.select(selected, { restoreScroll: true });
		else this.renderEmptyMain("Select a chat to read it.");
		this.searchEl.focus();
	}

	override onClose(): void {
		this.runner.dispose();
		this.dropMarkdown();
		this.loadSeq++;
		this.contentEl.empty();
	}

	/** Shows one session's messages on the right; with `messageId`, scrolls to that message. */
	async select(id: string, opts: { messageId?: string; restoreScroll?: boolean } = {}): Promise<void> {
		const seq = ++this.loadSeq;
		let session: Session;
		try {
			session = await this.sessions.load(id);
		} catch {
			if (seq === this.loadSeq) this.renderEmptyMain("This chat no longer exists.");
			if (this.state.selectedId === id) this.state.selectedId = undefined;
			return;
		}
		if (seq !== this.loadSeq) return;
		this.state.selectedId = id;
		this.markSelected();
		this.renderSession(session);
		if (opts.messageId) {
			const el = this.messagesEl?.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(opts.messageId)}"]`);
			if (el) {
				el.addClass("is-highlighted");
				el.scrollIntoView({ block: "center" });
			}
		} else if (opts.restoreScroll && this.messagesEl) {
			this.messagesEl.scrollTop = this.state.messagesScroll;
		}
	}

	private onListKey(e: KeyboardEvent): void {
		if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
		const items = Array.from(this.listEl.querySelectorAll<HTMLElement>(".discover-chat-history-item"));
		if (items.length === 0) return;
		e.preventDefault();
		const at = items.indexOf(activeDocument.activeElement as HTMLElement);
		const next = at < 0 ? (e.key === "ArrowDown" ? 0 : items.length - 1) : Math.min(items.length - 1, Math.max(0, at + (e.key === "ArrowDown" ? 1 : -1)));
		items[next]?.focus();
	}

	private onQuery(): void {
		const query = this.searchEl.value;
		this.state.query = query;
		if (query.trim() === "") {
			this.runner.dispose();
			void this.renderSessions();
			return;
		}
		this.runner.request(query.trim());
	}

	private async renderSessions(): Promise<void> {
		const list = await cachedSessionList(this.state, this.sessions);
		// A search typed while the list loaded wins.
		if (this.state.query.trim() !== "") return;
		this.listEl.empty();
		if (list.length === 0) {
			this.renderListMessage("No saved chats yet.");
			return;
		}
		for (const summary of list) this.renderSessionItem(summary);
		this.markSelected();
	}

	private renderSessionItem(s: SessionSummary): void {
		const item = this.listEl.createEl("button", { cls: "discover-chat-history-item", attr: { type: "button", role: "listitem" } });
		item.dataset.sessionId = s.id;
		item.createDiv({ cls: "discover-chat-history-item-title", text: s.title });
		const meta = item.createDiv({ cls: "discover-chat-history-item-meta" });
		meta.setText(`${formatWhen(s.updatedAt)} · ${s.messageCount} ${s.messageCount === 1 ? "message" : "messages"}`);
		if (s.preview) item.createDiv({ cls: "discover-chat-history-item-preview", text: s.preview });
		item.addEventListener("click", () => void this.select(s.id));
	}

	private renderHits(hits: SearchHit[]): void {
		this.listEl.empty();
		if (hits.length === 0) {
			this.renderListMessage("No messages match.");
			return;
		}
		const titles = new Map((this.state.cache?.list ?? []).map((s) => [s.id, s.title]));
		for (const hit of hits) {
			const item = this.listEl.createEl("button", { cls: ["discover-chat-history-item", "discover-chat-history-hit"], attr: { type: "button", role: "listitem" } });
			item.dataset.sessionId = hit.sessionId;
			item.dataset.messageId = hit.messageId;
			const title = titles.get(hit.sessionId);
			if (title) item.createDiv({ cls: "discover-chat-history-item-title", text: title });
			item.createDiv({ cls: "discover-chat-history-item-meta", text: `${hit.role === "user" ? "You" : "Assistant"} · ${formatWhen(hit.createdAt)}` });
			appendHighlighted(item.createDiv({ cls: "discover-chat-history-item-preview" }), hit.snippet, this.state.query.trim());
			item.addEventListener("click", () => void this.select(hit.sessionId, { messageId: hit.messageId }));
		}
		this.markSelected();
	}

	private renderListMessage(text: string): void {
		this.listEl.empty();
		this.listEl.createDiv({ cls: "discover-chat-history-empty", text });
	}

	private renderEmptyMain(text: string): void {
		this.dropMarkdown();
		this.mainEl.empty();
		this.messagesEl = undefined;
		this.mainEl.createDiv({ cls: "discover-chat-history-empty", text });
	}

	private markSelected(): void {
		this.listEl.querySelectorAll<HTMLElement>(".discover-chat-history-item").forEach((el) => {
			const on = el.dataset.sessionId === this.state.selectedId;
			el.toggleClass("is-selected", on);
			el.setAttr("aria-current", on ? "true" : "false");
		});
	}

	private renderSession(session: Session): void {
		this.dropMarkdown();
		this.mainEl.empty();
		const head = this.mainEl.createDiv({ cls: "discover-chat-history-session-header" });
		const titleEl = head.createDiv({ cls: "discover-chat-history-session-title", text: session.title });
		const actions = head.createDiv({ cls: "discover-chat-history-actions" });
		const button = (text: string, onClick: () => void, cls?: string): void => {
			const b = actions.createEl("button", { text, attr: { type: "button" }, cls: cls ?? "" });
			b.addEventListener("click", onClick);
		};
		button("Load", () => this.load(session.id), "mod-cta");
		button("Rename", () => this.rename(session, titleEl));
		button("Export to note", () => void this.exportSession(session));
		button("Delete", () => void this.deleteSession(session), "mod-warning");

		const messages = session.messages.filter(isVisibleMessage);
		this.messagesEl = this.mainEl.createDiv({ cls: "discover-chat-history-messages" });
		this.markdown = new LazyMarkdown(this.app, this.messagesEl);
		this.messagesEl.addEventListener("scroll", () => (this.state.messagesScroll = this.messagesEl?.scrollTop ?? 0), { passive: true });
		if (messages.length === 0) this.messagesEl.createDiv({ cls: "discover-chat-history-empty", text: "This chat has no messages." });
		for (const m of messages) this.renderMessage(this.messagesEl, m);
		this.markdown.load();
	}

	private dropMarkdown(): void {
		this.markdown?.unload();
		this.markdown = undefined;
	}

	private renderMessage(parent: HTMLElement, m: ChatMessage): void {
		const el = parent.createDiv({ cls: ["discover-chat-history-message", `discover-chat-message-${m.role}`] });
		el.dataset.messageId = m.id;
		const meta = el.createDiv({ cls: "discover-chat-history-message-meta" });
		meta.createSpan({ cls: "discover-chat-history-role", text: m.role === "user" ? "You" : "Assistant" });
		meta.createSpan({ cls: "discover-chat-history-when", text: formatWhen(m.createdAt) });
		if (m.cancelled) meta.createSpan({ cls: "discover-chat-message-stopped", text: "stopped" });
		iconButton(meta, "copy", "Copy message", () => void copyToClipboard(m.content));
		iconButton(meta, "corner-down-left", "Use as prompt", () => {
			this.options.onToPrompt(m.content);
			this.close();
		});
		this.markdown?.add(el.createDiv({ cls: "discover-chat-history-message-text" }), m.content.trim());
	}

	private load(id: string): void {
		this.options.onLoad(id);
		this.close();
	}

	private rename(session: Session, titleEl: HTMLElement): void {
		if (titleEl.querySelector("input")) return;
		const input = renameInput(session.title, (name) => void this.finishRename(session, titleEl, name));
		titleEl.replaceChildren(input);
		input.focus();
		input.select();
	}

	private async finishRename(session: Session, titleEl: HTMLElement, name: string | undefined): Promise<void> {
		titleEl.setText(name ?? session.title);
		if (name === undefined) return;
		session.title = name;
		await this.sessions.rename(session.id, name);
		this.options.onRenamed?.(session.id, name);
		invalidateSessionList(this.state);
		if (this.state.query.trim() === "") await this.renderSessions();
	}

	private async deleteSession(session: Session): Promise<void> {
		const ok = await confirmAction(this.app, "Delete chat", `Delete "${session.title}"? This can't be undone.`, "Delete");
		if (!ok) return;
		await this.sessions.delete(session.id);
		invalidateSessionList(this.state);
		this.state.selectedId = undefined;
		this.options.onDeleted?.(session.id);
		this.renderEmptyMain("Chat deleted.");
		if (this.state.query.trim() === "") await this.renderSessions();
		else await this.runner.runNow(this.state.query.trim());
	}

	private async exportSession(session: Session): Promise<void> {
		try {
			const markdown = await this.sessions.exportMarkdown(session.id);
			const file = await writeExportNote(this.app, this.host.settings.exportFolder, session.title, markdown);
			new Notice(`Exported to ${file.path}`);
			this.close();
			await openNote(this.app, file);
		} catch (err) {
			new Notice(`Couldn't export: ${err instanceof Error ? err.message : String(err)}`);
		}
	}
}
