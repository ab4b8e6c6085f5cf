import { errorKind, LLMError } from "./errors";
import { MAX_METADATA_BYTES } from "./limits";
import { originRefusedMessage } from "./classify";
import type { Dialect } from "./dialect";
import { offersModel } from "./modelNames";
import { requestJson, type RequestContext } from "./request";
import { loadNodeTransport, type Transport } from "./transport";
import { PROVIDER_LABELS, providerSubject, type ConnectionDiagnosis, type ModelInfo, type ProviderConfig } from "./types";

const now = (): number => (typeof performance !== "undefined" ? performance.now() : Date.now());

function unreachableMessage(config: ProviderConfig, origin: string): string {
	switch (config.provider) {
		case "ollama":
			return `Can't reach Ollama at ${origin}. Is it running? Start the Ollama app, or run \`ollama serve\` in a terminal.`;
		case "openai":
			return `Can't reach the server at ${origin}. Is it running, and does the base URL include /v1 (for example http://localhost:1234/v1 for LM Studio)?`;
		case "anthropic":
			return `Can't reach Anthropic at ${origin}. Check your internet connection.`;
	}
}

function hasModel(config: ProviderConfig, models: readonly ModelInfo[]): boolean {
	return offersModel(config.provider, models, config.model);
}

/**
 * A browser can't tell "nothing listens there" from "the server refused our origin" (both are a
 * failed fetch). On desktop, ask again without an Origin header: if that works, the origin was refused.
 */
async function originWasRefused(ctx: RequestContext, dialect: Dialect, signal?: AbortSignal): Promise<boolean> {
	let node: Transport;
	try {
		node = await loadNodeTransport();
	} catch {
		return false; // Mobile: no Node transport to ask with.
	}
	try {
		await requestJson({ ...ctx, transport: node }, { url: dialect.modelsUrl, method: "GET", headers: dialect.headers, signal, maxBytes: MAX_METADATA_BYTES });
		return true;
	} catch {
		return false;
	}
}

export async function diagnoseConnection(
	config: ProviderConfig,
	ctx: RequestContext,
	dialect: Dialect,
	signal?: AbortSignal,
): Promise<ConnectionDiagnosis> {
	const label = PROVIDER_LABELS[config.provider];
	const subject = providerSubject(config.provider);
	const started = now();
	let models: ModelInfo[];
	try {
		models = dialect.readModels(await requestJson(ctx, { url: dialect.modelsUrl, method: "GET", headers: dialect.headers, signal, maxBytes: MAX_METADATA_BYTES }));
	} catch (err) {
		const kind = errorKind(err);
		const message = err instanceof Error ? err.message : String(err);
		const status = err instanceof LLMError ? err.status : undefined;
		const said = err instanceof LLMError ? err.said : undefined;
		if (kind === "aborted") return { ok: false, kind: "error", message: "Connection test stopped.", code: "stopped" };
		if (config.provider === "ollama" && status === 403 && message.includes("OLLAMA_ORIGINS")) {
			return { ok: false, kind: "origin_refused", message, code: "origin_refused", params: { origin: ctx.origin } };
		}
		if (kind === "network") {
			if (config.provider === "ollama" && config.fromApp && !ctx.sendsNoOrigin && (await originWasRefused(ctx, dialect, signal))) {
				return { ok: false, kind: "origin_refused", message: originRefusedMessage(ctx.origin), code: "origin_refused", params: { origin: ctx.origin } };
			}
			if (/sent nothing for/.test(message)) return { ok: false, kind: "unreachable", message, code: "timed_out", said: message };
			return { ok: false, kind: "unreachable", message: unreachableMessage(config, ctx.origin), code: "unreachable", params: { provider: config.provider, origin: ctx.origin } };
		}
		// The error already says what was rejected and to check the key.
		if (kind === "auth") return { ok: false, kind: "auth", message, code: "auth_rejected", ...(said !== undefined ? { said } : {}) };
		if (kind === "not_found") {
			return {
				ok: false,
				kind: "error",
				message: `${subject} at ${ctx.origin} has no model list where expected (${dialect.modelsUrl}). Check the base URL.`,
				code: "no_model_list",
				params: { origin: ctx.origin, url: dialect.modelsUrl },
			};
		}
		// A server error's message is the server's own words: say whose, and the status.
		return {
			ok: false,
			kind: "error",
			message: status !== undefined && !message.startsWith(subject) ? `${subject} answered with an error (HTTP ${status}): ${message}` : message,
			code: "server_error",
			...(status !== undefined ? { params: { status } } : {}),
			said: message,
		};
	}
	const latencyMs = Math.round(now() - started);
	const available = (): string => `${models.slice(0, 8).map((m) => m.id).join(", ")}${models.length > 8 ? ", …" : ""}`;
	if (config.model.trim() === "") {
		const choose = models.length > 0 ? `Choose a model: ${available()}.` : "Choose a model in settings.";
		return { ok: false, kind: "model_missing", message: `Connected to ${label} in ${latencyMs} ms. ${choose}`, latencyMs, code: "choose_model", params: { provider: config.provider, models: models.length > 0 ? available() : "" } };
	}
	const listed = models.length > 0 || config.provider === "ollama";
	if (listed && !hasModel(config, models)) {
		const fix =
			config.provider === "ollama"
				? `Download it with \`ollama pull ${config.model}\`.`
				: `Available: ${available()}.`;
		const code = config.provider === "ollama" ? "model_not_downloaded" : "model_not_listed";
		return { ok: false, kind: "model_missing", message: `${subject} is running but has no model named "${config.model}". ${fix}`, latencyMs, code, params: { provider: config.provider, model: config.model, models: available() } };
	}
	if (!listed) {
		// Some OpenAI-compatible servers list nothing: say so rather than vouch for the model.
		return {
			ok: true,
			kind: "ok",
			message: `Connected to ${label} in ${latencyMs} ms. It lists no models, so "${config.model}" could not be checked.`,
			latencyMs,
			code: "connected_unlisted",
			params: { provider: config.provider, model: config.model },
		};
	}
	return { ok: true, kind: "ok", message: `Connected to ${label} in ${latencyMs} ms; model "${config.model}" is available.`, latencyMs, code: "connected", params: { provider: config.provider, model: config.model } };
}
