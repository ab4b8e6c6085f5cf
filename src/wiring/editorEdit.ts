// Edit with Discover, on the engine: the request goes through the chat engine the panel uses
// (createChatRuntime: the active agent's instructions and model, its provider and key, the budget,
// the sources fitted by relevance), streamed back as the proposal; the exchange is saved as a chat
// ("Edit in Notes/Plan.md: tighten this") with what the person accepted and rejected after it.
import type { ContextSource } from "../core/types";
import { answerRoom, fitEdit } from "../editor/editBudget";
import { EDIT_RULES, editMessage, neutralMarkers, noteAround, proposalFrom } from "../editor/editPrompt";
import { planEdit } from "../editor/hunks";
import type { Review } from "../editor/review";
import { formatNumber, t } from "../i18n";
import { chatSettingsOf } from "./chatRuntime";
import { newId } from "../sessions/ids";
import type { ChatRuntime, DiscoverHost } from "../ui/host";
import type { SessionsPort } from "../ui/ports";
import type { EditOutcome } from "../ui/editor/inlineEdit";

/** The note being edited, as the editor had it when the prompt opened. */
export interface EditNote {
	path: string;
	/** The whole note. */
	text: string;
	/** The selection in `text` (from === to: the cursor). */
	from: number;
	to: number;
	/** The notes it links to, read (each fitted by relevance beside the rest of the note). */
	links: readonly ContextSource[];
}

export interface EditAsk {
	instruction: string;
	note: EditNote;
	signal: AbortSignal;
	/** The proposal so far, each time more of it arrives: read (the answer parsed) only when called. */
	onText: (soFar: () => string) => void;
}

/** The chat the edit was saved as, to save the review with it afterwards (the engine itself is closed by then). */
export interface EditExchange {
	sessions: SessionsPort;
	sessionId: string | undefined;
	/**
	 * The id of the review's record in the chat: one per edit, so a review that ends again (an undo
	 * brought a hunk back, and it was decided anew) replaces its record instead of adding another.
	 */
	recordId: string;
}

/**
 * Asks the engine for the rewrite: the instruction and the selection whole (too large: both sizes,
 * and nothing sent), the rest of the note and its links as sources fitted by relevance, the
 * agent's instructions with the edit's rules after them, no tools, no earlier history.
 */
export async function proposeEdit(host: DiscoverHost, runtime: ChatRuntime, ask: EditAsk): Promise<{ outcome: EditOutcome; exchange?: EditExchange }> {
	const { note, instruction } = ask;
	const selection = note.text.slice(note.from, note.to);
	const choice = host.agents === undefined ? undefined : await host.agents.resolve(host.settings.lastAgent).catch(() => undefined);
	const agent = choice?.agent;
	await runtime.useAgent?.(agent);
	// What the engine uses for this agent and model (its prompt, its budget), as any chat of it.
	const settings = chatSettingsOf(host.settings, agent?.model ?? host.settings.model, agent);
	const chat = runtime.chat;
	// The window less the margin, with nothing reserved: fitEdit keeps the answer's room itself.
	chat.updateSettings({ systemPrompt: `${settings.systemPrompt.trim()}\n\n${EDIT_RULES}`, reservedResponseTokens: 0 });
	const opts = { includeHistory: false, tools: false };
	const empty = chat.previewPrompt("", opts);
	const cost = (text: string): number => Math.max(0, chat.previewPrompt(text, opts).estimatedTokens - empty.estimatedTokens);
	const message = editMessage(instruction, selection, note.path);
	const sizes = { instructionTokens: cost(instruction), selectionTokens: cost(message) - cost(instruction), budgetTokens: empty.budget - empty.estimatedTokens };
	const fit = fitEdit(sizes);
	if (!fit.fits) return { outcome: { tooLarge: { instructionTokens: fit.instructionTokens, selectionTokens: fit.selectionTokens, neededTokens: fit.neededTokens, budgetTokens: fit.budgetTokens } } };
	chat.updateSettings({ reservedResponseTokens: Math.max(settings.reservedResponseTokens, answerRoom(sizes.selectionTokens)) });
	const rest = noteAround(note.text, note.from, note.to);
	// The linked notes' marker-like text is made harmless too: the place mark is only ever the note's own.
	const links = note.links.filter((l) => l.id !== note.path).map((l) => ({ ...l, name: neutralMarkers(l.name), text: neutralMarkers(l.text) }));
	const sources: ContextSource[] = [{ id: note.path, name: neutralMarkers(note.path), text: rest, kind: "active" }, ...links];
	let answer = "";
	// A token costs its own length: the answer so far is parsed only when the editor draws it.
	const soFar = (): string => inPlace(proposalFrom(answer, selection), note);
	await chat.newSession();
	const reply = await chat.sendMessage(message, {
		...opts,
		sources,
		signal: ask.signal,
		onToken: (delta) => {
			answer += delta;
			ask.onText(soFar);
		},
		onTextRetracted: () => {
			answer = "";
		},
	});
	const exchange: EditExchange = { sessions: runtime.sessions, sessionId: chat.sessionId, recordId: newId() };
	if (exchange.sessionId !== undefined) {
		await exchange.sessions.rename(exchange.sessionId, editTitle(note.path, instruction)).catch(() => undefined);
		if (agent !== undefined && agent.path !== "") await runtime.sessions.setAgent?.(exchange.sessionId, agent.path).catch(() => undefined);
	}
	if (reply.error !== undefined) throw new Error(reply.error);
	if (ask.signal.aborted || reply.cancelled === true) throw new DOMException("Stopped", "AbortError");
	return { outcome: { proposal: inPlace(proposalFrom(reply.content, selection), note) }, exchange };
}

