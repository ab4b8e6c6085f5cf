// The engine's shared vocabulary: what chat, providers and sessions all speak. It sits below all
// three, so imports point one way (into here), and it imports nothing from the project (tests/lint/
// imports.test.ts holds both). Nothing in the engine imports 'obsidian': it runs headless in Node.

/** `tool` messages carry a tool's result back to the model; they follow the assistant message that called it. */
export type Role = "system" | "user" | "assistant" | "tool";

/** A tool the model may call: its name, what it does, and its arguments as a JSON Schema (`type: "object"`). */
export interface ToolSpec {
	name: string;
	description: string;
	parameters: Record<string, unknown>;
}

/** A tool the engine can run for the model: its spec, whether it reads or writes, and how to run it. */
export interface Tool extends ToolSpec {
	/** Read tools run without asking by default; write tools ask every time. */
	access: "read" | "write";
	/** The result as text for the model. A throw becomes an error result for the model; the turn goes on. */
	run(args: Record<string, unknown>, ctx: ToolRunCtx): Promise<string>;
	/** Set on a tool an MCP server gives: whose it is, for the card and the permission rules. */
	mcp?: McpToolOrigin;
}

/** What a tool's `run` is handed. */
export interface ToolRunCtx {
	signal: AbortSignal;
	/** The call this run answers: undo records and cards are found by it. */
	callId?: string;
	/** A long call's progress (an MCP server's notifications/progress), shown on its card. */
	onProgress?: (progress: ToolProgress) => void;
	/** Images the result carries, for a model that takes images (base64, no `data:` prefix). */
	onImages?: (images: PromptImage[]) => void;
}

/** A running call's progress as its server reports it: `progress` of `total` (when known), and a message. */
export interface ToolProgress {
	progress: number;
	total?: number;
	message?: string;
}

/**
 * Where an MCP tool comes from: the server (as the person named it), the tool's own name there, and
 * the server's annotations, shown on the card as hints and never trusted to skip asking.
 */
export interface McpToolOrigin {
	server: string;
	tool: string;
	title?: string;
	annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean; title?: string };
}

/** The person's answer to a call: allow it, or decline it (with a reason the model is told). */
export type ToolApproval = "allow" | "deny" | { deny: string };

/** A call the model asked for. */
export interface ToolCall {
	/**
	 * The call's id. From the adapter: the server's id (Ollama may send none: the adapter makes one).
	 * Once the turn loop takes the call, the engine's own id, unique across chats (the journal, the
	 * cards, Revert and the saved records go by it), and the server's id moves to `serverId`.
	 * Chats saved before engine ids hold the server's id here, unique only within its answer.
	 */
	id: string;
	/** The server's id for the call: only ever sent back to the server (each dialect's result id). */
	serverId?: string;
	name: string;
	/** The arguments, parsed; `{}` when the model sent none (or `""`), and when they could not be read. */
	arguments: Record<string, unknown>;
	/**
	 * Set when the model's argument text was not a JSON object (malformed, cut short, an array…):
	 * the raw text and the parse error, ready to go back to the model as the call's error result.
	 * `arguments` is then `{}`. Never a crash: the turn goes on.
	 */
	invalidArguments?: string;
}

/** An image as sent to a model: base64 bytes (no `data:` prefix) and their type ("image/png"). */
export interface PromptImage {
	mediaType: string;
	data: string;
}

/**
 * An image a message carries, as a session stores it: a file in the vault (never its bytes, so a
 * session file stays small and text-only), with the size it was sent at (what its tokens are
 * estimated from).
 */
export interface ImageRef {
	/** The file's path, relative to the store the engine reads images through. */
	path: string;
	mediaType: string;
	width: number;
	height: number;
	bytes: number;
}

/** How images are priced in tokens: OpenAI's 512-px tiles, Anthropic's area, or a fixed count per image (Ollama). */
export type ImageTokenRule = "tiles" | "area" | { perImage: number };

/** A message as sent to a model. */
export interface PromptMessage {
	role: Role;
	content: string;
	/** On `user` messages: images sent with the text, in order (each dialect puts them in its own form). */
	images?: PromptImage[];
	/**
	 * On `user` messages inside the engine: the images by reference. The engine counts them in the
	 * budget and reads them into `images` just before sending; adapters read only `images`.
	 */
	attachments?: ImageRef[];
	/** On `assistant` messages: the calls the model made, in order, after its text. */
	toolCalls?: ToolCall[];
	/** On `tool` messages: the id of the call this is the result of. */
	toolCallId?: string;
	/** On `tool` messages: the tool's name. */
	name?: string;
	/** On `tool` messages: the result is an error (the tool threw, was denied, or the arguments were invalid). */
	isError?: boolean;
}

