// The message under an error's title when the engine's English says something of its own (a model
// to download, an origin to allow, a message too long by so many tokens): rebuilt from the error's
// code and numbers in the person's language. The server's own words stay apart, for "Details".
import type { NoticeParams } from "../../core/notices";
import { errorKind, LLM_ERROR_CODES, type LLMErrorCode } from "../../providers/errors";
import type { ProviderName } from "../../providers/types";
import { t } from "../../i18n";
import { originRefusedText } from "../engine/connectionText";
import { param, providerOf } from "../engine/noticeParams";

type Render = (p: NoticeParams | undefined) => string | undefined;

const API_NOT_FOUND: Record<ProviderName, (p: NoticeParams | undefined) => string> = {
	ollama: (p) => t("error.apiNotFound.ollama", { model: param(p, "model"), origin: param(p, "origin") }),
	openai: (p) => t("error.apiNotFound.openai", { model: param(p, "model"), origin: param(p, "origin") }),
	anthropic: (p) => t("error.apiNotFound.anthropic", { model: param(p, "model"), origin: param(p, "origin") }),
};

/** Undefined where the kind's own advice already says it all. */
const LLM_ERROR_TEXT: Record<LLMErrorCode, Render> = {
	origin_refused: (p) => originRefusedText(p),
	auth_rejected: () => undefined,
	api_not_found: (p) => API_NOT_FOUND[providerOf(p)](p),
	model_missing: (p) => (providerOf(p) === "ollama" ? t("error.modelMissing.ollama", { model: param(p, "model") }) : t("error.modelMissing", { model: param(p, "model") })),
	tools_unsupported: (p) => t("error.toolsUnsupported", { model: param(p, "model") }),
	images_unsupported: (p) => t("error.imagesUnsupported", { model: param(p, "model") }),
	// The kind's advice stands; that the server gave no reason goes under "Details" (codedError).
	no_message: () => undefined,
};

export interface CodedError {
	/** The message in the person's language; undefined keeps the kind's advice. */
	detail?: string;
	/** The server's own words, if the error carried any apart from the engine's English. */
	said?: string;
}

interface CodedFields {
	code?: unknown;
	params?: unknown;
	said?: unknown;
}

/** A provider error whose English is the engine's own (LLMError `code`), as text in the person's language. */
export function codedError(err: unknown): CodedError | undefined {
	if (errorKind(err) === undefined) return undefined;
	const { code, params, said } = err as CodedFields;
	if (typeof code !== "string" || !(LLM_ERROR_CODES as readonly string[]).includes(code)) return undefined;
	const values = typeof params === "object" && params !== null ? (params as NoticeParams) : undefined;
	const detail = LLM_ERROR_TEXT[code as LLMErrorCode](values);
	const words = code === "no_message" ? t("error.noMessage") : typeof said === "string" && said !== "" ? said : undefined;
	return { ...(detail !== undefined ? { detail } : {}), ...(words !== undefined ? { said: words } : {}) };
}

interface SizeFields {
	messageTokens?: unknown;
	maxMessageTokens?: unknown;
	systemPromptTokens?: unknown;
}

const num = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.round(value)) : undefined);

/** A message (or system prompt) too long for the model: what the engine said, from its numbers. */
export function tooLongDetail(code: "message_too_long" | "system_prompt_too_long", err: unknown): string | undefined {
	if (typeof err !== "object" || err === null) return undefined;
	const fields = err as SizeFields;
	const tokens = num(fields.messageTokens);
	const max = num(fields.maxMessageTokens);
	if (tokens === undefined || max === undefined) return undefined;
	if (code === "system_prompt_too_long") return t("error.systemPromptTooLong.detail", { tokens, max });
	const system = num(fields.systemPromptTokens);
	return system !== undefined ? t("error.messageTooLong.systemDetail", { tokens, max, system }) : t("error.messageTooLong.detail", { tokens, max });
}
