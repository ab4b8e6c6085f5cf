// One tool call's card in the transcript, updated in place as the call goes: its arguments while
// they stream (monospace, capped), waiting (for the person's permission, whose prompt mounts in the
// card, or for its turn), running, done (the result folded) or failed (the error). A done write
// offers Revert while the engine still knows the change. Everything from the model or a tool is
// untrusted: it only ever becomes text.
import { setIcon } from "obsidian";
import type { ToolCard } from "../../../chat/toolCard";
import type { ImageRef } from "../../../core/types";
import { renderMessageImages } from "../../images/messageImages";
import { t } from "../../../i18n";
import type { RevertOutcome, ToolsPort } from "../../toolsPort";
import { visibleText } from "../permissionText";
import { toolCardTitle, toolIcon } from "./toolTitle";
import { outcomeForPerson } from "./toolOutcomeText";
import { renderMcpBlock } from "./mcpCard";

/** Of arguments still streaming, the newest characters shown (the start scrolls out, the growth shows). */
export const ARGS_SHOWN_CHARS = 600;
/** Of a result or an error, the first characters shown: a 1 MB read must not become 1 MB of DOM. */
export const RESULT_SHOWN_CHARS = 4000;

const WRITE_TOOLS = new Set(["create_note", "edit_note"]);

export interface ToolCardHooks {
	tools: () => ToolsPort | undefined;
	/** The card changed size (for the transcript's auto-scroll). */
	onResize: () => void;
	/** The address of an image a result carries (a vault resource); without it, images are not shown. */
	imageSrc?: (ref: ImageRef) => string | undefined;
}