/** A message as stored in a session. */
export interface ChatMessage {
	id: string;
	role: Role;
	content: string;
	/** On `assistant` messages: the calls the model made, in order, after its text. */
	toolCalls?: ToolCall[];
	/** On `tool` messages: the id of the call this is the result of. */
	toolCallId?: string;
	/** On `tool` messages: the tool's name. */
	name?: string;
	/** On `tool` messages: the result is an error. */
	isError?: boolean;
	/** On `tool` messages of an MCP server's tool: whose tool it was, so a reloaded card still names its server. */
	mcp?: McpToolOrigin;
	/** On `user` messages: the images the person attached, by reference (files in the chats folder's attachments). */
	attachments?: ImageRef[];
	/** ISO 8601 timestamp. */
	createdAt: string;
	/** The answer was stopped by the person; `content` is the partial answer. */
	cancelled?: boolean;
	/**
	 * The app stopped (a crash, a killed app, a dead battery) while this answer streamed: `content`
	 * is the partial answer as last checkpointed. Treated like a stopped answer.
	 */
	interrupted?: boolean;
	/** The turn failed; a short, key-free description of why. */
	error?: string;
	/**
	 * Only on the `system` summary at index 0: the id of the last transcript message the summary
	 * covers. Messages after it are sent verbatim.
	 */
	summaryOf?: string;
	/**
	 * Only on answers: the model's thinking, shown apart from the answer. Never sent back to a
	 * model, not counted in the history budget, left out of exports unless asked for.
	 */
	thinking?: string;
	/** How long the model thought before it began the answer, in milliseconds. */
	thinkingMs?: number;
	/**
	 * Only on answers: what the model was given besides the conversation (the selection, the notes
	 * the person added, the active note, retrieved passages), one entry per source, in prompt order.
	 */
	sources?: SourceFit[];
	/**
	 * Only on answers that end a turn: what the answer cost (tokens, timing, the model), every
	 * request of the turn summed (a tool loop makes several). Absent on older answers.
	 */
	stats?: AnswerStats;
}

/**
 * What one answer cost. Counts are the server's when it reported them, else the engine's
 * estimate; `reported` says which.
 */
export interface AnswerStats {
	/** Tokens the prompts took, every request of the turn summed. */
	promptTokens: number;
	/** Tokens the model wrote (answer, thinking and tool calls), every request summed. */
	answerTokens: number;
	/** Which counts the server reported for every request (true) and which were estimated, in part or whole (false). */
	reported: { prompt: boolean; answer: boolean };
	/**
	 * Of `promptTokens`, those the server said it read from its cache (summed over the requests
	 * that said); absent when none did. Billed at the model's cached-input rate.
	 */
	cachedPromptTokens?: number;
	/**
	 * The server's prompt counts that left out its cached part (cacheCounts.ts set them aside),
	 * summed: `promptTokens` holds the estimate for those requests instead. Absent when none did.
	 */
	promptCountSetAside?: number;
	/** Of `promptTokens`, those the server said it wrote to its cache (Anthropic; billed at 1.25× input); absent when none did. */
	cacheWriteTokens?: number;
	/** From sending the first answered request to its first streamed token (text or thinking), in milliseconds. */
	firstTokenMs?: number;
	/** Streaming time after each request's first token, summed: what tokens per second divide by. */
	streamMs?: number;
	/** From sending the first request (a refused one included) to the end of the last one, in milliseconds. */
	durationMs?: number;
	/** Requests this answer took (1, or one per round of a tool loop). */
	requests: number;
	/** The model that answered. */
	model: string;
	/** The provider (ollama, openai, anthropic), when known. */
	provider?: string;
	/**
	 * The summary requests this turn made before its answer (earlier messages summarized or
	 * condensed to fit the window), apart from the counts above, which are the answer's own. Same
	 * model, billed like any request: the answer's cost and the chat's totals include them. Absent
	 * when the turn summarized nothing (and on older answers).
	 */
	summary?: SummaryStats;
	/**
	 * Chat requests the server refused as too long, each then retried smaller; absent when none.
	 * Not in `requests` and no tokens: hosted APIs do not bill a prompt they reject before reading
	 * it, and a count the server never gave would be a guess. The delay is in `durationMs`.
	 */
	refused?: number;
}

