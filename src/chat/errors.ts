export type ChatErrorCode =
	/** A turn is already running: one at a time. */
	| "busy"
	/** The message alone does not fit the model's window; nothing was sent or saved. */
	| "message_too_long"
	/** The system prompt alone does not fit the model's window; nothing was sent or saved. */
	| "system_prompt_too_long"
	/** There is nothing to send. */
	| "empty_message"
	/** The session does not exist (deleted, or never created). */
	| "no_session"
	/** The message could not be saved, so it was not sent. */
	| "storage"
	/** Regenerate, edit, continue or a branch switch named a message that is not there (or not of the kind asked). */
	| "no_such_turn";

export interface ChatErrorDetails {
	/** The text the person tried to send: it stays with them (the UI puts it back in the input). */
	text?: string;
	/** For `message_too_long`: the message's estimated size and the most that fits, in tokens. */
	messageTokens?: number;
	maxMessageTokens?: number;
	/** For `message_too_long`: the system prompt's size, when it takes most of the room. */
	systemPromptTokens?: number;
	cause?: unknown;
}

const formatTokens = (n: number): string => Math.max(0, Math.round(n)).toLocaleString("en-US");

/** An error of the chat engine itself (provider errors are LLMError, with a `kind`). */
export class ChatError extends Error {
	readonly code: ChatErrorCode;
	readonly text?: string;
	readonly messageTokens?: number;
	readonly maxMessageTokens?: number;
	readonly systemPromptTokens?: number;

	constructor(code: ChatErrorCode, message: string, details: ChatErrorDetails = {}) {
		super(message);
		this.name = "ChatError";
		this.code = code;
		this.text = details.text;
		this.messageTokens = details.messageTokens;
		this.maxMessageTokens = details.maxMessageTokens;
		if (details.systemPromptTokens !== undefined) this.systemPromptTokens = details.systemPromptTokens;
		if (details.cause !== undefined) (this as { cause?: unknown }).cause = details.cause;
	}

	static busy(): ChatError {
		return new ChatError("busy", "An answer is still being written. Wait for it or stop it first.");
	}

	/** `systemPromptTokens`: named when the system prompt takes most of the room. */
	static tooLong(text: string, messageTokens: number, maxMessageTokens: number, systemPromptTokens?: number): ChatError {
		const because = systemPromptTokens !== undefined ? `, because the system prompt takes about ${formatTokens(systemPromptTokens)}` : "";
		const fix = systemPromptTokens !== undefined ? "Shorten it or the system prompt in Settings → Discover" : "Shorten it";
		return new ChatError(
			"message_too_long",
			`Your message is about ${formatTokens(messageTokens)} tokens; the most this model can take is ` +
				`${formatTokens(maxMessageTokens)} with the current settings${because}. ${fix}, or raise the maximum ` +
				`prompt tokens in settings if the model's context window allows.`,
			{ text, messageTokens, maxMessageTokens, ...(systemPromptTokens !== undefined ? { systemPromptTokens } : {}) },
		);
	}

	/** The system prompt alone is over the prompt budget: no message can be sent until it is shorter. */
	static systemPromptTooLong(text: string, systemPromptTokens: number, promptBudget: number): ChatError {
		return new ChatError(
			"system_prompt_too_long",
			`The system prompt is about ${formatTokens(systemPromptTokens)} tokens, more than the ${formatTokens(promptBudget)} ` +
				`a prompt may have with the current settings. Shorten it in Settings → Discover.`,
			{ text, messageTokens: systemPromptTokens, maxMessageTokens: promptBudget },
		);
	}

	/** The chat could not be created on disk (disk full, no permission): the message was not sent. */
	static storage(text: string, cause: unknown): ChatError {
		const said = cause instanceof Error ? cause.message : String(cause);
		const why = said.length > 300 ? `${said.slice(0, 299)}…` : said;
		return new ChatError("storage", `The chat could not be saved, so your message was not sent: ${why}`, { text, cause });
	}
}

/** Duck-typed like errorKind: errors may cross bundle boundaries, so don't rely on instanceof. */
export function chatErrorCode(err: unknown): ChatErrorCode | undefined {
	if (typeof err !== "object" || err === null || !("code" in err) || !("name" in err) || err.name !== "ChatError") return undefined;
	return typeof err.code === "string" ? (err.code as ChatErrorCode) : undefined;
}
