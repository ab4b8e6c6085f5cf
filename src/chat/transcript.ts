import type { ChatMessage } from "../core/types";

/** The persisted summary, when the session has one (always at index 0). */
export function summaryMessage(messages: readonly ChatMessage[]): ChatMessage | undefined {
	const first = messages[0];
	return first?.role === "system" ? first : undefined;
}

/**
 * Where the messages the summary does not cover begin. Searches back from `end` (the newest
 * messages), so the cost is the length of the uncovered tail, not of the session. A summary whose
 * message is missing (a damaged session) covers nothing.
 */
export function uncoveredStart(messages: readonly ChatMessage[], end: number): number {
	const summary = summaryMessage(messages);
	const first = summary === undefined ? 0 : 1;
	const covered = summary?.summaryOf;
	if (covered === undefined) return first;
	for (let i = Math.min(end, messages.length) - 1; i >= first; i--) {
		if (messages[i]?.id === covered) return i + 1;
	}
	return first;
}

/**
 * Messages the model sees: user and assistant turns with text or tool calls, and tool results. A
 * failed turn's message (`error`) got no answer and the person moved on, and an answer stopped
 * before its first word says nothing.
 */
export function isPromptWorthy(m: ChatMessage): boolean {
	if (m.error !== undefined) return false;
	if (m.role === "tool") return true;
	if (m.role === "assistant" && m.toolCalls !== undefined && m.toolCalls.length > 0) return true;
	return (m.role === "user" || m.role === "assistant") && m.content.trim() !== "";
}

/** The transcript messages between the summary and `end` that go to the model. */
export function uncoveredHistory(messages: readonly ChatMessage[], end: number): ChatMessage[] {
	const out: ChatMessage[] = [];
	for (let i = uncoveredStart(messages, end); i < end; i++) {
		const m = messages[i];
		if (m !== undefined && isPromptWorthy(m)) out.push(m);
	}
	return out;
}
