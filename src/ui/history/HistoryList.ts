import { formatWhen } from "../../i18n";
import { appendHighlighted } from "./highlight";
import { plainSnippet } from "./plainSnippet";
import { toolHitLabel } from "./toolRows";
import { outcomeForPerson } from "../panel/tools/toolOutcomeText";
import { setIcon } from "obsidian";
import { roleName, type SearchHit, type SessionSummary } from "../ports";
import { t } from "../../i18n";

/** Items added at a time: a page more than a tall modal shows, so scrolling never waits. */
export const HISTORY_PAGE_SIZE = 100;
/** Within this many pixels of the end, the next page is added. */
const NEAR_END_PX = 400;

export interface HistoryListHandlers {
	/** `otherBranch`: the hit is on a branch of the chat that is not the active one. */
	onSelect: (sessionId: string, messageId?: string, otherBranch?: boolean) => void;
	/** The person scrolled (the position is restored on reopen). */
	onScroll: (scrollTop: number) => void;
	/** More items are on screen (as many are rendered on reopen, so the scroll can be restored). */
	onShown: (count: number) => void;
	/** A chat's total (tokens, and cost when priced), shown under its title; undefined: none. */
	total?: (summary: SessionSummary) => string | undefined;
}

/**
 * The left column of the history browser: saved chats, or search hits. A long list is added page
 * by page as the person scrolls (or moves with the arrow keys), so a thousand chats open at once.
 */
export class HistoryList {
	readonly el: HTMLElement;
	/** Renders each item not yet on screen, in order. */
	private queue: (() => void)[] = [];
	private shown = 0;
	private selectedId: string | undefined;

	constructor(parentEl: HTMLElement, private readonly handlers: HistoryListHandlers) {
		// Plain buttons in a labelled group: a list role on buttons would hide that they are buttons.
		this.el = parentEl.createDiv({ cls: "discover-chat-history-list", attr: { role: "group", "aria-label": t("history.chats") } });
		this.el.addEventListener("scroll", () => this.onScroll(), { passive: true });
	}

	/** Saved chats, newest first; at least `minShown` items are rendered (to restore a scroll). */
	showSessions(list: readonly SessionSummary[], minShown = 0): void {
		if (list.length === 0) {
			this.showMessage(t("history.none"));
			return;
		}
		this.reset(list.map((s) => () => this.renderSession(s)), minShown);
	}

	/** Search hits, with their chat's title when known and the query marked in the snippet. */
	showHits(hits: readonly SearchHit[], titles: ReadonlyMap<string, string>, query: string, minShown = 0): void {
		if (hits.length === 0) {
			this.showMessage(t("history.noMatch"));
			return;
		}
		this.reset(hits.map((hit) => () => this.renderHit(hit, titles.get(hit.sessionId), query)), minShown);
	}

	showMessage(text: string): void {
		this.reset([], 0);
		this.el.createDiv({ cls: "discover-chat-history-empty", text });
	}

	markSelected(id: string | undefined): void {
		this.selectedId = id;
		for (const el of this.items()) this.mark(el);
	}

	get renderedCount(): number {
		return this.shown;
	}

	/** Scrolls to `top`, adding pages while the list is still too short to get there. */
	restoreScroll(top: number): void {
		this.el.scrollTop = top;
		while (this.el.scrollTop < top - 1 && this.queue.length > 0) {
			this.renderPage(HISTORY_PAGE_SIZE);
			this.el.scrollTop = top;
		}
	}

	/** Arrow keys move between items (from the search box too), adding the next page at the end. */
	onKey(e: KeyboardEvent): void {
		if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
		let items = this.items();
		if (items.length === 0) return;
		e.preventDefault();
		const at = items.indexOf(activeDocument.activeElement as HTMLElement);
		if (e.key === "ArrowDown" && at === items.length - 1 && this.queue.length > 0) {
			this.renderPage(HISTORY_PAGE_SIZE);
			items = this.items();
		}
		const next = at < 0 ? (e.key === "ArrowDown" ? 0 : items.length - 1) : Math.min(items.length - 1, Math.max(0, at + (e.key === "ArrowDown" ? 1 : -1)));
		items[next]?.focus();
	}

