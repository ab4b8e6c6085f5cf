// A prompt in the shape of Anthropic's Messages API: system text at the top level, then user and
// assistant turns that alternate and open with the user. Tool calls are `tool_use` blocks after the
// assistant's text; their results are `tool_result` blocks, all of one round in the ONE user turn
// that follows (first in it, as Anthropic requires), with `is_error` on failures.
import type { PromptMessage, ToolSpec } from "../core/types";
import { offeredTools, promptForTools } from "./toolPrompt";

/** Stands in for a missing first user turn: Anthropic requires the conversation to open with one. */
export const CONTINUATION_PROMPT = "(The conversation so far continues below.)";

export type AnthropicBlock =
	| { type: "text"; text: string }
	| { type: "image"; source: { type: "base64"; media_type: string; data: string } }
	| { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
	| { type: "tool_result"; tool_use_id: string; content?: string; is_error?: true };

export interface AnthropicTurn {
	role: "user" | "assistant";
	/** Plain turns stay strings; turns with calls or results are blocks. */
	content: string | AnthropicBlock[];
}

export interface AnthropicPrompt {
	system?: string;
	messages: AnthropicTurn[];
}

/** Anthropic takes ids of `[a-zA-Z0-9_-]` only; another provider's ids (a session moved) are mapped. */
export function anthropicToolId(id: string | undefined): string {
	const safe = (id ?? "").replace(/[^a-zA-Z0-9_-]/g, "_");
	return safe === "" ? "call" : safe;
}

function blocks(content: string | AnthropicBlock[]): AnthropicBlock[] {
	return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

/** The turn for one message, or undefined for a blank one (Anthropic refuses empty text). */
function turnOf(m: PromptMessage): AnthropicTurn | undefined {
	if (m.role === "tool") {
		const result: AnthropicBlock = { type: "tool_result", tool_use_id: anthropicToolId(m.toolCallId) };
		if (m.content !== "") result.content = m.content;
		if (m.isError === true) result.is_error = true;
		return { role: "user", content: [result] };
	}
	const role = m.role === "assistant" ? "assistant" : "user";
	if (m.role === "assistant" && m.toolCalls !== undefined && m.toolCalls.length > 0) {
		const out: AnthropicBlock[] = m.content.trim() === "" ? [] : [{ type: "text", text: m.content }];
		for (const c of m.toolCalls) out.push({ type: "tool_use", id: anthropicToolId(c.id), name: c.name, input: c.arguments });
		return { role, content: out };
	}
	// Images go first, then the text: Anthropic's advice for image questions.
	if (role === "user" && m.images !== undefined && m.images.length > 0) {
		const out: AnthropicBlock[] = m.images.map((i) => ({ type: "image", source: { type: "base64", media_type: i.mediaType, data: i.data } }));
		if (m.content.trim() !== "") out.push({ type: "text", text: m.content });
		return { role, content: out };
	}
	return m.content.trim() === "" ? undefined : { role, content: m.content };
}

/** Two turns of one role as one: strings joined; with blocks, a user turn keeps its results first. */
function merge(a: AnthropicTurn, b: AnthropicTurn): AnthropicTurn["content"] {
	if (typeof a.content === "string" && typeof b.content === "string") return `${a.content}\n\n${b.content}`;
	const all = [...blocks(a.content), ...blocks(b.content)];
	if (a.role === "assistant") return all;
	return [...all.filter((x) => x.type === "tool_result"), ...all.filter((x) => x.type !== "tool_result")];
}

/**
 * System messages are joined, consecutive same-role turns merged (consecutive tool results become
 * one user turn), blank turns dropped (an answer stopped before its first token is saved empty).
 * Without tools offered, calls and results go as plain text: Anthropic refuses tool blocks then.
 */
export function toAnthropicPrompt(messages: readonly PromptMessage[], tools?: readonly ToolSpec[]): AnthropicPrompt {
	const system = messages.filter((m) => m.role === "system").map((m) => m.content).filter((c) => c.trim() !== "");
	const turns: AnthropicTurn[] = [];
	for (const m of promptForTools(messages.filter((x) => x.role !== "system"), tools)) {
		const turn = turnOf(m);
		if (turn === undefined) continue;
		const last = turns[turns.length - 1];
		if (last && last.role === turn.role) last.content = merge(last, turn);
		else turns.push(turn);
	}
	if (turns[0]?.role !== "user") turns.unshift({ role: "user", content: CONTINUATION_PROMPT });
	return system.length > 0 ? { system: system.join("\n\n"), messages: turns } : { messages: turns };
}

/** `tools` as Anthropic takes them: the JSON Schema is `input_schema`. */
export function anthropicTools(tools: readonly ToolSpec[] | undefined): { tools?: unknown[] } {
	const offered = offeredTools(tools);
	return offered ? { tools: offered.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })) } : {};
}

/** Anthropic's mark on a block: the prompt up to and including it may be cached (about five minutes). */
export const CACHE_BREAKPOINT = { type: "ephemeral" } as const;
/** Anthropic refuses a request with more breakpoints than this. */
export const MAX_CACHE_BREAKPOINTS = 4;

type Marked<T> = T & { cache_control?: typeof CACHE_BREAKPOINT };

/** The prompt, system and tools as sent, with cache breakpoints (see `withCacheBreakpoints`). */
export interface CachedAnthropicPrompt {
	system?: string | Marked<{ type: "text"; text: string }>[];
	messages: { role: "user" | "assistant"; content: string | Marked<AnthropicBlock>[] }[];
	tools?: unknown[];
}

/**
 * Breakpoints where the prompt stops repeating the previous request: the end of the stable head
 * (the system text, which caches the tools before it; the last tool when there is no system
 * text), and the last turn before the latest user turn (the conversation as far as the previous
 * answer, which the next request repeats). The latest turn carries this turn's sources and
 * changes every time: writing it to the cache (1.25× the input price) would be paid for nothing.
 * Two breakpoints, within Anthropic's four; a prefix shorter than the model's minimum (1,024
 * tokens and more) is simply not cached.
 */
export function withCacheBreakpoints(prompt: AnthropicPrompt, tools: { tools?: unknown[] }): CachedAnthropicPrompt {
	const out: CachedAnthropicPrompt = { messages: prompt.messages.map((m) => ({ ...m })) };
	if (prompt.system !== undefined) out.system = [{ type: "text", text: prompt.system, cache_control: CACHE_BREAKPOINT }];
	if (tools.tools !== undefined) {
		const list = [...tools.tools];
		const last = list.length - 1;
		if (prompt.system === undefined && last >= 0) list[last] = { ...(list[last] as Record<string, unknown>), cache_control: CACHE_BREAKPOINT };
		out.tools = list;
	}
	let latestUser = -1;
	for (let i = out.messages.length - 1; i >= 0; i--) {
		if (out.messages[i]?.role === "user") {
			latestUser = i;
			break;
		}
	}
	const before = out.messages[latestUser - 1];
	if (latestUser >= 1 && before !== undefined) {
		const content: Marked<AnthropicBlock>[] = blocks(before.content).map((b) => ({ ...b }));
		const last = content[content.length - 1];
		if (last !== undefined) content[content.length - 1] = { ...last, cache_control: CACHE_BREAKPOINT };
		before.content = content;
	}
	return out;
}
