// The transcript's tool cards, one per call id: made when a call first streams (inside the answer
// being written, after its text so far) or when an answer with calls is shown (a reload: from the
// saved calls and their results), and updated in place from then on. The saved `tool` messages
// never show as bubbles of their own: each folds into its call's card. The permission prompt of a
// call mounts in its card. Calls go by the engine's own ids, unique across chats; chats saved
// before those ids hold the server's, which are not unique in a chat (a server's "call_0" repeats
// from one answer to the next): so a saved answer owns its cards, and a result belongs to the
// latest call with its id before it.
import type { ToolCard } from "../../../chat/toolCard";
import type { ChatMessage, ImageRef, ToolCall } from "../../../core/types";
import type { Tool } from "../../../tools/types";
import { t } from "../../../i18n";
import type { AccessDecision, AskInfo, ElicitAsk, ElicitResult, ToolPreview, ToolsPort } from "../../toolsPort";
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
	/** The address of an image a result carries (a vault resource), for an <img>. */
	imageSrc?: (ref: ImageRef) => string | undefined;
}

/** A saved call's card: done or failed by its saved result. */
export function savedCard(call: ToolCall, index: number, result: ChatMessage | undefined): ToolCard {
	const base = { id: call.id, index, round: 0, name: call.name, arguments: call.arguments, ...(result?.mcp !== undefined ? { mcp: result.mcp } : {}) };
	if (result === undefined) return { ...base, state: "failed", error: t("toolCard.noResult") };
	return result.isError === true ? { ...base, state: "failed", error: result.content } : { ...base, state: "done", result: result.content, ...(result.attachments !== undefined ? { images: result.attachments } : {}) };
}

export class ToolCards {
	/** The newest card of each call id: where the engine's news of a call goes. */
	private readonly cards = new Map<string, ToolCardView>();
	/** The saved answer each card was attached to. */
	private readonly owners = new WeakMap<ToolCardView, string>();
	/** Saved results by answer id and call id, for answers rendered later (an earlier page). */
	private readonly results = new Map<string, Map<string, ChatMessage>>();
	/** Results that came in this session (the running turn's), by call id. */
	private readonly newResults = new Map<string, ChatMessage>();
	/** Each saved message's place in the chat; a message not in it is newer than all. */
	private readonly places = new Map<string, number>();
	/** The MCP forms open in cards. */
	private readonly forms = new Set<AbortController>();

	constructor(private readonly opts: ToolCardsOptions) {}

	get size(): number {
		return this.cards.size;
	}

	get(id: string): ToolCardView | undefined {
		return this.cards.get(id);
	}

	/** A chat's saved results (all of them, before any answer is rendered), each with the answer whose call it answers. */
	setResults(messages: readonly ChatMessage[]): void {
		this.results.clear();
		this.newResults.clear();
		this.places.clear();
		const caller = new Map<string, string>();
		for (const [place, m] of messages.entries()) {
			this.places.set(m.id, place);
			if (m.role === "assistant") for (const call of m.toolCalls ?? []) caller.set(call.id, m.id);
			if (m.role !== "tool" || m.toolCallId === undefined) continue;
			const answer = caller.get(m.toolCallId);
			if (answer === undefined) continue;
			let byCall = this.results.get(answer);
			if (!byCall) this.results.set(answer, (byCall = new Map<string, ChatMessage>()));
			byCall.set(m.toolCallId, m);
		}
	}

	/** The engine's news of a call. */
	show(card: ToolCard): void {
		const known = this.cards.get(card.id);
		// A finished call never starts again: news of a call starting under a finished card's id is a new call.
		const finished = (state: string | undefined): boolean => state === "done" || state === "failed";
		if (known && !(finished(known.state) && !finished(card.state))) known.update(card);
		else this.cards.set(card.id, new ToolCardView(this.opts.liveHost(), card, this.hooks()));
	}

