// Each server's real HTTP error bodies, for the protocol server: context overflow as each one words
// it, and errors in each dialect's body shape.
import type { Scenario } from "./providerServer";
import { JSON_HEADERS, SSE_HEADERS, type Dialect } from "./providerStreams";

export interface ErrorBody {
	status: number;
	headers: Record<string, string>;
	body: string;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ErrorBody => ({
	status,
	headers: { ...JSON_HEADERS, ...headers },
	body: JSON.stringify(body),
});

/**
 * Context overflow as each server really words it. Sources: OpenAI API errors (code
 * `context_length_exceeded`), vLLM's OpenAI server (V0 and V1 wording), llama.cpp server
 * (`exceed_context_size_error`), LM Studio (string errors as reported on its bug tracker, also with
 * HTTP 200), Anthropic (`prompt is too long`), Ollama (as its users report it).
 */
export const OVERFLOW_BODIES: Record<string, { dialect: Dialect; reply: ErrorBody }> = {
	openai: {
		dialect: "openai",
		reply: json(400, {
			error: {
				message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
				type: "invalid_request_error",
				param: "messages",
				code: "context_length_exceeded",
			},
		}),
	},
	vllm: {
		dialect: "openai",
		reply: json(400, {
			object: "error",
			message: "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens (4608 in the messages, 512 in the completion). Please reduce the length of the messages or completion.",
			type: "BadRequestError",
			param: null,
			code: 400,
		}),
	},
	llamacpp: {
		dialect: "openai",
		reply: json(400, {
			error: { code: 400, message: "request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it", type: "exceed_context_size_error", n_prompt_tokens: 5000, n_ctx: 4096 },
		}),
	},
	lmstudio: {
		dialect: "openai",
		reply: json(400, {
			error: "Trying to keep the first 5120 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input",
		}),
	},
	vllmV1: {
		dialect: "openai",
		reply: json(400, {
			object: "error",
			message: "The decoder prompt (length 5120) is longer than the maximum model length of 4096. Make sure that `max_model_len` is no smaller than the number of text tokens.",
			type: "BadRequestError",
			param: null,
			code: 400,
		}),
	},
	lmstudioKeep: {
		dialect: "openai",
		reply: json(400, {
			error: "The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length, or provide a shorter input",
		}),
	},
	lmstudioNKeep200: {
		dialect: "openai",
		reply: json(200, {
			error: "The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 5120>= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter input.",
		}),
	},
	lmstudioSse200: {
		dialect: "openai",
		reply: {
			status: 200,
			headers: SSE_HEADERS,
			body: `data: ${JSON.stringify({ error: "Trying to keep the first 5120 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough." })}\n\n`,
		},
	},
	anthropic: {
		dialect: "anthropic",
		reply: json(400, { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 205351 tokens > 200000 maximum" }, request_id: "req_011CV5J4YZo4J3KLTDZgDN7S" }),
	},
	ollama: {
		dialect: "ollama",
		reply: json(400, { error: "the prompt is longer than the context length currently available to the model" }),
	},
};

/** HTTP errors in each dialect's body shape. */
export function httpError(dialect: Dialect, status: number, message: string, type: string, headers: Record<string, string> = {}): ErrorBody {
	switch (dialect) {
		case "ollama":
			return json(status, { error: message }, headers);
		case "openai":
			return json(status, { error: { message, type, param: null, code: type } }, headers);
		case "anthropic":
			return json(status, { type: "error", error: { type, message } }, headers);
	}
}

export function errorScenario(reply: ErrorBody, extra: Scenario = {}): Scenario {
	return { status: reply.status, headers: reply.headers, body: reply.body, ...extra };
}

/**
 * "This model cannot use tools", as each server words it. Sources: Ollama's capability check
 * (server/images.go: "<model> does not support tools", HTTP 400), OpenAI ("Unsupported parameter:
 * 'tools' is not supported with this model.", param "tools"), vLLM without
 * --enable-auto-tool-choice, llama.cpp's server without --jinja (HTTP 500 on older builds, 400 on
 * newer), OpenRouter (HTTP 404 when no provider of the model supports tools), Mistral.
 */
export const TOOLS_UNSUPPORTED_BODIES: Record<string, { dialect: Dialect; reply: ErrorBody }> = {
	ollama: { dialect: "ollama", reply: json(400, { error: "registry.ollama.ai/library/gemma:2b does not support tools" }) },
	openai: {
		dialect: "openai",
		reply: json(400, { error: { message: "Unsupported parameter: 'tools' is not supported with this model.", type: "invalid_request_error", param: "tools", code: "unsupported_parameter" } }),
	},
	vllm: {
		dialect: "openai",
		reply: json(400, { object: "error", message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: "BadRequestError", param: null, code: 400 }),
	},
	llamacppOld: { dialect: "openai", reply: json(500, { error: { code: 500, message: "tools param requires --jinja flag", type: "server_error" } }) },
	llamacpp: { dialect: "openai", reply: json(400, { error: { code: 400, message: "tools param requires --jinja flag", type: "invalid_request_error" } }) },
	openrouter: {
		dialect: "openai",
		reply: json(404, { error: { message: "No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing", code: 404 } }),
	},
	mistral: { dialect: "openai", reply: json(400, { object: "error", message: "Function calling is not enabled for this model", type: "invalid_request_error", param: null, code: null }) },
};

/** A 400 that names tools but is not about the model's support: our schema is wrong (OpenAI). */
export const TOOL_SCHEMA_ERROR: ErrorBody = json(400, {
	error: {
		message: "Invalid schema for function 'read_note': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'path'.",
		type: "invalid_request_error",
		param: "tools[0].function.parameters",
		code: "invalid_function_parameters",
	},
});

/** The error `p` rejects with, as the adapters shape it; fails the test when `p` resolves. */
export async function rejection(p: Promise<unknown>): Promise<{ kind?: string; message: string; status?: number; retryAfterMs?: number; toolsUnsupported?: boolean }> {
	try {
		await p;
	} catch (err) {
		return err as { kind?: string; message: string };
	}
	throw new Error("expected a rejection");
}
