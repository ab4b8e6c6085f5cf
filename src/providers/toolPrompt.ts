// Tool calls and results in a prompt, made safe for every dialect before it is written out.
// OpenAI and Anthropic refuse a call without its result ("tool_calls must be followed by tool
// messages", "tool_use ids were found without tool_result blocks") and a result without its call;
// a chat stopped mid-loop or a damaged session can hold either. And a request that offers no tools
// (the model cannot use them, or the loop asks for a final answer) must not carry tool messages at
// all: Anthropic refuses them, and llama.cpp without --jinja does too. So:
// - `pairToolMessages`: every call gets a result (an error saying it was not run), right after its
//   message; a result that answers no call becomes plain text;
// - `flattenToolMessages`: calls and results as plain text, for a request without tools.
import type { PromptMessage, ToolCall, ToolSpec } from "../core/types";

/**
 * The id the server knows a call by: its own (`serverId`), or the call's id when it has none (a
 * call the server never named, and chats saved before the engine gave calls ids of its own).
 */
export function serverIdOf(call: Pick<ToolCall, "id" | "serverId">): string {
	return call.serverId !== undefined && call.serverId !== "" ? call.serverId : call.id;
}

/** A call as the server is to see it: under its own id, without ours. */
function wireCall(call: ToolCall): ToolCall {
	const out: ToolCall = { id: serverIdOf(call), name: call.name, arguments: call.arguments };
	if (call.invalidArguments !== undefined) out.invalidArguments = call.invalidArguments;
	return out;
}

/** The result a call gets when none was recorded. */
export const MISSING_RESULT = "No result: the call was not run (the turn ended first).";

/** Tools to send: none when absent or empty. */
export function offeredTools(tools: readonly ToolSpec[] | undefined): readonly ToolSpec[] | undefined {
	return tools !== undefined && tools.length > 0 ? tools : undefined;
}

/** `tools` as OpenAI-compatible servers and Ollama take them. */
export function functionTools(tools: readonly ToolSpec[]): unknown[] {
	return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

function callText(call: ToolCall): string {
	return `[Called the tool ${call.name} with ${JSON.stringify(call.arguments)}]`;
}

function resultHeading(m: PromptMessage): string {
	return `[Result of the tool ${m.name ?? "call"}${m.isError === true ? " (an error)" : ""}]`;
}

/** A tool result as plain user text (results are untrusted: they stay marked as results). */
function resultAsText(m: PromptMessage): PromptMessage {
	return { role: "user", content: `${resultHeading(m)}\n${m.content}` };
}

/** Calls and results as plain text, for a request that offers no tools. */
export function flattenToolMessages(messages: readonly PromptMessage[]): PromptMessage[] {
	return messages.map((m) => {
		if (m.role === "tool") return resultAsText(m);
		if (m.role === "assistant" && m.toolCalls !== undefined && m.toolCalls.length > 0) {
			const calls = m.toolCalls.map(callText).join("\n");
			return { role: "assistant", content: m.content.trim() === "" ? calls : `${m.content}\n\n${calls}` };
		}
		// Images stay with their message: only tool fields are flattened.
		return m.images !== undefined && m.images.length > 0 ? { role: m.role, content: m.content, images: m.images } : { role: m.role, content: m.content };
	});
}

/** Every call followed by exactly one result; results that answer no call become plain text. */
export function pairToolMessages(messages: readonly PromptMessage[]): PromptMessage[] {
	const out: PromptMessage[] = [];
	let i = 0;
	while (i < messages.length) {
		const m = messages[i++] as PromptMessage;
		if (m.role === "tool") {
			out.push(resultAsText(m)); // A result with no call before it.
			continue;
		}
		const calls = m.role === "assistant" ? (m.toolCalls ?? []) : [];
		if (calls.length === 0) {
			out.push(m);
			continue;
		}
		// Paired by the engine's ids (unique), sent under the server's (which may repeat: call_0, call_0).
		out.push({ ...m, toolCalls: calls.map(wireCall) });
		const open = new Map(calls.map((c) => [c.id, c] as const));
		const strays: PromptMessage[] = [];
		while (i < messages.length && messages[i]?.role === "tool") {
			const result = messages[i++] as PromptMessage;
			// A result without an id answers the first open call of its name (or the first open one).
			const call =
				result.toolCallId !== undefined
					? open.get(result.toolCallId)
					: ([...open.values()].find((c) => c.name === result.name) ?? (result.name === undefined ? [...open.values()][0] : undefined));
			if (call === undefined) {
				strays.push(resultAsText(result));
				continue;
			}
			open.delete(call.id);
			out.push({ ...result, toolCallId: serverIdOf(call), name: result.name ?? call.name });
		}
		for (const call of open.values()) out.push({ role: "tool", content: MISSING_RESULT, toolCallId: serverIdOf(call), name: call.name, isError: true });
		out.push(...strays);
	}
	return out;
}

/** The prompt as the dialect should write it: paired when tools are offered, flattened when not. */
export function promptForTools(messages: readonly PromptMessage[], tools: readonly ToolSpec[] | undefined): PromptMessage[] {
	return offeredTools(tools) ? pairToolMessages(messages) : flattenToolMessages(messages);
}

/** A result's text for dialects without an error flag (Ollama, OpenAI): an error says so. */
export function resultContent(m: PromptMessage): string {
	return m.isError === true ? `Error: ${m.content}` : m.content;
}
