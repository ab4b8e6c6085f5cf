import type { LLMErrorKind } from "../chat/types";

export const LLM_ERROR_KINDS: readonly LLMErrorKind[] = [
	"context_overflow",
	"rate_limit",
	"auth",
	"not_found",
	"bad_request",
	"server",
	"network",
	"protocol",
	"aborted",
];

export interface LLMErrorOptions {
	/** HTTP status, when the error came from a response. */
	status?: number;
	/** Milliseconds to wait before retrying, from Retry-After. */
	retryAfterMs?: number;
	/** Which provider dialect raised it ("ollama", "openai", "anthropic"). */
	provider?: string;
	cause?: unknown;
}

/** The one error type adapters throw. `message` is the provider's own words, never an API key. */
export class LLMError extends Error {
	readonly kind: LLMErrorKind;
	readonly status?: number;
	readonly retryAfterMs?: number;
	readonly provider?: string;

	constructor(kind: LLMErrorKind, message: string, options: LLMErrorOptions = {}) {
		super(message);
		this.name = "LLMError";
		this.kind = kind;
		this.status = options.status;
		this.retryAfterMs = options.retryAfterMs;
		this.provider = options.provider;
		if (options.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
	}
}

/** Duck-typed: errors may cross bundle boundaries (tests, scripts), so don't rely on instanceof. */
export function errorKind(err: unknown): LLMErrorKind | undefined {
	if (typeof err !== "object" || err === null || !("kind" in err)) return undefined;
	const { kind } = err;
	return typeof kind === "string" && (LLM_ERROR_KINDS as readonly string[]).includes(kind) ? (kind as LLMErrorKind) : undefined;
}