	/**
	 * An answer's calls, as cards in `container` (the answer's own). `live`: the turn is running,
	 * so a call without a result yet is waiting; a saved one without a result never got one.
	 */
	attach(container: HTMLElement, message: ChatMessage, live: boolean): void {
		for (const [index, call] of (message.toolCalls ?? []).entries()) {
			const known = this.cards.get(call.id);
			const owner = known ? this.owners.get(known) : undefined;
			if (known && (owner === undefined || owner === message.id)) {
				// Streamed into the answer being written, which is now this saved answer: moved if elsewhere.
				if (known.el.parentElement !== container) container.appendChild(known.el);
				this.owners.set(known, message.id);
				continue;
			}
			const result = this.results.get(message.id)?.get(call.id) ?? (this.results.has(message.id) ? undefined : this.newResults.get(call.id));
			const card = live && result === undefined ? { id: call.id, index, round: 0, name: call.name, state: "waiting" as const, arguments: call.arguments, waitingFor: "run" as const } : savedCard(call, index, result);
			const view = new ToolCardView(container, card, this.hooks());
			this.owners.set(view, message.id);
			// The engine's news of a call id goes to its newest card, whatever order pages render in.
			if (!known || live || this.placeOf(message.id) >= this.placeOf(owner ?? "")) this.cards.set(call.id, view);
		}
	}

	/** A saved result: its call's card shows it (the live card usually already does). */
	result(message: ChatMessage): void {
		if (message.toolCallId === undefined) return;
		this.newResults.set(message.toolCallId, message);
		const card = this.cards.get(message.toolCallId);
		if (!card || card.state === "done" || card.state === "failed") return;
		card.update({ id: message.toolCallId, index: 0, round: 0, name: message.name ?? "", ...(message.isError === true ? { state: "failed", error: message.content } : { state: "done", result: message.content, ...(message.attachments !== undefined ? { images: message.attachments } : {}) }) });
	}

	/** The engine's `ask`: the prompt mounts in the call's card (made if the card is not on screen). */
	ask(call: ToolCall, tool: Pick<Tool, "name" | "access" | "mcp">, preview: ToolPreview | undefined, info?: AskInfo): Promise<AccessDecision> {
		let card = this.cards.get(call.id);
		if (!card) {
			this.show({ id: call.id, index: 0, round: 0, name: call.name, state: "waiting", waitingFor: "permission", arguments: call.arguments, access: tool.access, ...(tool.mcp !== undefined ? { mcp: tool.mcp } : {}) });
			card = this.cards.get(call.id)!;
		}
		// An MCP tool's origin goes with it: the prompt's title names the server, never a note.
		const req = { call, tool: { name: tool.name, access: tool.access, ...(tool.mcp !== undefined ? { mcp: tool.mcp } : {}) }, ...(preview ? { preview } : {}), ...(info ? { info } : {}) };
		return card.ask((slot, signal) => this.opts.showPrompt(slot, req, signal));
	}

	/**
	 * An MCP server's form, in the card of the call it asks during; undefined when that card is not
	 * on screen (the caller shows it elsewhere). Stop ends it through `signal` (the call's end).
	 */
	elicit(ask: ElicitAsk, signal: AbortSignal, show: (slot: HTMLElement, ask: ElicitAsk, signal: AbortSignal) => Promise<ElicitResult>): Promise<ElicitResult> | undefined {
		const card = ask.callId !== undefined ? this.cards.get(ask.callId) : undefined;
		if (card === undefined || !card.el.isConnected) return undefined;
		// Stop also ends forms still open (the session cancels them as the call stops).
		const stop = new AbortController();
		const onAbort = (): void => stop.abort();
		signal.addEventListener("abort", onAbort, { once: true });
		this.forms.add(stop);
		return card.elicit((slot) => show(slot, ask, stop.signal)).finally(() => {
			signal.removeEventListener("abort", onAbort);
			this.forms.delete(stop);
		});
	}

	/** Stop: every prompt still open goes, as a denial; every form still open, as a cancel. */
	denyPending(): void {
		for (const card of this.cards.values()) card.endPrompt();
		for (const form of this.forms) form.abort();
	}

	/** The transcript was cleared (another chat). */
	clear(): void {
		this.denyPending();
		this.cards.clear();
		this.results.clear();
		this.newResults.clear();
		this.places.clear();
	}

	private placeOf(id: string): number {
		return this.places.get(id) ?? Infinity;
	}

	private hooks() {
		return { tools: this.opts.tools, onResize: this.opts.onResize, ...(this.opts.imageSrc !== undefined ? { imageSrc: this.opts.imageSrc } : {}) };
	}
}