/** What a turn's summary requests cost (AnswerStats.summary); counts as in AnswerStats. */
export interface SummaryStats {
	/** Tokens the summary requests' prompts took, summed. */
	promptTokens: number;
	/** Tokens the summaries took as written, summed. */
	answerTokens: number;
	/** Which counts the server reported for every summary request (true), and which were estimated. */
	reported: { prompt: boolean; answer: boolean };
	/** Summary requests the model answered. */
	requests: number;
}

/** The tier a context source is allocated in: earlier tiers are served first. */
export type ContextSourceKind = "selection" | "note" | "active" | "retrieved";

/** Something sent to the model with a message, under its own heading. */
export interface ContextSource {
	/** Unique within one send: a vault path ("Folder/Note.md"), "selection", … Shown to the model as the path. */
	id: string;
	/** Shown to the model (as the source's heading) and in the chips. */
	name: string;
	text: string;
	/** The allocation tier; default "note". */
	kind?: ContextSourceKind;
	/** The vault index searched only this note's start: it is over the per-note limit, this many MB. */
	indexedInPartOverMb?: number;
}

/** A stretch of a source's text that went into the prompt: `text.slice(start, end)`. */
export interface SentPassage {
	start: number;
	end: number;
	/** The headings above the passage ("Chapter > Section"), "" when none. */
	headingPath: string;
}

/** How much of one source went into a prompt. */
export interface SourceFit {
	id: string;
	name: string;
	/** The whole source, estimated. */
	totalTokens: number;
	/** What went into the prompt (the source's text as sent, without its heading), estimated. */
	sentTokens: number;
	fit: "whole" | "excerpts" | "none";
	/**
	 * Only when `fit` is "excerpts": the character ranges of the source's text that were sent, in
	 * document order, so "the passages that were sent" can be shown later from the note itself.
	 */
	passages?: SentPassage[];
	/** The note came from a vault search that indexed only its start: it is over the per-note limit, this many MB. */
	indexedInPartOverMb?: number;
}

export interface Session {
	id: string;
	title: string;
	createdAt: string;
	updatedAt: string;
	/** The model this chat uses, when one was saved with it; otherwise the settings' model. */
	model?: string;
	/** The agent this chat uses (its note's vault path), when one was saved with it. */
	agent?: string;
	/**
	 * The chat's tools switch, when one was saved with it (a `tools` record): false, its messages go
	 * without tools. Absent (chats from before the switch was saved, new chats): tools on.
	 */
	tools?: boolean;
	/** [system summary?], then user/assistant (and tool result) messages in order. */
	messages: ChatMessage[];
}

export interface Usage {
	/** The whole prompt as the server counted it, the parts it read from its cache included. */
	promptTokens?: number;
	completionTokens?: number;
	/**
	 * Of `promptTokens`, those the server read from its cache of an earlier prompt's prefix
	 * (Anthropic `cache_read_input_tokens`, OpenAI `prompt_tokens_details.cached_tokens`, llama.cpp
	 * `timings.cache_n`, Ollama `prompt_eval_cached_count`). Absent when the server did not say.
	 */
	cachedPromptTokens?: number;
	/** Of `promptTokens`, those written to the cache by this request (Anthropic `cache_creation_input_tokens`, billed above the input rate). */
	cacheWriteTokens?: number;
}

export interface GenerateRequest {
	purpose: "chat" | "summary";
	messages: PromptMessage[];
	/** The most tokens the answer may have. */
	maxTokens: number;
	/** The model's context window in tokens (Ollama's num_ctx). */
	contextWindow: number;
	/** Sampling temperature (0–2; Anthropic's range ends at 1, so it is capped there). Absent: the server's default. */
	temperature?: number;
	signal?: AbortSignal;
	onToken?: (delta: string) => void;
	/** The model's thinking as it streams (a server's thinking field, or `<think>` in the text). */
	onThinking?: (delta: string) => void;
	/**
	 * Everything passed to `onToken` so far was thinking after all (the server's template opened
	 * `<think>` itself, and only `</think>` came): drop it from the answer; it comes to
	 * `onThinking` right after.
	 */
	onTextRetracted?: () => void;
	/** Tools the model may call. Absent or empty: none are offered (and tool messages in the prompt go as plain text). */
	tools?: ToolSpec[];
	/** A tool call's progress as it streams: started, its argument text so far, ended. */
	onToolCall?: (progress: ToolCallProgress) => void;
}