/**
 * Text written at a cursor at a line's start, before more of the note, is lines of its own: it
 * ends with a line break (the model's final break is taken off with the rest of its trailing space).
 */
function inPlace(proposal: string, note: EditNote): string {
	if (note.from !== note.to || proposal === "" || proposal.endsWith("\n")) return proposal;
	const lineStart = note.from === 0 || note.text[note.from - 1] === "\n";
	return lineStart && note.from < note.text.length ? `${proposal}\n` : proposal;
}

/** The saved chat's title: "Edit in Notes/Plan.md: tighten this". */
function editTitle(path: string, instruction: string): string {
	const short = instruction.replace(/\s+/g, " ").trim();
	return t("editor.chatTitle", { path, instruction: short.length > 80 ? `${short.slice(0, 79)}…` : short });
}

/** A hunk's text in the record: on one line, and short. */
function quoted(text: string): string {
	const line = text.replace(/\s+/g, " ").trim();
	return `“${line.length > 120 ? `${line.slice(0, 119)}…` : line}”`;
}

/**
 * What the person decided, as the chat keeps it (their reply to the proposal): each change, what it
 * replaced and with what, and whether it was accepted or rejected.
 */
function reviewRecord(original: string, proposal: string, decided: Review["decided"]): string {
	const hunks = planEdit(original, proposal);
	const lines = [t("editor.recordHead")];
	hunks.forEach((h, k) => {
		const decision = decided.find((d) => d.id === h.id);
		const what = h.from === h.to ? `+ ${quoted(h.insert)}` : h.insert === "" ? `− ${quoted(original.slice(h.from, h.to))}` : `${quoted(original.slice(h.from, h.to))} → ${quoted(h.insert)}`;
		const verdict = decision === undefined ? t("editor.recordUndecided") : decision.decision === "accepted" ? t("editor.recordAccepted") : decision.stale ? t("editor.recordStale") : t("editor.recordRejected");
		lines.push(`- ${t("editor.recordChange", { n: formatNumber(k + 1), what, verdict })}`);
	});
	return lines.join("\n");
}

/** Saves the review with the exchange: one message of the person's, after the proposal (replaced when the review ends again). */
export async function saveReview(exchange: EditExchange, record: { original: string; proposal: string; decided: Review["decided"] }): Promise<void> {
	const id = exchange.sessionId;
	const sessions = exchange.sessions;
	if (id === undefined || sessions.appendMessage === undefined) return;
	await sessions.appendMessage(id, { id: exchange.recordId, role: "user", content: reviewRecord(record.original, record.proposal, record.decided), createdAt: new Date().toISOString() });
}
