// The transcript's tool cards, one per call id: made when a call first streams (inside the answer
// being written, after its text so far) or when an answer with calls is shown (a reload: from the
// saved calls and their results), and updated in place from then on. The saved `tool` messages
// never show as bubbles of their own: each folds into its call's card. The permission prompt of a
// call mounts in its card.
import type { ToolCard } from "../../../chat/toolCard";
import type { ChatMessage, ToolCall } from "../../../core/types";
import type { Tool } from "../../../tools/types";
import { t } from "../../../i18n";
import type { AccessDecision, ToolPreview, ToolsPort } from "../../toolsPort";
import { ToolCardView } from "./ToolCardView";

/** The permission prompt's signature (PermissionPrompt.ts's showPermissionPrompt). */
export type ShowPermissionPrompt = (
	parent: HTMLElement,
	req: { call: ToolCall; tool: { name: string; access: "read" | "write" }; preview?: ToolPreview },
	signal?: AbortSignal,
) => Promise<AccessDecision>;

export interface ToolCardsOptions {
	tools: () => ToolsPort | undefined;
	showPrompt: ShowPermissionPrompt;
	onResize: () => void;
	/** Where a card goes whose call no answer on screen holds (the answer being written, made if need be). */
	liveHost: () => HTMLElement;
}

/** A saved call's card: done or failed by its saved result. */
export function savedCard(call: ToolCall, index: number, result: ChatMessage | undefined): ToolCard {
	const base = { id: call.id, index, round: 0, name: call.name, arguments: call.arguments };
	if (result === undefined) return { ...base, state: "failed", error: t("toolCard.noResult") };
	return result.isError === true ? { ...base, state: "failed", error: result.content } : { ...base, state: "done", result: result.content };
}

export class ToolCards {
	private readonly cards = new Map<string, ToolCardView>();
	/** Saved results by call id, for answers rendered later (an earlier page). */
	private readonly results = new Map<string, ChatMessage>();

	constructor(private readonly opts: ToolCardsOptions) {}

	get size(): number {
		return this.cards.size;
	}

	get(id: string): ToolCardView | undefined {
		return this.cards.get(id);
	}

	/** A chat's saved results (all of them, before any answer is rendered). */
	setResults(messages: readonly ChatMessage[]): void {
		this.results.clear();
		for (const m of messages) if (m.role === "tool" && m.toolCallId !== undefined) this.results.set(m.toolCallId, m);
	}

	/** The engine's news of a call. */
	show(card: ToolCard): void {
		const known = this.cards.get(card.id);
		if (known) known.update(card);
		else this.cards.set(card.id, new ToolCardView(this.opts.liveHost(), card, this.hooks()));
	}

	/**
	 * An answer's calls, as cards in `container` (the answer's own). `live`: the turn is running,
	 * so a call without a result yet is waiting; a saved one without a result never got one.
	 */
	attach(container: HTMLElement, message: ChatMessage, live: boolean): void {
		for (const [index, call] of (message.toolCalls ?? []).entries()) {
			const known = this.cards.get(call.id);
			if (known) {
				// Streamed into the answer being written, which is now this saved answer: moved if elsewhere.
				if (known.el.parentElement !== container) container.appendChild(known.el);
				continue;
			}
			const result = this.results.get(call.id);
			const card = live && result === undefined ? { id: call.id, index, round: 0, name: call.name, state: "waiting" as const, arguments: call.arguments, waitingFor: "run" as const } : savedCard(call, index, result);
			this.cards.set(call.id, new ToolCardView(container, card, this.hooks()));
		}
	}

	/** A saved result: its call's card shows it (the live card usually already does). */
	result(message: ChatMessage): void {
		if (message.toolCallId === undefined) return;
		this.results.set(message.toolCallId, message);
		const card = this.cards.get(message.toolCallId);
		if (!card || card.state === "done" || card.state === "failed") return;
		card.update({ id: message.toolCallId, index: 0, round: 0, name: message.name ?? "", ...(message.isError === true ? { state: "failed", error: message.content } : { state: "done", result: message.content }) });
	}

	/** The engine's `ask`: the prompt mounts in the call's card (made if the card is not on screen). */
	ask(call: ToolCall, tool: Pick<Tool, "name" | "access">, preview: ToolPreview | undefined): Promise<AccessDecision> {
		let card = this.cards.get(call.id);
		if (!card) {
			this.show({ id: call.id, index: 0, round: 0, name: call.name, state: "waiting", waitingFor: "permission", arguments: call.arguments, access: tool.access });
			card = this.cards.get(call.id)!;
		}
		const req = { call, tool: { name: tool.name, access: tool.access }, ...(preview ? { preview } : {}) };
		return card.ask((slot, signal) => this.opts.showPrompt(slot, req, signal));
	}

	/** Stop: every prompt still open goes, as a denial. */
	denyPending(): void {
		for (const card of this.cards.values()) card.endPrompt();
	}

	/** The transcript was cleared (another chat). */
	clear(): void {
		this.denyPending();
		this.cards.clear();
		this.results.clear();
	}

	private hooks() {
		return { tools: this.opts.tools, onResize: this.opts.onResize };
	}
}
