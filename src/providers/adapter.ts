import type { GenerateRequest, ToolCall } from "../core/types";
import { answerCharLimit, MAX_METADATA_BYTES } from "./limits";
import { LLMError } from "./errors";
import type { Dialect } from "./dialect";
import { diagnoseConnection } from "./diagnose";
import { redactParams, redactSecret } from "./redact";
import { countPromptTokens } from "./promptCount";
import { offeredTools } from "./toolPrompt";
import { requestJson, scrubError, streamRequest, type RequestContext } from "./request";
import type { ConnectionDiagnosis, ModelInfo, ProviderAdapter, ProviderConfig, ProviderGenerateResult, ProviderName } from "./types";

/** One adapter for every provider: the dialect supplies the wire format, this the behaviour. */
export class HttpAdapter implements ProviderAdapter {
	readonly provider: ProviderName;
	readonly model: string;

	constructor(
		private readonly config: ProviderConfig,
		private readonly ctx: RequestContext,
		private readonly dialect: Dialect,
	) {
		this.provider = config.provider;
		this.model = config.model;
	}

	async generate(req: GenerateRequest): Promise<ProviderGenerateResult> {
		try {
			if (!Number.isInteger(req.contextWindow) || req.contextWindow <= 0 || !Number.isInteger(req.maxTokens) || req.maxTokens <= 0) {
				throw new LLMError("bad_request", "The context window and answer size must be positive whole numbers of tokens.", { provider: this.provider });
			}
			if (this.model.trim() === "") throw new LLMError("bad_request", "No model is chosen yet. Choose one in settings.", { provider: this.provider });
			const call = this.dialect.chatCall(req);
			// A refusal of a request that offered tools may be about them (`toolsUnsupported`).
			let ctx: RequestContext = offeredTools(req.tools) ? { ...this.ctx, sentTools: true } : this.ctx;
			// …and one of a request with images may be about them (`imagesUnsupported`).
			if (req.messages.some((m) => m.images !== undefined && m.images.length > 0)) ctx = { ...ctx, sentImages: true };
			const decoder = this.dialect.decoder(ctx, req, answerCharLimit(req.maxTokens));
			await streamRequest(ctx, {
				url: call.url,
				method: "POST",
				headers: call.headers,
				body: call.body,
				signal: req.signal,
				onResponse: (response) => decoder.begin?.(response),
				onText: (text) => decoder.push(text),
				progress: decoder.progress ? () => decoder.progress?.() ?? 0 : undefined,
			});
			if (req.signal?.aborted) throw new LLMError("aborted", "Stopped.", { provider: this.provider });
			const result = decoder.finish();
			// A server may echo the key inside an answer; it must not be saved or exported.
			result.text = this.redact(result.text);
			if (result.thinking !== undefined) result.thinking = this.redact(result.thinking);
			if (result.toolCalls !== undefined) result.toolCalls = result.toolCalls.map((c) => this.redactCall(c));
			return result;
		} catch (err) {
			throw scrubError(err, { apiKey: this.config.apiKey, provider: this.provider });
		}
	}

	/**
	 * The server's count of the prompt `req` would send, asked at the chat request's own address
	 * (promptCount.ts); undefined where it cannot say within the time limit. Never throws.
	 */
	async countPromptTokens(req: GenerateRequest): Promise<number | undefined> {
		if (this.model.trim() === "") return undefined;
		try {
			return await countPromptTokens(this.ctx, this.dialect.chatCall(req), req.signal);
		} catch {
			// A prompt the dialect cannot write is the send's to report, not the count's.
			return undefined;
		}
	}

	/** A call's arguments hold model text, saved with the session: the key stays out of every string in them. */
	private redactCall(call: ToolCall): ToolCall {
		if (!this.config.apiKey) return call;
		const clean = (value: unknown): unknown => {
			if (typeof value === "string") return this.redact(value);
			if (Array.isArray(value)) return value.map(clean);
			if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.redact(k), clean(v)]));
			return value;
		};
		const out: ToolCall = { ...call, arguments: clean(call.arguments) as Record<string, unknown> };
		if (call.invalidArguments !== undefined) out.invalidArguments = this.redact(call.invalidArguments);
		return out;
	}

	/** The configured key (and any 8+ character run of it) out of text about to be saved. */
	redact(text: string): string {
		return redactSecret(text, this.config.apiKey);
	}

	async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
		try {
			const body = await requestJson(this.ctx, { url: this.dialect.modelsUrl, method: "GET", headers: this.dialect.headers, signal, maxBytes: MAX_METADATA_BYTES });
			return this.dialect.readModels(body);
		} catch (err) {
			throw scrubError(err, { apiKey: this.config.apiKey, provider: this.provider });
		}
	}

	async modelContextLength(model: string, signal?: AbortSignal): Promise<number | undefined> {
		try {
			return await this.dialect.modelContextLength(this.ctx, model, signal);
		} catch (err) {
			throw scrubError(err, { apiKey: this.config.apiKey, provider: this.provider });
		}
	}

	async testConnection(signal?: AbortSignal): Promise<ConnectionDiagnosis> {
		const diagnosis = await diagnoseConnection(this.config, this.ctx, this.dialect, signal);
		const key = this.config.apiKey;
		const said = diagnosis.said === undefined ? {} : { said: redactSecret(diagnosis.said, key) };
		const params = diagnosis.params === undefined ? {} : { params: redactParams(diagnosis.params, key) };
		return { ...diagnosis, message: redactSecret(diagnosis.message, key), ...said, ...params };
	}
}
