import { Modal, Notice } from "obsidian";
import type { App } from "obsidian";
import type { ChatMessage, Session } from "../../core/types";
import { confirmAction } from "./ConfirmModal";
import { openNote, writeExportNote } from "./exportNote";
import { cachedSessionList, historyStateFor, invalidateSessionList, type HistoryState } from "./historyState";
import { HistoryList } from "./HistoryList";
import { chatTotalText } from "../costText";
import { HiddenTurns } from "./HiddenTurns";
import type { DiscoverHost } from "../host";
import { alignToMessageTop, HistoryTranscript } from "./HistoryTranscript";
import { renameInput } from "../renameInput";
import type { SearchHit, SessionsPort } from "../ports";
import { historyMessages, toolRowLabels } from "./toolRows";
import { SearchRunner, type SearchRunnerOptions } from "./SearchRunner";
import { t } from "../../i18n";

export interface HistoryModalOptions {
	activeSessionId: string | undefined;
	/** `at`: a search hit on another branch: the chat opens on that branch. */
	onLoad: (id: string, at?: string) => void;
	/** Restores a deleted turn of chat `id` (through the engine when that chat is on screen). */
	onRestoreTurn?: (id: string, messageId: string) => Promise<void>;
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
	private list!: HistoryList;
	private mainEl!: HTMLElement;
	private transcript: HistoryTranscript | undefined;
	private loadSeq = 0;
	/** Hits to render at least, once, when a search is restored on reopen. */
	private restoreShown = 0;

	constructor(
		app: App,
		private readonly host: DiscoverHost,
		private readonly sessions: SessionsPort,
		private readonly options: HistoryModalOptions,
	) {
		super(app);
		this.state = historyStateFor(host);
		this.runner = new SearchRunner(
			// The list too: hits show their chat's title, which only the list knows.
			async (query) => (await Promise.all([this.sessions.search(query, { limit: 100 }), cachedSessionList(this.state, this.sessions)]))[0],
			(_query, hits) => this.renderHits(hits),
			(_query, err) => this.list.showMessage(t("history.searchFailed", { error: errorText(err) })),
			options.search,
		);
	}

	override async onOpen(): Promise<void> {
		this.setTitle(t("history.title"));
		this.modalEl.addClass("discover-chat-history");
		const body = this.contentEl.createDiv({ cls: "discover-chat-history-body" });
		const side = body.createDiv({ cls: "discover-chat-history-side" });
		this.searchEl = side.createEl("input", {
			cls: "discover-chat-history-search",
			attr: { type: "search", placeholder: t("history.search"), "aria-label": t("history.search") },
		});
		this.searchEl.value = this.state.query;
		this.searchEl.addEventListener("input", () => this.onQuery());
		this.list = new HistoryList(side, {
			onSelect: (id, messageId, otherBranch) => void this.select(id, { messageId, otherBranch }),
			onScroll: (top) => (this.state.listScroll = top),
			onShown: (count) => (this.state.listShown = count),
			total: (s) => chatTotalText(s.usage, { prices: this.host.settings.modelPrices, currency: this.host.settings.priceCurrency }),
		});
		this.mainEl = body.createDiv({ cls: "discover-chat-history-main" });
		// Arrow keys move between chats (from the search box too); Enter or Space opens one.
		side.addEventListener("keydown", (e) => this.list.onKey(e));

		const selected = this.state.selectedId ?? this.options.activeSessionId;
		// As many items as were on screen, so the saved scroll position exists again.
		const { listScroll, listShown } = this.state;
		if (this.state.query.trim() !== "") {
			this.restoreShown = listShown;
			await this.runner.runNow(this.state.query.trim());
		} else await this.renderSessions(listShown);
		this.list.restoreScroll(listScroll);
		this.state.listScroll = listScroll;
		// The saved position belongs to the chat selected last time, not to the active one.
		if (selected) await this.select(selected, { restoreScroll: selected === this.state.selectedId });
		else this.renderEmptyMain(t("history.selectChat"));
		this.searchEl.focus();
		// Read every chat now, while the person looks at the list, so the first search answers at once.
		void this.sessions.warmSearch?.().catch(() => undefined);
	}

	override onClose(): void {
		this.runner.dispose();
		this.dropTranscript();
		this.loadSeq++;
		this.contentEl.empty();
	}

