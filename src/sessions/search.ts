import type { ChatMessage, ToolCall } from "../core/types";
import type { SearchHit } from "./types";
import type { SessionState } from "./sessionState";

const SNIPPET_LENGTH = 160;
const BEFORE_MATCH = 50;

// Lowercased text per message object: messages are replaced (never mutated) on update, so a
// WeakMap keyed by the object stays correct and frees itself with the session cache.
const lowered = new WeakMap<ChatMessage, string>();

export function lowerText(message: ChatMessage): string {
	let text = lowered.get(message);
	if (text === undefined) {
		text = message.content.toLowerCase();
		lowered.set(message, text);
	}
	return text;
}

/** Where in `original` the match found at `lowerIndex` of its lowercased form starts. */
function originalIndex(original: string, lower: string, lowerIndex: number): number {
	if (original.length === lower.length) return lowerIndex;
	// Rare: lowercasing changed the length (e.g. "İ"); walk code points to map the position back.
	let seen = 0;
	let i = 0;
	for (const ch of original) {
		if (seen >= lowerIndex) return i;
		seen += ch.toLowerCase().length;
		i += ch.length;
	}
	return i;
}

function safeSlice(text: string, start: number, end: number): [number, number] {
	const high = (i: number): boolean => /[\uD800-\uDBFF]/.test(text.charAt(i));
	if (start > 0 && high(start - 1)) start--;
	if (end < text.length && high(end - 1)) end++;
	return [start, end];
}

/** About 160 characters around the match, on one line, with ellipses where the text was cut. */
export function snippetAround(text: string, index: number, matchLength: number): string {
	let start = Math.max(0, index - BEFORE_MATCH);
	let end = Math.min(text.length, Math.max(start + SNIPPET_LENGTH, index + matchLength));
	if (end - start < SNIPPET_LENGTH) start = Math.max(0, end - SNIPPET_LENGTH);
	[start, end] = safeSlice(text, start, end);
	const body = text.slice(start, end).replace(/\s+/g, " ");
	return (start > 0 ? "…" : "") + (start > 0 ? body.trimStart() : body.trim()) + (end < text.length ? "…" : "");
}

/** The snippet for the first case-insensitive match of `needle` (already lowercased), if any. */
export function matchMessage(message: ChatMessage, needle: string): string | undefined {
	const lower = lowerText(message);
	const at = lower.indexOf(needle);
	if (at < 0) return undefined;
	const start = originalIndex(message.content, lower, at);
	return snippetAround(message.content, start, needle.length);
}

/** Which branch a hit is on: the message `load(id, { at })` would open, and whether it is shown now. */
export function branchOfHit(state: SessionState, messageId: string): { leafId: string; onActiveBranch: boolean } {
	if (!state.tree.has(messageId)) return { leafId: messageId, onActiveBranch: true };
	const active = state.tree.path().includes(messageId);
	return { leafId: active ? (state.tree.leaf ?? messageId) : state.tree.latestDescendant(messageId), onActiveBranch: active };
}

/**
 * For a hit inside a tool result: the call it answers, the latest call with its id before it in
 * the transcript (ids can repeat across answers: made-up ones for servers that send none); only the
 * result's tool name when no such call is held. Nothing for other hits.
 */
export function toolOfHit(state: SessionState, message: ChatMessage): Pick<SearchHit, "tool"> {
	if (message.role !== "tool") return {};
	const failed = message.isError === true ? { isError: true } : {};
	const id = message.toolCallId;
	let found: ToolCall | undefined;
	if (id !== undefined) {
		for (const m of state.transcript) {
			if (m.id === message.id) break;
			found = m.toolCalls?.find((c) => c.id === id) ?? found;
		}
	}
	if (found !== undefined) return { tool: { name: found.name, arguments: found.arguments, ...failed } };
	return message.name !== undefined && message.name !== "" ? { tool: { name: message.name, arguments: {}, ...failed } } : {};
}

/**
 * `branchOfHit` and `toolOfHit` for many hits of one session, in one pass over its transcript
 * instead of one per hit: a search with hundreds of hits in a long session stays linear.
 */
export function hitLookup(state: SessionState): { branch(messageId: string): ReturnType<typeof branchOfHit>; tool(message: ChatMessage): Pick<SearchHit, "tool"> } {
	let active: Set<string> | undefined;
	let calls: Map<string, ToolCall> | undefined;
	const answered = (): Map<string, ToolCall> => {
		if (calls) return calls;
		calls = new Map();
		const latest = new Map<string, ToolCall>();
		for (const m of state.transcript) {
			if (m.role === "tool" && m.toolCallId !== undefined) {
				const found = latest.get(m.toolCallId);
				if (found) calls.set(m.id, found);
			}
			for (const c of m.toolCalls ?? []) latest.set(c.id, c);
		}
		return calls;
	};
	return {
		branch(messageId) {
			if (!state.tree.has(messageId)) return { leafId: messageId, onActiveBranch: true };
			active ??= new Set(state.tree.path());
			const on = active.has(messageId);
			return { leafId: on ? (state.tree.leaf ?? messageId) : state.tree.latestDescendant(messageId), onActiveBranch: on };
		},
		tool(message) {
			if (message.role !== "tool") return {};
			const failed = message.isError === true ? { isError: true } : {};
			const found = message.toolCallId !== undefined ? answered().get(message.id) : undefined;
			if (found !== undefined) return { tool: { name: found.name, arguments: found.arguments, ...failed } };
			return message.name !== undefined && message.name !== "" ? { tool: { name: message.name, arguments: {}, ...failed } } : {};
		},
	};
}
