import type { LLMErrorKind } from "../core/types";
import { LLMError } from "./errors";
import { conciseServerText } from "./errorText";
import { parseOverflowReport } from "./overflowReport";
import { PROVIDER_LABELS, providerSubject, type ProviderName } from "./types";

/** Each server's real wording for "the prompt does not fit the context window". */
const CONTEXT_OVERFLOW_PATTERNS: readonly RegExp[] = [
	/context_length_exceeded/i, // OpenAI error code
	/maximum context length/i, // OpenAI, vLLM and OpenRouter message
	/exceeds the context window/i, // OpenAI's newer message
	/longer than the maximum model length/i, // vLLM V1 ("Prompt length of N is longer than…")
	/too long to fit into the model/i, // vLLM ("The prompt (total length N) is too long…")
	/exceed_context_size_error/i, // llama.cpp error type
	/exceeds the available context size/i, // llama.cpp message
	/context length of only/i, // LM Studio
	/n_keep\b[\s\S]*\bn_ctx/i, // LM Studio / llama.cpp "n_keep: … >= n_ctx: …"
	/tokens to keep from the initial prompt is greater than the context length/i, // LM Studio, without numbers
	/\bexceeds (?:the )?(?:maximum )?context length/i, // LM Studio "Input length N exceeds context length M"
	/prompt is too long/i, // Anthropic
	/prompt is longer than the context length/i, // Ollama
	/input length and `?max_tokens`? exceed context limit/i, // Anthropic, when max_tokens does not fit
];

/** How much of a server's error text is searched for its wording (error bodies are read up to 64 KB). */
const MAX_CLASSIFIED_TEXT = 64 * 1024;

export function isContextOverflowText(text: string): boolean {
	return CONTEXT_OVERFLOW_PATTERNS.some((re) => re.test(text));
}

/**
 * Each server's real wording for "this model cannot use tools". Only read when the request offered
 * tools: the same words in answer to a request without them mean something else.
 */