	private items(): HTMLElement[] {
		return Array.from(this.el.querySelectorAll<HTMLElement>(".discover-chat-history-item"));
	}

	private reset(renderers: (() => void)[], minShown: number): void {
		this.el.empty();
		this.queue = renderers;
		this.shown = 0;
		this.renderPage(Math.max(HISTORY_PAGE_SIZE, minShown));
	}

	private renderPage(count: number): void {
		const page = this.queue.splice(0, count);
		for (const render of page) render();
		this.shown += page.length;
		if (page.length > 0) this.handlers.onShown(this.shown);
	}

	private onScroll(): void {
		const el = this.el;
		// After the history closed, the browser may still report a scroll, from the detached list
		// (whose scrollTop reads 0): it is not where the person was.
		if (!el.isConnected) return;
		if (this.queue.length > 0 && el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_END_PX) this.renderPage(HISTORY_PAGE_SIZE);
		this.handlers.onScroll(el.scrollTop);
	}

	private item(sessionId: string, cls: string[] = []): HTMLButtonElement {
		const item = this.el.createEl("button", { cls: ["discover-chat-history-item", ...cls], attr: { type: "button" } });
		item.dataset.sessionId = sessionId;
		this.mark(item);
		return item;
	}

	private mark(el: HTMLElement): void {
		const on = el.dataset.sessionId === this.selectedId;
		el.toggleClass("is-selected", on);
		el.setAttr("aria-current", on ? "true" : "false");
	}

	private renderSession(s: SessionSummary): void {
		const item = this.item(s.id);
		item.createDiv({ cls: "discover-chat-history-item-title", text: s.title });
		const meta = item.createDiv({
			cls: "discover-chat-history-item-meta",
			text: t("history.meta", { when: formatWhen(s.updatedAt), count: s.messageCount }),
		});
		// On the meta line, after a separator drawn by CSS: one line more per chat would cost the list a row.
		const total = this.handlers.total?.(s);
		if (total !== undefined) meta.createSpan({ cls: "discover-chat-history-item-total", text: total });
		if (s.preview) item.createDiv({ cls: "discover-chat-history-item-preview", text: plainSnippet(outcomeForPerson(s.preview)) });
		item.addEventListener("click", () => this.handlers.onSelect(s.id));
	}

	private renderHit(hit: SearchHit, title: string | undefined, query: string): void {
		const item = this.item(hit.sessionId, ["discover-chat-history-hit"]);
		item.dataset.messageId = hit.messageId;
		if (title) item.createDiv({ cls: "discover-chat-history-item-title", text: title });
		// A hit inside a tool result says so, and names the call as the panel's tool card does.
		const tool = toolHitLabel(hit);
		const who = tool !== undefined ? t("history.inToolResult") : roleName(hit.role);
		const meta = item.createDiv({ cls: "discover-chat-history-item-meta", text: `${who} · ${formatWhen(hit.createdAt)}` });
		const otherBranch = hit.onActiveBranch === false;
		if (otherBranch) meta.createSpan({ cls: "discover-chat-history-other-branch", text: t("history.otherBranch") });
		if (tool !== undefined) {
			const line = item.createDiv({ cls: "discover-chat-history-hit-tool" });
			setIcon(line.createSpan({ cls: "discover-chat-history-tool-icon" }), tool.icon);
			line.createSpan({ text: tool.title });
		}
		appendHighlighted(item.createDiv({ cls: "discover-chat-history-item-preview" }), plainSnippet(hit.snippet), query);
		item.addEventListener("click", () => this.handlers.onSelect(hit.sessionId, hit.messageId, otherBranch));
	}
}
