import { errorKind } from "../../providers/errors";
import { t } from "../../i18n";
import { codedError, tooLongDetail } from "./errorDetail";

/** What the panel shows for a failed turn. */
export interface Diagnosis {
	/** One short line: what happened. */
	title: string;
	/** The one message under the title: what to do about it (or, when that is all there is, the provider's words). */
	detail: string;
	/** The provider's or transport's own words, shown folded under "Details" (never the message itself). */
	said?: string;
	/** Whether sending the same text again can help. */
	retryable: boolean;
	/** The text was never sent: it belongs back in the input. */
	unsent: boolean;
	/** Worth asking the provider for a connection diagnosis (server down, origin refused...). */
	probeConnection: boolean;
}

interface ErrorLike {
	message?: unknown;
	code?: unknown;
}

function messageOf(err: unknown): string {
	if (typeof err === "object" && err !== null) {
		const { message } = err as ErrorLike;
		if (typeof message === "string") return message;
	}
	return typeof err === "string" ? err : "";
}

function chatErrorCode(err: unknown): string | undefined {
	if (typeof err !== "object" || err === null) return undefined;
	const { code } = err as ErrorLike;
	return typeof code === "string" ? code : undefined;
}

/** Turns an engine or provider error into plain language. Never includes secrets: adapters strip them. */
export function diagnose(err: unknown): Diagnosis {
	const coded = codedError(err);
	// An error in the engine's own English says nothing the coded text does not: only the server's words stay.
	const said = coded !== undefined ? (coded.said ?? "") : messageOf(err);
	const code = chatErrorCode(err);
	if (code === "message_too_long" || code === "system_prompt_too_long") {
		const title = code === "message_too_long" ? t("error.messageTooLong") : t("error.systemPromptTooLong");
		return { title, detail: tooLongDetail(code, err) ?? said, retryable: false, unsent: true, probeConnection: false };
	}
	if (code === "storage") {
		// The engine's English wraps the system's words; only those go under "Details".
		const cause = (err as { cause?: unknown }).cause;
		const said = cause instanceof Error ? cause.message : typeof cause === "string" ? cause : messageOf(err);
		return { title: t("error.storage"), ...withSaid(coded?.detail ?? t("error.storage.advice"), said), retryable: false, unsent: true, probeConnection: false };
	}
	if (code === "busy") {
		return { title: t("error.busy"), detail: t("error.busy.advice"), retryable: false, unsent: true, probeConnection: false };
	}
	switch (errorKind(err)) {
		case "network":
			return {
				title: t("error.network"),
				// The connection check, when the adapter has one, replaces this with its diagnosis.
				...withSaid(coded?.detail ?? t("error.network.advice"), said),
				retryable: true,
				unsent: false,
				probeConnection: true,
			};
		case "auth":
			return { title: t("error.auth"), ...withSaid(coded?.detail ?? t("error.auth.advice"), said), retryable: true, unsent: false, probeConnection: true };
		case "not_found":
			return { title: t("error.notFound"), ...withSaid(coded?.detail ?? t("error.notFound.advice"), said), retryable: true, unsent: false, probeConnection: true };
		case "context_overflow":
			return {
				title: t("error.overflow"),
				...withSaid(coded?.detail ?? t("error.overflow.advice"), said),
				retryable: true,
				unsent: false,
				probeConnection: false,
			};
		case "rate_limit":
			return { title: t("error.rateLimit"), ...withSaid(coded?.detail ?? t("error.rateLimit.advice"), said), retryable: true, unsent: false, probeConnection: false };
		case "server":
			return { title: t("error.server"), ...withSaid(coded?.detail ?? t("error.server.advice"), said), retryable: true, unsent: false, probeConnection: false };
		case "bad_request":
			// The server's words can be long and are in its language: folded, under advice in the person's.
			return { title: t("error.badRequest"), ...withSaid(coded?.detail ?? t("error.badRequest.advice"), said), retryable: true, unsent: false, probeConnection: false };
		case "protocol":
			return { title: t("error.protocol"), ...withSaid(coded?.detail ?? t("error.protocol.advice"), said), retryable: true, unsent: false, probeConnection: false };
		case "aborted":
			return { title: t("error.stopped"), detail: "", retryable: true, unsent: false, probeConnection: false };
		default:
			return { title: t("error.unknown"), ...withSaid(t("error.server.advice"), said), retryable: true, unsent: false, probeConnection: false };
	}
}

/** The advice as the message; the provider's words, when it gave any, kept apart for "Details". */
function withSaid(advice: string, said: string): { detail: string; said?: string } {
	return said && said !== advice ? { detail: advice, said } : { detail: advice };
}
