import { LLM_ERROR_KINDS, type LLMErrorKind } from "../core/types";
import type { OverflowReport } from "./overflowReport";
import type { NoticeParams } from "../core/notices";

export interface LLMErrorOptions {
	/** HTTP status, when the error came from a response. */
	status?: number;
	/** Milliseconds to wait before retrying, from Retry-After. */
	retryAfterMs?: number;
	/** Which provider dialect raised it ("ollama", "openai", "anthropic"). */
	provider?: string;
	/** For `context_overflow`: the window and prompt size the server named, when it did. */
	overflow?: OverflowReport;
	cause?: unknown;
	/** The answer received before the failure, for the engine to keep (an answer cut at the size cap). */
	partialText?: string;
	/** For `bad_request`: the model cannot use tools; ask again without them. */
	toolsUnsupported?: boolean;
	/** For `bad_request`: the model cannot read images; the person should choose another model (or send without them). */
	imagesUnsupported?: boolean;
	/** What the engine's own message says, as data (LLM_ERROR_CODES), for a UI in another language. */
	code?: LLMErrorCode;
	/** Values that message names (model, origin). */
	params?: NoticeParams;
	/** The server's own words, when the message wraps them in the engine's English. */
	said?: string;
}

/** Errors whose message is the engine's own English, not the server's words. */
export const LLM_ERROR_CODES = [
	/** Ollama refused the app's origin. Params: origin. */
	"origin_refused",
	/** The key was refused. Params: status. */
	"auth_rejected",
	/** A plain 404: a wrong address more often than a missing model. Params: provider, model, origin. */
	"api_not_found",
	/** The model was not found. Params: provider, model. */
	"model_missing",
	/** The model cannot use tools. Params: model. */
	"tools_unsupported",
	/** A stream reported an error without a message. */
	"no_message",
	/** The model cannot read images. Params: model. */
	"images_unsupported",
] as const;

export type LLMErrorCode = (typeof LLM_ERROR_CODES)[number];

/** The one error type adapters throw. `message` is the provider's own words, never an API key. */
export class LLMError extends Error {
	readonly kind: LLMErrorKind;
	readonly status?: number;
	readonly retryAfterMs?: number;
	readonly provider?: string;
	readonly partialText?: string;
	readonly overflow?: OverflowReport;
	/** `bad_request` only: the request offered tools and the model (or its server) cannot use them. */
	readonly toolsUnsupported?: boolean;
	/** `bad_request` only: the request carried images and the model (or its server) cannot read them. */
	readonly imagesUnsupported?: boolean;
	readonly code?: LLMErrorCode;
	readonly params?: NoticeParams;
	readonly said?: string;

	constructor(kind: LLMErrorKind, message: string, options: LLMErrorOptions = {}) {
		super(message);
		this.name = "LLMError";
		this.kind = kind;
		this.status = options.status;
		this.retryAfterMs = options.retryAfterMs;
		this.provider = options.provider;
		if (options.partialText !== undefined) this.partialText = options.partialText;
		if (options.overflow !== undefined) this.overflow = options.overflow;
		if (options.toolsUnsupported === true) this.toolsUnsupported = true;
		if (options.imagesUnsupported === true) this.imagesUnsupported = true;
		if (options.code !== undefined) this.code = options.code;
		if (options.params !== undefined) this.params = options.params;
		if (options.said !== undefined) this.said = options.said;
		if (options.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
	}
}

/** Duck-typed: errors may cross bundle boundaries (tests, scripts), so don't rely on instanceof. */
export function errorKind(err: unknown): LLMErrorKind | undefined {
	if (typeof err !== "object" || err === null || !("kind" in err)) return undefined;
	const { kind } = err;
	return typeof kind === "string" && (LLM_ERROR_KINDS as readonly string[]).includes(kind) ? (kind as LLMErrorKind) : undefined;
}

/** The partial answer an error carries (duck-typed like `errorKind`), if any. */
export function partialAnswer(err: unknown): string | undefined {
	if (typeof err !== "object" || err === null || !("partialText" in err)) return undefined;
	const { partialText } = err;
	return typeof partialText === "string" ? partialText : undefined;
}

/** The model cannot use tools (duck-typed like `errorKind`): answer without them. */
export function isToolsUnsupported(err: unknown): boolean {
	return typeof err === "object" && err !== null && "toolsUnsupported" in err && err.toolsUnsupported === true && errorKind(err) === "bad_request";
}

/** The model cannot read images (duck-typed like `errorKind`): the images stay attached for another model. */
export function isImagesUnsupported(err: unknown): boolean {
	return typeof err === "object" && err !== null && "imagesUnsupported" in err && err.imagesUnsupported === true && errorKind(err) === "bad_request";
}

/**
 * The server has no model by the name sent (duck-typed like `errorKind`): Ollama's 404 `model "x"
 * not found`, OpenAI's `model_not_found`, Anthropic's `not_found_error`. The model the request
 * named, when the error says.
 */
export function missingModel(err: unknown): { model: string | undefined } | undefined {
	if (errorKind(err) !== "not_found" || typeof err !== "object" || err === null || !("code" in err) || err.code !== "model_missing") return undefined;
	const params = "params" in err && typeof err.params === "object" && err.params !== null ? (err.params as Record<string, unknown>) : {};
	return { model: typeof params.model === "string" ? params.model : undefined };
}