function capHead(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

function revertText(outcome: RevertOutcome, created: boolean): string {
	if (outcome.ok) return created ? t("toolCard.revertedCreate") : t("toolCard.reverted");
	switch (outcome.reason) {
		case "changed":
			return t("toolCard.revertChanged");
		case "gone":
			return t("toolCard.revertGone");
		case "unavailable":
			return t("toolCard.revertUnavailable");
		default:
			return t("toolCard.revertFailed", { error: outcome.detail ?? "" });
	}
}

export class ToolCardView {
	readonly el: HTMLElement;
	private readonly iconEl: HTMLElement;
	private readonly titleEl: HTMLElement;
	private readonly stateEl: HTMLElement;
	private readonly argsEl: HTMLElement;
	/** An MCP tool's server, hints, arguments as a form and progress. */
	private readonly mcpEl: HTMLElement;
	/** Where the permission prompt mounts (and its one-line record stays). */
	readonly permissionEl: HTMLElement;
	/** Where an MCP server's forms (elicitation) mount while the call runs, and their records stay. */
	readonly elicitEl: HTMLElement;
	private readonly outcomeEl: HTMLElement;
	private readonly actionsEl: HTMLElement;
	private card: ToolCard;
	private shownResult: string | undefined;
	private revertNote: { text: string; ok: boolean } | undefined;
	private reverting = false;
	/** The prompt on screen: aborted (a plain deny) when the call moves on without it, or on Stop. */
	private prompt: AbortController | undefined;

	constructor(
		parentEl: HTMLElement,
		card: ToolCard,
		private readonly hooks: ToolCardHooks,
	) {
		this.card = card;
		this.el = parentEl.createDiv({ cls: "discover-tool-card", attr: { "data-call-id": card.id } });
		const head = this.el.createDiv({ cls: "discover-tool-card-head" });
		this.iconEl = head.createSpan({ cls: "discover-tool-card-icon", attr: { "aria-hidden": "true" } });
		const text = head.createDiv({ cls: "discover-tool-card-heading" });
		this.titleEl = text.createDiv({ cls: "discover-tool-card-title" });
		this.stateEl = text.createDiv({ cls: "discover-tool-card-state", attr: { role: "status" } });
		this.argsEl = this.el.createEl("pre", { cls: ["discover-tool-card-args", "discover-chat-hidden"] });
		this.mcpEl = this.el.createDiv({ cls: ["discover-mcp-block", "discover-chat-hidden"] });
		this.permissionEl = this.el.createDiv({ cls: "discover-tool-card-permission" });
		this.elicitEl = this.el.createDiv({ cls: "discover-tool-card-elicit" });
		this.outcomeEl = this.el.createDiv({ cls: "discover-tool-card-outcome" });
		this.actionsEl = this.el.createDiv({ cls: "discover-tool-card-actions" });
		this.render();
	}

	get id(): string {
		return this.card.id;
	}

	get state(): ToolCard["state"] {
		return this.card.state;
	}

	/** The engine's newer news of the call. A card already done or failed keeps its outcome (a late echo changes nothing). */
	update(card: ToolCard): void {
		const ended = this.card.state === "done" || this.card.state === "failed";
		if (ended && card.state !== "done" && card.state !== "failed") return;
		this.card = { ...this.card, ...card, arguments: card.arguments ?? this.card.arguments, access: card.access ?? this.card.access, mcp: card.mcp ?? this.card.mcp };
		if (card.state !== "waiting") this.endPrompt();
		this.render();
	}

	/** Mounts the permission prompt in the card; `signal` aborts when the call moves on or Stop is pressed. */
	async ask<T>(show: (slot: HTMLElement, signal: AbortSignal) => Promise<T>): Promise<T> {
		this.endPrompt();
		const controller = new AbortController();
		this.prompt = controller;
		this.permissionEl.empty();
		try {
			const decided = show(this.permissionEl, controller.signal);
			// The prompt is on screen now: the transcript follows it down so its buttons are in view.
			this.hooks.onResize();
			return await decided;
		} finally {
			if (this.prompt === controller) this.prompt = undefined;
			this.hooks.onResize();
		}
	}

	/** Mounts a server's form in the card (the call is running); the session ends it with the call. */
	async elicit<T>(show: (slot: HTMLElement) => Promise<T>): Promise<T> {
		try {
			const answered = show(this.elicitEl);
			this.hooks.onResize();
			return await answered;
		} finally {
			this.hooks.onResize();
		}
	}

	/** A pending prompt goes, as a denial. */
	endPrompt(): void {
		this.prompt?.abort();
		this.prompt = undefined;
	}

	private render(): void {
		const card = this.card;
		this.el.className = `discover-tool-card is-${card.state}`;
		this.el.toggleClass("is-write", card.access === "write");
		this.el.toggleClass("is-reverted", this.revertNote?.ok === true);
		setIcon(this.iconEl, card.mcp !== undefined ? "plug" : toolIcon(card.name));
		const title = toolCardTitle(card);
		this.titleEl.setText(title);
		// The raw name stays reachable: on hover, and for screen readers after the title.
		this.titleEl.setAttr("title", t("toolCard.toolName", { name: visibleText(card.name) }));
		this.stateEl.setText(this.stateText());
		this.stateEl.toggleClass("discover-chat-hidden", this.stateEl.textContent === "");

		const streaming = card.state === "input" && (card.argumentsText ?? "") !== "";
		this.argsEl.toggleClass("discover-chat-hidden", !streaming);
		if (streaming) {
			const text = card.argumentsText ?? "";
			this.argsEl.setText(visibleText(text.length > ARGS_SHOWN_CHARS ? `…${text.slice(-ARGS_SHOWN_CHARS)}` : text));
		}
		this.renderMcp();
		this.renderOutcome();
		this.renderActions();
		this.hooks.onResize();
	}

	private renderMcp(): void {
		const { mcp, state } = this.card;
		this.mcpEl.toggleClass("discover-chat-hidden", mcp === undefined || state === "input");
		if (mcp === undefined || state === "input") return;
		// The arguments stay readable while the person decides and while the call runs; after, the title and result say it.
		renderMcpBlock(this.mcpEl, mcp, this.card.arguments, state === "running" ? this.card.progress : undefined, state === "waiting" || state === "running");
	}

	private stateText(): string {
		switch (this.card.state) {
			case "input":
				return t("toolCard.input");
			case "waiting":
				return this.card.waitingFor === "run" ? t("toolCard.waitingRun") : t("toolCard.waitingPermission");
			case "running":
				return t("toolCard.running");
			case "failed":
				return t("toolCard.failed");
			default:
				return "";
		}
	}

	private renderOutcome(): void {
		const { state, result, error } = this.card;
		const text = state === "done" ? (result ?? "") : state === "failed" ? (error ?? "") : undefined;
		const key = text === undefined ? undefined : `${state}:${text}:${(this.card.images ?? []).map((i) => i.path).join("|")}`;
		if (key === this.shownResult) return;
		this.shownResult = key;
		this.outcomeEl.empty();
		if (text === undefined) return;
		if (state === "failed") {
			this.outcomeEl.createDiv({ cls: "discover-tool-card-error", text: visibleText(capHead(outcomeForPerson(text), RESULT_SHOWN_CHARS)) });
			return;
		}
		// Folded: the model read it; the person opens it when they want to.
		const details = this.outcomeEl.createEl("details", { cls: "discover-tool-card-result" });
		details.createEl("summary", { text: t("toolCard.result") });
		details.createEl("pre", { cls: "discover-tool-card-result-text", text: capHead(text, RESULT_SHOWN_CHARS) });
		const images = this.card.images ?? [];
		const src = this.hooks.imageSrc;
		if (images.length > 0 && src !== undefined) renderMessageImages(this.outcomeEl.createDiv({ cls: "discover-tool-card-images" }), images, src);
	}

	private renderActions(): void {
		this.actionsEl.empty();
		const card = this.card;
		if (this.revertNote) this.actionsEl.createDiv({ cls: ["discover-tool-card-revert-note", this.revertNote.ok ? "is-reverted" : "is-refused"], attr: { role: "status" }, text: this.revertNote.text });
		if (card.state !== "done" || !WRITE_TOOLS.has(card.name) || this.revertNote?.ok === true) return;
		const tools = this.hooks.tools();
		if (!tools?.canRevert(card.id)) return;
		const button = this.actionsEl.createEl("button", {
			cls: "discover-tool-card-revert",
			text: this.reverting ? t("toolCard.reverting") : t("toolCard.revert"),
			attr: { type: "button", "aria-label": t("toolCard.revertLabel") },
		});
		button.disabled = this.reverting;
		button.addEventListener("click", () => void this.revert(tools));
	}

	private async revert(tools: ToolsPort): Promise<void> {
		if (this.reverting) return;
		this.reverting = true;
		this.renderActions();
		let outcome: RevertOutcome;
		try {
			outcome = await tools.revert(this.card.id);
		} catch (err) {
			outcome = { ok: false, reason: "failed", detail: err instanceof Error ? err.message : String(err) };
		}
		this.reverting = false;
		this.revertNote = { text: revertText(outcome, this.card.name === "create_note"), ok: outcome.ok };
		this.el.toggleClass("is-reverted", outcome.ok);
		this.renderActions();
		this.hooks.onResize();
	}
}
