import { errorKind } from "../../providers/errors";

/** What the panel shows for a failed turn. */
export interface Diagnosis {
	/** One short line: what happened. */
	title: string;
	/** What to do about it, and the provider's own words when it gave any. */
	detail: string;
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
	const said = messageOf(err);
	const code = chatErrorCode(err);
	if (code === "message_too_long") {
		return { title: "Message too long", detail: said, retryable: false, unsent: true, probeConnection: false };
	}
	if (code === "system_prompt_too_long") {
		return { title: "System prompt too long", detail: said, retryable: false, unsent: true, probeConnection: false };
	}
	if (code === "storage") {
		return { title: "Couldn't save your message", detail: withSaid("It is back in the input. Free some space or check the chats folder, then send it again.", said), retryable: false, unsent: true, probeConnection: false };
	}
	if (code === "busy") {
		return { title: "Still answering", detail: "Wait for the current answer or stop it first.", retryable: false, unsent: true, probeConnection: false };
	}
	switch (errorKind(err)) {
		case "network":
			return {
				title: "Can't reach the model server",
				// The adapter's own words already say where and what to check.
				detail: said || "Check that the server is running and the base URL in settings is right.",
				retryable: true,
				unsent: false,
				probeConnection: true,
			};
		case "auth":
			return { title: "The server refused the API key", detail: withSaid("Check the API key in settings.", said), retryable: true, unsent: false, probeConnection: true };
		case "not_found":
			return { title: "Model not found", detail: withSaid("Pick an installed model in settings.", said), retryable: true, unsent: false, probeConnection: true };
		case "context_overflow":
			return {
				title: "Still too long for the model after summarizing",
				detail: withSaid("Start a new chat, turn off the note, or raise the context size in settings.", said),
				retryable: true,
				unsent: false,
				probeConnection: false,
			};
		case "rate_limit":
			return { title: "Rate limited", detail: withSaid("Wait a moment, then retry.", said), retryable: true, unsent: false, probeConnection: false };
		case "server":
			return { title: "The server had a problem", detail: withSaid("Retry in a moment.", said), retryable: true, unsent: false, probeConnection: false };
		case "bad_request":
			return { title: "The server rejected the request", detail: said, retryable: true, unsent: false, probeConnection: false };
		case "protocol":
			return { title: "The answer was cut off or garbled", detail: withSaid("Retry; if it keeps happening, the server may not speak this provider's format.", said), retryable: true, unsent: false, probeConnection: false };
		case "aborted":
			return { title: "Stopped", detail: "", retryable: true, unsent: false, probeConnection: false };
		default:
			return { title: "Something went wrong", detail: said, retryable: true, unsent: false, probeConnection: false };
	}
}

function withSaid(advice: string, said: string): string {
	return said ? `${advice} Details: ${said}` : advice;
}
