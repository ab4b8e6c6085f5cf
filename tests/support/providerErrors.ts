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
