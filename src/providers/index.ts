import { HttpAdapter } from "./adapter";
import { anthropicDialect } from "./anthropic";
import { trimBaseUrl, type DialectFactory } from "./dialect";
import { LLMError } from "./errors";
import { ollamaDialect } from "./ollama";
import { openaiDialect } from "./openai";
import { DEFAULT_FIRST_BYTE_TIMEOUT_MS, DEFAULT_STALL_TIMEOUT_MS, type RequestContext } from "./request";
import { fetchTransport } from "./transport";
import { DEFAULT_BASE_URLS, type ProviderAdapter, type ProviderConfig, type ProviderName } from "./types";

export { DEFAULT_BASE_URLS } from "./types";

const DIALECTS: Record<ProviderName, DialectFactory> = {
	ollama: ollamaDialect,
	openai: openaiDialect,
	anthropic: anthropicDialect,
};

function originOf(baseUrl: string): string {
	let url: URL | undefined;
	try {
		url = new URL(baseUrl);
	} catch {
		url = undefined;
	}
	// "localhost:11434" parses as a URL with the scheme "localhost:", so check the scheme too.
	if (url?.protocol !== "http:" && url?.protocol !== "https:") {
		throw new LLMError("bad_request", `"${baseUrl}" is not a valid server address; it should look like http://localhost:11434.`);
	}
	return url.origin;
}

/** The adapter for one provider, model and server. Throws `bad_request` for an unusable address. */
export function createAdapter(config: ProviderConfig): ProviderAdapter {
	const dialect = DIALECTS[config.provider];
	if (!dialect) throw new LLMError("bad_request", `Unknown provider "${String(config.provider)}".`);
	const baseUrl = trimBaseUrl(config.baseUrl.trim() || DEFAULT_BASE_URLS[config.provider]);
	// A pasted key often ends in a newline, which no header may hold (the Node transport refuses it).
	const apiKey = config.apiKey?.trim() || undefined;
	const transport = config.transport ?? fetchTransport;
	const ctx: RequestContext = {
		provider: config.provider,
		model: config.model,
		origin: originOf(baseUrl),
		transport,
		sendsNoOrigin: transport.sendsNoOrigin,
		apiKey,
		firstByteTimeoutMs: config.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS,
		stallTimeoutMs: config.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
		fromApp: config.fromApp,
		baseUrl,
	};
	const settled: ProviderConfig = { ...config, baseUrl, apiKey };
	return new HttpAdapter(settled, ctx, dialect(settled, baseUrl));
}

export { LLMError, errorKind } from "./errors";
export { fetchTransport, loadNodeTransport } from "./transport";
export type { Transport, TransportInit } from "./transport";
export type {
	ConnectionDiagnosis,
	ConnectionKind,
	ModelInfo,
	ProviderAdapter,
	ProviderConfig,
	ProviderGenerateResult,
	ProviderName,
} from "./types";
