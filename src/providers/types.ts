import type { GenerateRequest, GenerateResult, LLMAdapter } from "../core/types";
import type { Transport } from "./transport";
import type { NoticeParams } from "../core/notices";
import type { ConnectionCode } from "./connectionCodes";

/** Every provider the engine speaks to: the one list the settings and the adapters share. */
export const PROVIDERS = ["ollama", "openai", "anthropic"] as const;

export type ProviderName = (typeof PROVIDERS)[number];

/** Where each provider's server is when the settings name none. */
export const DEFAULT_BASE_URLS: Record<ProviderName, string> = {
	ollama: "http://localhost:11434",
	openai: "https://api.openai.com/v1",
	anthropic: "https://api.anthropic.com",
};

export interface ProviderConfig {
	provider: ProviderName;
	/** For `openai` this includes the `/v1` part, e.g. `http://localhost:1234/v1`. */
	baseUrl: string;
	model: string;
	apiKey?: string;
	/** How requests are sent; `fetchTransport` when omitted. */
	transport?: Transport;
	/** The request comes from the app (adds `anthropic-dangerous-direct-browser-access`). */
	fromApp?: boolean;
	/** No first byte within this time is a `network` error. Default 60000: local models load slowly. */
	firstByteTimeoutMs?: number;
	/** No new byte for this long mid-stream is a `network` error. Default 60000. */
	stallTimeoutMs?: number;
}

export interface ModelInfo {
	id: string;
	/** The model's context length in tokens, when the server says. */
	contextLength?: number;
}

export type ConnectionKind = "ok" | "unreachable" | "origin_refused" | "auth" | "model_missing" | "error";

/** A plain-language answer to "does this connection work?", with the fix when it does not. */
export interface ConnectionDiagnosis {
	ok: boolean;
	kind: ConnectionKind;
	/** English, for scripts and the terminal; the UI shows `code` with `params` instead. */
	message: string;
	latencyMs?: number;
	/** The finding as data (connectionCodes.ts). */
	code?: ConnectionCode;
	params?: NoticeParams;
	/** The server's or transport's own words, as they came: for a folded "Details". */
	said?: string;
}

/** Kept for callers that name it; `GenerateResult` carries `thinking` itself now. */
export type ProviderGenerateResult = GenerateResult;

export interface ProviderAdapter extends LLMAdapter {
	readonly provider: ProviderName;
	readonly model: string;
	generate(req: GenerateRequest): Promise<ProviderGenerateResult>;
	listModels(signal?: AbortSignal): Promise<ModelInfo[]>;
	/** The model's trained context length, when the server says (Ollama's `/api/show`). */
	modelContextLength(model: string, signal?: AbortSignal): Promise<number | undefined>;
	testConnection(signal?: AbortSignal): Promise<ConnectionDiagnosis>;
	/** The server's count of the prompt `req` would send, where it can count in time (promptCount.ts). */
	countPromptTokens(req: GenerateRequest): Promise<number | undefined>;
}

export const PROVIDER_LABELS: Record<ProviderName, string> = {
	ollama: "Ollama",
	openai: "the OpenAI-compatible server",
	anthropic: "Anthropic",
};

/** The provider's label where it starts a sentence ("The OpenAI-compatible server sent nothing…"). */
export function providerSubject(provider: ProviderName): string {
	const label = PROVIDER_LABELS[provider];
	return label.charAt(0).toUpperCase() + label.slice(1);
}
