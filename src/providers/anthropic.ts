import { anthropicTools, toAnthropicPrompt, withCacheBreakpoints } from "./anthropicPrompt";
import { AnthropicStreamDecoder } from "./anthropicStream";
import type { DialectFactory } from "./dialect";
import { contextLengthFromList, readOpenAIModels } from "./openai";

export const ANTHROPIC_VERSION = "2023-06-01";
// Kept importable from here: callers and tests name them by this module.
export { CONTINUATION_PROMPT, toAnthropicPrompt, type AnthropicPrompt } from "./anthropicPrompt";
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
			body: JSON.stringify({ model: config.model, ...withCacheBreakpoints(toAnthropicPrompt(req.messages, req.tools), anthropicTools(req.tools)), max_tokens: req.maxTokens, ...(req.temperature === undefined ? {} : { temperature: Math.min(1, req.temperature) }), stream: true }),
		}),
		decoder: (ctx, listener, maxChars) => new AnthropicStreamDecoder(ctx, listener, maxChars),
		readModels: readOpenAIModels, // Same `{ data: [{ id, max_input_tokens? }] }` shape.
		modelContextLength: (ctx, model, signal) => contextLengthFromList(ctx, `${baseUrl}/v1/models?limit=1000`, headers, model, signal),
	};
};