const TOOLS_UNSUPPORTED_PATTERNS: readonly RegExp[] = [
	/does not support tools/i, // Ollama: "registry.ollama.ai/library/gemma:2b does not support tools" (HTTP 400)
	/'tools' is not supported/i, // OpenAI: "Unsupported parameter: 'tools' is not supported with this model."
	/unrecognized request argument supplied:?\s*tools/i, // OpenAI, older models
	/tool choice requires --enable-auto-tool-choice/i, // vLLM: "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set"
	/tools param requires --jinja/i, // llama.cpp server started without --jinja (HTTP 400, or 500 on older builds)
	/no endpoints found that support tool use/i, // OpenRouter (HTTP 404)
	/\b(?:does(?: not|n't)|cannot|can't) support (?:tool use|tool calling|function calling|tools)\b/i, // Bedrock, gateways
	/\btool (?:use|calling) is not (?:supported|enabled)/i, // "tool use is not supported by the provided model"
	/function calling is not (?:supported|enabled)/i, // Mistral: "Function calling is not enabled for this model."
	/tool_use_not_supported/i, // error code of some gateways
];

/**
 * Each server's wording for "this model cannot read images". Only read when the request carried
 * images: the same words otherwise mean something else.
 */
const IMAGES_UNSUPPORTED_PATTERNS: readonly RegExp[] = [
	/does(?: not|n't) support (?:images?|image input|vision)\b/i, // Ollama ("… does not support images"), LM Studio ("Model does not support images")
	/missing data required for image input/i, // Ollama, a model without a vision projector
	/image_url is only supported by certain models/i, // OpenAI: "Invalid content type. image_url is only supported by certain models."
	/image input is not supported/i, // llama.cpp server without --mmproj
	/is not a multimodal model/i, // vLLM
	/at most 0 image\(s\) may be provided/i, // vLLM, a text-only model
	/no endpoints found that support image input/i, // OpenRouter (HTTP 404)
	/\bimages? (?:input |content )?(?:is|are) not supported/i, // gateways: "Image input is not supported for this model"
	/\b(?:vision|multimodal) is not supported/i,
];

export function isImagesUnsupportedText(text: string): boolean {
	return IMAGES_UNSUPPORTED_PATTERNS.some((re) => re.test(text));
}

function imagesUnsupportedError(ctx: ErrorContext, message: string, status?: number): LLMError {
	return new LLMError("bad_request", `This model can't read images: "${ctx.model}" (${PROVIDER_LABELS[ctx.provider]} said: ${message}). Choose a model with vision, or send the message without the image; the image stays attached.`, {
		status,
		provider: ctx.provider,
		imagesUnsupported: true,
		code: "images_unsupported",
		params: { model: ctx.model },
		said: message,
	});
}

export function isToolsUnsupportedText(text: string): boolean {
	return TOOLS_UNSUPPORTED_PATTERNS.some((re) => re.test(text));
}

/** The parameter an OpenAI-style error names (`param: "tools"`). */
function providerErrorParam(body: unknown): string | undefined {
	if (typeof body !== "object" || body === null) return undefined;
	const record = body as Record<string, unknown>;
	const inner = typeof record.error === "object" && record.error !== null ? (record.error as Record<string, unknown>) : record;
	return typeof inner.param === "string" ? inner.param : undefined;
}

function toolsUnsupportedError(ctx: ErrorContext, message: string, status?: number): LLMError {
	return new LLMError("bad_request", `Model "${ctx.model}" can't use tools (${PROVIDER_LABELS[ctx.provider]} said: ${message}).`, {
		status,
		provider: ctx.provider,
		toolsUnsupported: true,
		code: "tools_unsupported",
		params: { model: ctx.model },
		said: message,
	});
}

const MODEL_MISSING = /model_not_found|not_found_error|model ['"`]?[^'"`\s]*['"`]? not found|does not exist|no such model|try pulling it/i;

/** The provider's own message from an error body, whatever its shape. */
export function providerMessage(body: unknown): string | undefined {
	if (typeof body === "string") return body.trim() || undefined;
	if (typeof body !== "object" || body === null) return undefined;
	const record = body as Record<string, unknown>;
	for (const key of ["error", "message", "detail"]) {
		const value = record[key];
		if (typeof value === "string" && value.trim()) return value.trim();
		if (typeof value === "object" && value !== null) {
			const inner = providerMessage(value);
			if (inner) return inner;
		}
	}
	return undefined;
}

/** An error type or code the body names (`invalid_request_error`, `context_length_exceeded`…). */
function providerErrorType(body: unknown): string {
	if (typeof body !== "object" || body === null) return "";
	const record = body as Record<string, unknown>;
	const inner = typeof record.error === "object" && record.error !== null ? (record.error as Record<string, unknown>) : record;
	return [inner.type, inner.code].filter((v): v is string => typeof v === "string").join(" ");
}

export function parseJsonOrText(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** Retry-After is seconds or an HTTP date; OpenAI also sends `retry-after-ms`. */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
	const ms = headers.get("retry-after-ms");
	if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
	const value = headers.get("retry-after");
	if (value === null || value.trim() === "") return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface ErrorContext {
	provider: ProviderName;
	model: string;
	/** Where the server runs, for messages (`http://localhost:11434`). */
	origin: string;
	/** The transport sends no Origin header, so a refusal cannot be about the origin. */
	sendsNoOrigin?: boolean;
	/** The request offered tools: a refusal may be about them (`toolsUnsupported`). */
	sentTools?: boolean;
	/** The request carried images: a refusal may be about them (`imagesUnsupported`). */
	sentImages?: boolean;
}

/** The command that lets Obsidian (desktop and mobile) talk to Ollama. */
export const OLLAMA_ORIGINS_FIX = 'OLLAMA_ORIGINS="app://obsidian.md*,capacitor://localhost" ollama serve';

export function originRefusedMessage(origin: string): string {
	return `Ollama at ${origin} refused requests from Obsidian's origin. Quit Ollama and start it with ${OLLAMA_ORIGINS_FIX} (or set OLLAMA_ORIGINS the same way for the Ollama app), then try again.`;
}

export function modelMissingMessage(ctx: ErrorContext, detail?: string): string {
	const said = detail ? ` (${PROVIDER_LABELS[ctx.provider]} said: ${detail})` : "";
	const fix = ctx.provider === "ollama" ? ` Download it with \`ollama pull ${ctx.model}\`.` : " Check the model name in settings.";
	return `Model "${ctx.model}" was not found${said}.${fix}`;
}

/** modelMissingMessage as data. */
function modelMissingData(ctx: ErrorContext, detail?: string): { code: "model_missing"; params: { provider: string; model: string }; said?: string } {
	return { code: "model_missing", params: { provider: ctx.provider, model: ctx.model }, ...(detail ? { said: detail } : {}) };
}

const NO_MESSAGE = "The server reported an error without a message.";

/** Kind for an error named by type or message, when no HTTP status tells (stream error events). */
function kindFromType(type: string, message: string): LLMErrorKind | undefined {
	const text = `${type} ${message}`;
	if (isContextOverflowText(text)) return "context_overflow";
	if (/rate_limit|too many requests/i.test(text)) return "rate_limit";
	if (/overloaded|api_error|server_error|internal/i.test(type)) return "server";
	if (/authentication|permission|invalid_api_key|unauthori[sz]ed/i.test(text)) return "auth";
	if (MODEL_MISSING.test(text)) return "not_found";
	if (/invalid_request|bad_request/i.test(type)) return "bad_request";
	return undefined;
}

/** An error a server reported with an HTTP status. */
export function classifyHttpError(ctx: ErrorContext, status: number, bodyText: string, headers: Headers): LLMError {
	const body = parseJsonOrText(bodyText);
	const said = providerMessage(body)?.slice(0, MAX_CLASSIFIED_TEXT);
	const message = said === undefined ? undefined : conciseServerText(said);
	const type = providerErrorType(body);
	const opts = { status, provider: ctx.provider };
	const fallback = `${providerSubject(ctx.provider)} answered HTTP ${status}${message ? `: ${message}` : "."}`;
	if (isContextOverflowText(`${type} ${said ?? bodyText}`)) {
		return new LLMError("context_overflow", message ?? fallback, { ...opts, overflow: parseOverflowReport(said ?? bodyText, body) });
	}
	if (ctx.sentTools && status >= 400 && status !== 401 && status !== 403 && status !== 429) {
		const param = providerErrorParam(body);
		const aboutTools = param === "tools" || param === "tool_choice";
		if (isToolsUnsupportedText(`${type} ${said ?? bodyText}`) || (status === 400 && aboutTools && /not supported|unsupported/i.test(`${type} ${said ?? ""}`))) {
			return toolsUnsupportedError(ctx, message ?? `HTTP ${status}`, status);
		}
	}
	if (ctx.sentImages && status >= 400 && status !== 401 && status !== 403 && status !== 429 && isImagesUnsupportedText(`${type} ${said ?? bodyText}`)) {
		return imagesUnsupportedError(ctx, message ?? `HTTP ${status}`, status);
	}
	if (status === 401 || status === 403) {
		// Ollama refuses an origin it does not allow with a bare 403.
		if (ctx.provider === "ollama" && status === 403 && !message && !ctx.sendsNoOrigin) {
			return new LLMError("auth", originRefusedMessage(ctx.origin), { ...opts, code: "origin_refused", params: { origin: ctx.origin } });
		}
		return new LLMError("auth", `${providerSubject(ctx.provider)} rejected the request (HTTP ${status})${message ? `: ${message}` : ""}. Check the API key in settings.`, {
			...opts,
			code: "auth_rejected",
			params: { status },
			...(message ? { said: message } : {}),
		});
	}
	const namesModel = MODEL_MISSING.test(`${type} ${message ?? ""}`);
	if (status === 404 && !namesModel && typeof body === "string") {
		// A plain-text 404 ("404 page not found") is a wrong address more often than a missing model.
		const pull = ctx.provider === "ollama" ? ` If the address is right, download the model with \`ollama pull ${ctx.model}\`.` : "";
		const v1 = ctx.provider === "openai" ? " (for OpenAI-compatible servers it ends in /v1)" : "";
		return new LLMError("not_found", `Model "${ctx.model}" or the API was not found at ${ctx.origin} (HTTP 404${message ? `: ${message}` : ""}). Check the base URL${v1}.${pull}`, {
			...opts,
			code: "api_not_found",
			params: { provider: ctx.provider, model: ctx.model, origin: ctx.origin },
			...(message ? { said: message } : {}),
		});
	}
	if (status === 404 || (status >= 400 && status < 500 && namesModel)) {
		return new LLMError("not_found", modelMissingMessage(ctx, message), { ...opts, ...modelMissingData(ctx, message) });
	}
	if (status === 429) {
		const retryAfterMs = parseRetryAfter(headers);
		return new LLMError("rate_limit", message ?? fallback, { ...opts, retryAfterMs });
	}
	// 503 and Anthropic's 529 may say when to come back, too.
	if (status >= 500) return new LLMError("server", message ?? fallback, { ...opts, retryAfterMs: parseRetryAfter(headers) });
	if (status >= 400) return new LLMError("bad_request", message ?? fallback, opts);
	// Redirects never get here: request.ts refuses them before reading a body (redirect.ts).
	return new LLMError("protocol", fallback, opts);
}

/** An error object that arrived inside a stream (an error event, an error line, a 200 error body). */
export function classifyStreamError(ctx: ErrorContext, body: unknown): LLMError {
	// Stream events may be megabytes long; the wording that matters is at the start.
	const said = providerMessage(body)?.slice(0, MAX_CLASSIFIED_TEXT);
	const message = said === undefined ? NO_MESSAGE : conciseServerText(said);
	const type = providerErrorType(body);
	if (ctx.sentTools && isToolsUnsupportedText(`${type} ${said ?? ""}`)) return toolsUnsupportedError(ctx, message);
	if (ctx.sentImages && isImagesUnsupportedText(`${type} ${said ?? ""}`)) return imagesUnsupportedError(ctx, message);
	const kind = kindFromType(type, said ?? message) ?? "server";
	if (kind === "not_found") return new LLMError(kind, modelMissingMessage(ctx, message), { provider: ctx.provider, ...modelMissingData(ctx, said === undefined ? undefined : message) });
	if (kind === "context_overflow") return new LLMError(kind, message, { provider: ctx.provider, overflow: parseOverflowReport(said ?? message, body) });
	return new LLMError(kind, message, { provider: ctx.provider, ...(said === undefined ? { code: "no_message" as const } : {}) });
}