/** How far one streamed tool call has come. */
export interface ToolCallProgress {
	/** `start`: the call began (id and name known); `arguments`: more argument text came; `end`: the call is complete. */
	phase: "start" | "arguments" | "end";
	/** The call's position in this answer: 0, 1, … */
	index: number;
	id: string;
	name: string;
	/** The argument text (JSON, possibly still incomplete) received so far. */
	argumentsText: string;
	/** On `arguments`: the text that just came. */
	delta?: string;
}

export interface GenerateResult {
	text: string;
	usage?: Usage;
	/** The model's thinking, kept apart from the answer text. */
	thinking?: string;
	/** The tools the model called, in order; absent when it called none. */
	toolCalls?: ToolCall[];
	/**
	 * The answer ended at the token limit, not where the model finished: the answer's max_tokens
	 * or, on llama.cpp, the end of the context window (OpenAI-compatible `finish_reason: "length"`).
	 */
	cut?: "length";
}

export interface LLMAdapter {
	generate(req: GenerateRequest): Promise<GenerateResult>;
	/**
	 * Removes secrets (the configured API key) from answer text before the engine saves it. The
	 * engine applies it to every answer it keeps, including one joined from streamed deltas on Stop.
	 */
	redact?(text: string): string;
	/**
	 * The server's own count of the prompt `req` would send, where the server can count (llama.cpp,
	 * Anthropic), within a short time limit; undefined otherwise. Never throws, never generates.
	 */
	countPromptTokens?(req: GenerateRequest): Promise<number | undefined>;
}

/** Every error an adapter throws carries one of these kinds. */
export const LLM_ERROR_KINDS = ["context_overflow", "rate_limit", "auth", "not_found", "bad_request", "server", "network", "protocol", "aborted"] as const;

export type LLMErrorKind = (typeof LLM_ERROR_KINDS)[number];

/** Budget and prompt settings the engine needs. */
export interface ChatSettings {
	/** The model's context window the prompt must fit in, in tokens. */
	maxPromptTokens: number;
	/** Tokens kept free for the answer. Budget B = maxPromptTokens − reservedResponseTokens. */
	reservedResponseTokens: number;
	/** Recent messages sent verbatim before older ones are summarized. */
	recentMessagesToKeep: number;
	/** The window never shrinks below this many recent messages. */
	minRecentMessagesToKeep: number;
	/** System instructions sent first in every prompt. */
	systemPrompt: string;
	/** Rounds of tool calls one turn may make before the model must answer with what it has (default 8). */
	maxToolRounds?: number;
	/** How an image is priced in tokens for this provider (default: the larger of "tiles" and "area"). */
	imageTokens?: ImageTokenRule;
}

export const DEFAULT_CHAT_SETTINGS: ChatSettings = {
	maxPromptTokens: 8192,
	reservedResponseTokens: 512,
	recentMessagesToKeep: 6,
	minRecentMessagesToKeep: 2,
	systemPrompt:
		"You are Discover, a helpful assistant inside Obsidian. Answer in the language of the person's latest message, even when the document is in another language. Answer clearly and concisely. When a document is provided, ground your answers in it and say when it does not contain the answer.",
};

/**
 * Defaults the system prompt had before, newest last. Saved settings that still hold one of them
 * were never edited, so they move to today's default; an edited prompt is the person's and stays.
 */
export const RETIRED_DEFAULT_SYSTEM_PROMPTS: readonly string[] = [
	"You are Discover, a helpful assistant inside Obsidian. Answer clearly and concisely. When a document is provided, ground your answers in it and say when it does not contain the answer.",
];

/** A server that could not give its tools for a turn: the chat goes on without them and says why. */
export interface ToolSourceProblem {
	server: string;
	message: string;
}

/**
 * Tools from outside the engine for one turn (MCP servers, through the hub the wiring hands in).
 * `toolsFor`: the tools of `servers` (an approved agent's `mcp:` list) or, when undefined, of the
 * servers turned on in settings; servers connect lazily, here, never at startup; a server that
 * fails or is desktop-only gives a problem, never an exception; Stop (`signal`) ends the wait.
 * `onToolsChanged`: a server sent notifications/tools/list_changed; the chat shows it at once and
 * uses the new list from its next message. Returns the unsubscribe.
 */
export interface OutsideToolSource {
	toolsFor(servers: readonly string[] | undefined, signal?: AbortSignal): Promise<{ tools: Tool[]; problems: ToolSourceProblem[] }>;
	onToolsChanged?(listener: (server: string) => void): () => void;
}
