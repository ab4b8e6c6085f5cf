import { isRecord, numberOrUndefined } from "./answer";
import { MAX_METADATA_BYTES } from "./limits";
import type { DialectFactory } from "./dialect";
import { OpenAIStreamDecoder } from "./openaiStream";
import { requestJson, type RequestContext } from "./request";
import type { ModelInfo } from "./types";
import type { PromptMessage } from "../core/types";
import { functionTools, offeredTools, promptForTools, resultContent } from "./toolPrompt";

/**
 * One message in the OpenAI shape: calls with their arguments as a JSON string (and `content:
 * null` when the model said nothing before them), results as `role: "tool"` with `tool_call_id`.
 */
function openaiMessage(m: PromptMessage): Record<string, unknown> {
	if (m.role === "tool") return { role: "tool", tool_call_id: m.toolCallId, content: resultContent(m) };
	if (m.toolCalls !== undefined && m.toolCalls.length > 0) {
		return {
			role: m.role,
			content: m.content === "" ? null : m.content,
			tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } })),
		};
	}
	// Images make the content a list of parts: the text, then each image as a data URL.
	if (m.images !== undefined && m.images.length > 0) {
		const parts: Record<string, unknown>[] = m.content === "" ? [] : [{ type: "text", text: m.content }];
		for (const image of m.images) parts.push({ type: "image_url", image_url: { url: `data:${image.mediaType};base64,${image.data}` } });
		return { role: m.role, content: parts };
	}
	return { role: m.role, content: m.content };
}

/** Any OpenAI-compatible server: `{baseUrl}/chat/completions` SSE; `baseUrl` includes `/v1`. */
export const openaiDialect: DialectFactory = (config, baseUrl) => {
	const headers: Record<string, string> = config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {};
	return {
		headers,
		modelsUrl: `${baseUrl}/models`,
		chatCall: (req) => ({
			url: `${baseUrl}/chat/completions`,
			headers: { ...headers, "content-type": "application/json", accept: "text/event-stream" },
			body: JSON.stringify({
				model: config.model,
				messages: promptForTools(req.messages, req.tools).map(openaiMessage),
				...(offeredTools(req.tools) ? { tools: functionTools(req.tools ?? []) } : {}),
				stream: true,
				stream_options: { include_usage: true },
				max_tokens: req.maxTokens,
				...(req.temperature === undefined ? {} : { temperature: req.temperature }),
			}),
		}),
		decoder: (ctx, listener, maxChars) => new OpenAIStreamDecoder(ctx, listener, maxChars),
		readModels: readOpenAIModels,
		// The OpenAI API does not say; vLLM, llama.cpp and OpenRouter do, in their model list.
		modelContextLength: (ctx, model, signal) => contextLengthFromList(ctx, `${baseUrl}/models`, headers, model, signal),
	};
};

/** Context lengths as vLLM (`max_model_len`), llama.cpp (`meta.n_ctx_train`), LM Studio and OpenRouter report them. */
export function readOpenAIModels(body: unknown): ModelInfo[] {
	const data = isRecord(body) && Array.isArray(body.data) ? body.data : [];
	const out: ModelInfo[] = [];
	for (const m of data as unknown[]) {
		if (!isRecord(m) || typeof m.id !== "string") continue;
		const meta = isRecord(m.meta) ? m.meta : {};
		const contextLength =
			numberOrUndefined(m.context_length) ??
			numberOrUndefined(m.max_model_len) ??
			numberOrUndefined(m.max_context_length) ??
			numberOrUndefined(m.loaded_context_length) ??
			numberOrUndefined(meta.n_ctx_train) ??
			numberOrUndefined(m.max_input_tokens);
		out.push(contextLength === undefined ? { id: m.id } : { id: m.id, contextLength });
	}
	return out;
}

/** A model's context length as its server's model list reports it, if it does. */
export async function contextLengthFromList(
	ctx: RequestContext,
	url: string,
	headers: Record<string, string>,
	model: string,
	signal?: AbortSignal,
): Promise<number | undefined> {
	const models = readOpenAIModels(await requestJson(ctx, { url, method: "GET", headers, signal, maxBytes: MAX_METADATA_BYTES }));
	return models.find((m) => m.id === model)?.contextLength;
}
