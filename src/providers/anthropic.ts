import type { PromptMessage } from "../core/types";
import { AnthropicStreamDecoder } from "./anthropicStream";
import type { DialectFactory } from "./dialect";
import { contextLengthFromList, readOpenAIModels } from "./openai";

export const ANTHROPIC_VERSION = "2023-06-01";
/** Stands in for a missing first user turn: Anthropic requires the conversation to open with one. */
export const CONTINUATION_PROMPT = "(The conversation so far continues below.)";

export interface AnthropicPrompt {
	system?: string;
	messages: { role: "user" | "assistant"; content: string }[];
}

/**
 * Anthropic takes system text at the top level, and user/assistant turns that alternate and start
 * with the user: system messages are joined, consecutive same-role turns merged. Blank turns are
 * dropped (an answer stopped before its first token is saved empty), since Anthropic refuses them.
 */
export function toAnthropicPrompt(messages: readonly PromptMessage[]): AnthropicPrompt {
	const system = messages.filter((m) => m.role === "system").map((m) => m.content).filter((c) => c.trim() !== "");
	const turns: AnthropicPrompt["messages"] = [];
	for (const m of messages) {
		if (m.role === "system" || m.content.trim() === "") continue;
		const last = turns[turns.length - 1];
		if (last && last.role === m.role) last.content = `${last.content}\n\n${m.content}`;
		else turns.push({ role: m.role, content: m.content });
	}
	if (turns[0]?.role !== "user") turns.unshift({ role: "user", content: CONTINUATION_PROMPT });
	return system.length > 0 ? { system: system.join("\n\n"), messages: turns } : { messages: turns };
}

/** Anthropic's Messages API: `{baseUrl}/v1/messages` SSE. */
export const anthropicDialect: DialectFactory = (config, baseUrl) => {
	const headers: Record<string, string> = { "anthropic-version": ANTHROPIC_VERSION };
	if (config.apiKey) headers["x-api-key"] = config.apiKey;
	// Anthropic refuses browser-origin requests unless they opt in.
	if (config.fromApp) headers["anthropic-dangerous-direct-browser-access"] = "true";
	return {
		headers,
		// The list is paged (20 by default); 1000 is the most one page holds.
		modelsUrl: `${baseUrl}/v1/models?limit=1000`,
		chatCall: (req) => ({
			url: `${baseUrl}/v1/messages`,
			headers: { ...headers, "content-type": "application/json", accept: "text/event-stream" },
			body: JSON.stringify({ model: config.model, ...toAnthropicPrompt(req.messages), max_tokens: req.maxTokens, stream: true }),
		}),
		decoder: (ctx, listener, maxChars) => new AnthropicStreamDecoder(ctx, listener, maxChars),
		readModels: readOpenAIModels, // Same `{ data: [{ id, max_input_tokens? }] }` shape.
		modelContextLength: (ctx, model, signal) => contextLengthFromList(ctx, `${baseUrl}/v1/models?limit=1000`, headers, model, signal),
	};
};
