import type { GenerateRequest } from "../core/types";
import type { AnswerListener, StreamDecoder } from "./answer";
import type { ErrorContext } from "./classify";
import type { RequestContext } from "./request";
import type { ModelInfo, ProviderConfig } from "./types";

export interface HttpCall {
	url: string;
	headers: Record<string, string>;
	body: string;
}

/** What differs between providers: the wire format. Everything else is shared. */
export interface Dialect {
	/** The chat request for `req`. */
	chatCall(req: GenerateRequest): HttpCall;
	/** `maxChars`: the answer's size cap (`answerCharLimit`). */
	decoder(ctx: ErrorContext, listener: AnswerListener, maxChars?: number): StreamDecoder;
	/** Where to list models, and how to read the answer. */
	modelsUrl: string;
	readModels(body: unknown): ModelInfo[];
	/** Headers for small GET requests (auth). */
	headers: Record<string, string>;
	modelContextLength(ctx: RequestContext, model: string, signal?: AbortSignal): Promise<number | undefined>;
}

export type DialectFactory = (config: ProviderConfig, baseUrl: string) => Dialect;

export function trimBaseUrl(url: string): string {
	return url.trim().replace(/\/+$/, "");
}
