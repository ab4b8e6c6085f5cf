// The info button under an answer and its popover: prompt and answer tokens (reported by the
// server or estimated), time to the first token, tokens per second, the model, the requests a
// tool loop made, the cost of the answer and of the chat when the model has prices, and notes on
// a summary or a refused request the turn made (answerInfoNotes.ts). The chat's total lives here
// rather than in the header: the header is narrow (phones) and busy, and the total is read when
// someone asks what answers cost, which is this popover's question.
import { setIcon, setTooltip } from "obsidian";
import { chatUsage, tokensPerSecond } from "../../core/answerStats";
import type { AnswerStats, ChatMessage } from "../../core/types";
import { answerCost } from "../../settings/prices";
import { formatDuration, formatMoney, formatNumber, formatRate, t } from "../../i18n";
import { chatTotalText, type PriceList } from "../costText";
import { answerInfoNotes } from "./answerInfoNotes";

export interface AnswerInfoContext {
	/** The prices entered in settings; none: costs are not shown. */
	prices?: () => PriceList;
	/** The chat's messages, for its total. */
	chatMessages?: () => readonly ChatMessage[];
}

/** The popover's rows: a label and its value, in order. Exported for the panel's tests. */
export function answerInfoRows(stats: AnswerStats, prices: PriceList | undefined, chat: readonly ChatMessage[] | undefined): [string, string][] {
	const count = (tokens: number, reported: boolean): string => t(reported ? "stats.reported" : "stats.estimated", { tokens: formatNumber(tokens) });
	const rows: [string, string][] = [
		// A server count that left out its cache is not the prompt's size: the estimate, and why.
		[t("stats.promptTokens"), stats.promptCountSetAside !== undefined ? t("stats.setAsideCount", { tokens: formatNumber(stats.promptTokens), reported: formatNumber(stats.promptCountSetAside) }) : count(stats.promptTokens, stats.reported.prompt)],
		[t("stats.answerTokens"), count(stats.answerTokens, stats.reported.answer)],
	];
	if (stats.firstTokenMs !== undefined) rows.push([t("stats.firstToken"), formatDuration(stats.firstTokenMs)]);
	const rate = tokensPerSecond(stats);
	if (rate !== undefined) rows.push([t("stats.speed"), t("stats.tokensPerSecond", { rate: formatRate(rate) })]);
	rows.push([t("stats.model"), stats.model]);
	if (stats.requests > 1) rows.push([t("stats.requests"), formatNumber(stats.requests)]);
	if (prices !== undefined && prices.prices.length > 0) {
		const cost = answerCost(stats, prices.prices);
		rows.push([t("stats.cost"), cost === undefined ? t("stats.noPrice") : formatMoney(cost, prices.currency)]);
	}
	const total = chat === undefined || prices === undefined ? undefined : chatTotalText(chatUsage(chat), prices);
	if (total !== undefined) rows.push([t("stats.chatTotal"), total]);
	return rows;
}

/**
 * "4,210 of 5,030 prompt tokens came from the server's cache.", when the server said how much of
 * the answer's prompts it read from its cache (the answer's own requests; summaries apart).
 */
export function answerCacheLine(stats: AnswerStats): string | undefined {
	const cached = stats.cachedPromptTokens;
	if (cached === undefined || !stats.reported.prompt) return undefined;
	return t("stats.cachedPrompt", { cached: formatNumber(cached), count: stats.promptTokens });
}

/**
 * The button and its popover. The popover is built when opened (from the stats, prices and chat of
 * that moment) and removed when closed: Escape, the button again, or a click elsewhere.
 */
export class AnswerInfo {
	readonly button: HTMLButtonElement;
	private popover: HTMLElement | undefined;
	private stats: AnswerStats;
	private readonly onOutside = (e: PointerEvent): void => {
		const target = e.target as Node | null;
		if (target !== null && (this.popover?.contains(target) === true || this.button.contains(target))) return;
		this.close(false);
	};

	constructor(
		private readonly parentEl: HTMLElement,
		stats: AnswerStats,
		private readonly ctx: AnswerInfoContext,
	) {
		this.stats = stats;
		const label = t("stats.info");
		this.button = parentEl.createEl("button", {
			cls: ["clickable-icon", "discover-chat-icon-button", "discover-chat-answer-info"],
			attr: { type: "button", "aria-label": label, "aria-haspopup": "dialog", "aria-expanded": "false" },
		});
		setIcon(this.button, "info");
		setTooltip(this.button, label);
		this.button.addEventListener("click", () => (this.popover ? this.close(true) : this.open()));
		this.button.addEventListener("keydown", (e) => this.onKey(e));
	}

	update(stats: AnswerStats): void {
		this.stats = stats;
		if (this.popover) this.fill(this.popover);
	}

	get isOpen(): boolean {
		return this.popover !== undefined;
	}

	open(): void {
		if (this.popover) return;
		const popover = this.parentEl.createDiv({ cls: "discover-chat-stats-popover", attr: { role: "dialog", "aria-label": t("stats.info"), tabindex: "-1" } });
		this.popover = popover;
		this.fill(popover);
		popover.addEventListener("keydown", (e) => this.onKey(e));
		this.button.setAttr("aria-expanded", "true");
		this.button.doc.addEventListener("pointerdown", this.onOutside, true);
		popover.focus();
	}

	/** Closes the popover; `refocus`: the button takes the focus back (Escape, the button). */
	close(refocus: boolean): void {
		const popover = this.popover;
		if (!popover) return;
		this.popover = undefined;
		this.button.doc.removeEventListener("pointerdown", this.onOutside, true);
		popover.remove();
		this.button.setAttr("aria-expanded", "false");
		if (refocus) this.button.focus();
	}

	private onKey(e: KeyboardEvent): void {
		if (e.key !== "Escape" || !this.popover) return;
		// Escape closes the popover only: it must not also reach the panel (which would stop an answer).
		e.preventDefault();
		e.stopPropagation();
		this.close(true);
	}

	private fill(popover: HTMLElement): void {
		popover.empty();
		const list = popover.createEl("dl", { cls: "discover-chat-stats-list" });
		for (const [label, value] of answerInfoRows(this.stats, this.ctx.prices?.(), this.ctx.chatMessages?.())) {
			const row = list.createDiv({ cls: "discover-chat-stats-row" });
			row.createEl("dt", { text: label });
			row.createEl("dd", { text: value });
		}
		const cache = answerCacheLine(this.stats);
		if (cache !== undefined) popover.createEl("p", { cls: ["discover-chat-stats-note", "discover-chat-stats-cache"], text: cache });
		for (const note of answerInfoNotes(this.stats)) popover.createEl("p", { cls: "discover-chat-stats-note", text: note });
	}
}
