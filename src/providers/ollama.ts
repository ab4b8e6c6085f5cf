import { isRecord, numberOrUndefined } from "./answer";
import { MAX_METADATA_BYTES } from "./limits";
import type { DialectFactory } from "./dialect";
import { OllamaStreamDecoder } from "./ollamaStream";
import { requestJson } from "./request";
import type { ModelInfo } from "./types";
import type { PromptMessage } from "../core/types";
import { functionTools, offeredTools, promptForTools, resultContent } from "./toolPrompt";

/** One message in Ollama's shape: calls with arguments as objects, results as `role: "tool"`. */
function ollamaMessage(m: PromptMessage): Record<string, unknown> {
	if (m.role === "tool") {
		const out: Record<string, unknown> = { role: "tool", content: resultContent(m) };
		if (m.name !== undefined) out.tool_name = m.name;
		// Newer Ollama matches results to calls by id; older ones ignore it.
		if (m.toolCallId !== undefined) out.tool_call_id = m.toolCallId;
		return out;
	}
	if (m.toolCalls !== undefined && m.toolCalls.length > 0) {
		return { role: m.role, content: m.content, tool_calls: m.toolCalls.map((c) => ({ id: c.id, function: { name: c.name, arguments: c.arguments } })) };
	}
	// Ollama takes a message's images as bare base64 strings beside its text.
	if (m.images !== undefined && m.images.length > 0) return { role: m.role, content: m.content, images: m.images.map((i) => i.data) };
	return { role: m.role, content: m.content };
}

/** Ollama's native API: `/api/chat` NDJSON, always with `num_ctx` (else it silently truncates). */
export const ollamaDialect: DialectFactory = (config, baseUrl) => {
	const headers: Record<string, string> = config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {};
	return {
		headers,
		modelsUrl: `${baseUrl}/api/tags`,
		chatCall: (req) => ({
			url: `${baseUrl}/api/chat`,
			headers: { ...headers, "content-type": "application/json" },
			body: JSON.stringify({
				model: config.model,
				messages: promptForTools(req.messages, req.tools).map(ollamaMessage),
				...(offeredTools(req.tools) ? { tools: functionTools(req.tools ?? []) } : {}),
				stream: true,
				options: { num_ctx: req.contextWindow, num_predict: req.maxTokens, ...(req.temperature === undefined ? {} : { temperature: req.temperature }) },
			}),
		}),
		decoder: (ctx, listener, maxChars) => new OllamaStreamDecoder(ctx, listener, maxChars),
		readModels: (body) => {
			const models = isRecord(body) && Array.isArray(body.models) ? body.models : [];
			const out: ModelInfo[] = [];
			for (const m of models as unknown[]) {
				if (!isRecord(m)) continue;
				const id = typeof m.name === "string" ? m.name : typeof m.model === "string" ? m.model : undefined;
				if (id) out.push({ id });
			}
			return out;
		},
		modelContextLength: async (ctx, model, signal) => {
			const body = await requestJson(ctx, {
				url: `${baseUrl}/api/show`,
				method: "POST",
				headers: { ...headers, "content-type": "application/json" },
				body: JSON.stringify({ model }),
				signal,
				maxBytes: MAX_METADATA_BYTES,
			});
			return ollamaContextLength(body);
		},
	};
};

/** `model_info["<arch>.context_length"]` from `/api/show`. */
export function ollamaContextLength(body: unknown): number | undefined {
	if (!isRecord(body) || !isRecord(body.model_info)) return undefined;
	const info = body.model_info;
	const arch = info["general.architecture"];
	if (typeof arch === "string") {
		const exact = numberOrUndefined(info[`${arch}.context_length`]);
		if (exact !== undefined) return exact;
	}
	for (const [key, value] of Object.entries(info)) {
		if (key.endsWith(".context_length")) {
			const n = numberOrUndefined(value);
			if (n !== undefined) return n;
		}
	}
	return undefined;
}
