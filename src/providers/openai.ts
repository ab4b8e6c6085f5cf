import { isRecord, numberOrUndefined } from "./answer";
import { MAX_METADATA_BYTES } from "./limits";
import type { DialectFactory } from "./dialect";
import { OpenAIStreamDecoder } from "./openaiStream";
import { requestJson, type RequestContext } from "./request";
import type { ModelInfo } from "./types";

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
				messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
				stream: true,
				stream_options: { include_usage: true },
				max_tokens: req.maxTokens,
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