	/** Shows one session's messages on the right; with `messageId`, scrolls to that message. */
	async select(id: string, opts: { messageId?: string; restoreScroll?: boolean; otherBranch?: boolean } = {}): Promise<void> {
		const seq = ++this.loadSeq;
		let session: Session;
		try {
			session = await this.sessions.load(id);
		} catch {
			if (seq === this.loadSeq) this.renderEmptyMain(t("history.gone"));
			if (this.state.selectedId === id) this.state.selectedId = undefined;
			return;
		}
		if (seq !== this.loadSeq) return;
		this.state.selectedId = id;
		this.list.markSelected(id);
		const restore = opts.restoreScroll === true && !opts.messageId;
		// A hit on another branch: the transcript shows the active branch, and Load opens the hit's.
		const at = opts.otherBranch === true ? opts.messageId : undefined;
		const transcript = this.renderSession(session, restore ? this.state.messagesShown : 0, at);
		if (restore) {
			await transcript.restoreScroll(this.state.messagesScroll);
			return;
		}
		const el = opts.messageId ? transcript.reveal(opts.messageId) : undefined;
		if (el) {
			el.addClass("is-highlighted");
			el.scrollIntoView({ block: "center" });
			alignToMessageTop(transcript.el);
		}
		// Another chat opens at its top (or at the hit): the previous chat's position no longer applies.
		this.state.messagesScroll = transcript.el.scrollTop;
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

	private async renderSessions(minShown = 0): Promise<void> {
		const list = await cachedSessionList(this.state, this.sessions);
		// A search typed while the list loaded wins.
		if (this.state.query.trim() !== "") return;
		this.list.markSelected(this.state.selectedId);
		this.list.showSessions(list, minShown);
	}

	private renderHits(hits: SearchHit[]): void {
		const titles = new Map((this.state.cache?.list ?? []).map((s) => [s.id, s.title]));
		this.list.markSelected(this.state.selectedId);
		this.list.showHits(hits, titles, this.state.query.trim(), this.restoreShown);
		this.restoreShown = 0;
	}

	private renderEmptyMain(text: string): void {
		this.dropTranscript();
		this.mainEl.empty();
		this.mainEl.createDiv({ cls: "discover-chat-history-empty", text });
	}

	private renderSession(session: Session, minShown: number, at?: string): HistoryTranscript {
		this.dropTranscript();
		this.mainEl.empty();
		const head = this.mainEl.createDiv({ cls: "discover-chat-history-session-header" });
		const titleEl = head.createDiv({ cls: "discover-chat-history-session-title", text: session.title });
		const actions = head.createDiv({ cls: "discover-chat-history-actions" });
		const button = (text: string, onClick: () => void, cls?: string): void => {
			const b = actions.createEl("button", { text, attr: { type: "button" }, cls: cls ?? "" });
			b.addEventListener("click", onClick);
		};
		button(t("history.load"), () => this.load(session.id, at), "mod-cta");
		button(t("history.rename"), () => this.rename(session, titleEl));
		button(t("history.export"), () => void this.exportSession(session));
		// Quiet until asked: the confirmation is where Delete turns red, not the toolbar.
		button(t("history.delete"), () => void this.deleteSession(session), "discover-chat-history-delete");
		if (at !== undefined) this.mainEl.createDiv({ cls: "discover-chat-history-branch-note", text: t("history.otherBranchNote") });
		this.showHiddenTurns(session.id);

		const handlers = {
			onToPrompt: (text: string) => {
				this.options.onToPrompt(text);
				this.close();
			},
			onScroll: (top: number) => (this.state.messagesScroll = top),
			onShown: (count: number) => (this.state.messagesShown = count),
			loadRemoteImages: () => this.host.settings.loadRemoteImages,
			toolLabel: (m: ChatMessage) => toolLabels.get(m.id),
		};
		// Tool results read as the panel's cards do; answers that only made calls say nothing more.
		const toolLabels = toolRowLabels(session.messages);
		this.transcript = new HistoryTranscript(this.mainEl, this.app, historyMessages(session.messages), handlers, minShown);
		return this.transcript;
	}

	private dropTranscript(): void {
		this.transcript?.destroy();
		this.transcript = undefined;
	}

	private showHiddenTurns(id: string): void {
		const sessions = this.sessions;
		const restore = this.options.onRestoreTurn;
		if (!sessions.hiddenTurns || !restore) return;
		const hidden = new HiddenTurns(
			this.mainEl,
			() => sessions.hiddenTurns?.(id) ?? Promise.resolve([]),
			(messageId) => restore(id, messageId),
			() => {
				invalidateSessionList(this.state);
				void this.select(id);
			},
		);
		void hidden.refresh();
	}

	private load(id: string, at?: string): void {
		this.options.onLoad(id, at);
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
		try {
			await this.sessions.rename(session.id, name);
		} catch (err) {
			titleEl.setText(session.title);
			new Notice(t("panel.renameFailed", { error: errorText(err) }));
			return;
		}
		session.title = name;
		this.options.onRenamed?.(session.id, name);
		invalidateSessionList(this.state);
		if (this.state.query.trim() === "") await this.renderSessions();
	}

	private async deleteSession(session: Session): Promise<void> {
		const ok = await confirmAction(this.app, t("history.deleteTitle"), t("history.deleteConfirm", { title: session.title }), t("history.delete"));
		if (!ok) return;
		try {
			await this.sessions.delete(session.id);
		} catch (err) {
			new Notice(t("history.deleteFailed", { error: errorText(err) }));
			return;
		}
		invalidateSessionList(this.state);
		this.state.selectedId = undefined;
		this.options.onDeleted?.(session.id);
		this.renderEmptyMain(t("history.deleted"));
		if (this.state.query.trim() === "") await this.renderSessions();
		else await this.runner.runNow(this.state.query.trim());
	}

	private async exportSession(session: Session): Promise<void> {
		try {
			const markdown = await this.sessions.exportMarkdown(session.id, { includeThinking: this.host.settings.includeThinkingInExports });
			const file = await writeExportNote(this.app, this.host.settings.exportFolder, session.title, markdown);
			new Notice(t("history.exported", { path: file.path }));
			this.close();
			await openNote(this.app, file);
		} catch (err) {
			new Notice(t("history.exportFailed", { error: errorText(err) }));
		}
	}
}

function errorText(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}
