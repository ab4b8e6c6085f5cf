// Tool calls in the history browser, named as the panel's tool cards name them ("Searched notes for
// “tide”", "Read Notes/Tides.md"): a saved result's row carries its call's title instead of a bare
// "Tool result", a search hit inside one says so, and an answer that only made calls (no text of its
// own, every call answered) is left out: its results' rows already say what it did. The model's
// arguments are untrusted: toolCardTitle makes them one visible line of text.
import type { ChatMessage, ToolCall } from "../../core/types";
import { isVisibleMessage, type SearchHit } from "../ports";
import { t } from "../../i18n";
import { savedCard } from "../panel/tools/ToolCards";
import { toolCardTitle, toolIcon } from "../panel/tools/toolTitle";

/** A tool result's row: its call's title and the tool's icon. */
export interface ToolRowLabel {
	title: string;
	icon: string;
}

/**
 * The label of each tool result in `messages` (by message id). A result answers the latest call
 * with its id before it: ids are not unique across a chat (a server that sends none gets made-up
 * ones, which can repeat from one answer to the next).
 */
export function toolRowLabels(messages: readonly ChatMessage[]): Map<string, ToolRowLabel> {
	const calls = new Map<string, { call: ToolCall; index: number }>();
	const labels = new Map<string, ToolRowLabel>();
	for (const m of messages) {
		for (const [index, call] of (m.toolCalls ?? []).entries()) calls.set(call.id, { call, index });
		if (m.role !== "tool") continue;
		const found = m.toolCallId === undefined ? undefined : calls.get(m.toolCallId);
		if (found !== undefined) labels.set(m.id, { title: toolCardTitle(savedCard(found.call, found.index, m)), icon: toolIcon(found.call.name) });
		else if (m.name !== undefined && m.name !== "") labels.set(m.id, { title: resultTitle(m.name, {}, m.isError === true), icon: toolIcon(m.name) });
	}
	return labels;
}

/** The title of a call by its name and arguments, done or failed (a search hit's call). */
function resultTitle(name: string, args: Record<string, unknown>, failed: boolean): string {
	return toolCardTitle({ name, state: failed ? "failed" : "done", arguments: args });
}

/** What a search hit inside a tool result shows above its snippet: that it is one, and its call's title. */
export function toolHitLabel(hit: SearchHit): ToolRowLabel | undefined {
	if (hit.role !== "tool") return undefined;
	if (hit.tool === undefined) return { title: t("message.toolResult"), icon: "wrench" };
	return { title: resultTitle(hit.tool.name, hit.tool.arguments, hit.tool.isError === true), icon: toolIcon(hit.tool.name) };
}

/**
 * The messages the transcript shows: user, assistant and tool results, less the answers that only
 * made calls whose results are all there (the summary is for the model only).
 */
export function historyMessages(messages: readonly ChatMessage[]): ChatMessage[] {
	const answered = new Set(messages.flatMap((m) => (m.role === "tool" && m.toolCallId !== undefined ? [m.toolCallId] : [])));
	return messages.filter((m) => {
		if (!isVisibleMessage(m)) return false;
		if (m.role !== "assistant" || m.content.trim() !== "" || m.toolCalls === undefined) return true;
		return !m.toolCalls.every((c) => answered.has(c.id));
	});
}
