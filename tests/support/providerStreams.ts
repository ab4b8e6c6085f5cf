// Provider wire formats for the protocol server: streams built from tokens, the recordings in
// tests/fixtures/providers/, and each dialect's way of failing mid-stream. HTTP error bodies are in
// providerErrors.ts.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Scenario } from "./providerServer";

export type Dialect = "ollama" | "openai" | "anthropic";

export const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };
export const NDJSON_HEADERS = { "content-type": "application/x-ndjson" };
export const JSON_HEADERS = { "content-type": "application/json" };

/** The chat path each dialect posts to, relative to the server root. */
export const CHAT_PATHS: Record<Dialect, string> = {
	ollama: "/api/chat",
	openai: "/v1/chat/completions",
	anthropic: "/v1/messages",
};

/** The base URL an adapter uses against the server (`openai` includes `/v1`). */
export function baseUrlFor(dialect: Dialect, serverUrl: string): string {
	return dialect === "openai" ? `${serverUrl}/v1` : serverUrl;
}

export function loadRecording(name: string): string {
	return readFileSync(fileURLToPath(new URL(`../fixtures/providers/${name}`, import.meta.url)), "utf8");
}

/** Tokens with multibyte characters (2, 3 and 4 bytes in UTF-8), so chunk splits land inside them. */
export const MULTIBYTE_TOKENS = ["Bonjour", " café", " — ", "日本語", " 🎉", " naïve", "\n", "done."];

export interface StreamOptions {
	promptTokens?: number;
	completionTokens?: number;
	thinking?: string[];
	/** End lines with CRLF. */
	crlf?: boolean;
	/** Blank lines before the first event or line. */
	leadingBlankLines?: number;
	/** Leave out the terminator (`done: true`, `[DONE]`/finish_reason, `message_stop`). */
	noTerminator?: boolean;
}

function eol(opts: StreamOptions): string {
	return opts.crlf ? "\r\n" : "\n";
}

/** Ollama `/api/chat` NDJSON, as its API docs show it. */
export function ollamaStream(tokens: readonly string[], opts: StreamOptions = {}): string {
	const nl = eol(opts);
	const at = "2025-10-26T17:15:24.097767Z";
	const lines: string[] = [];
	for (const t of opts.thinking ?? []) {
		lines.push(JSON.stringify({ model: "llama3.2", created_at: at, message: { role: "assistant", content: "", thinking: t }, done: false }));
	}
	for (const t of tokens) lines.push(JSON.stringify({ model: "llama3.2", created_at: at, message: { role: "assistant", content: t }, done: false }));
	if (!opts.noTerminator) {
		lines.push(
			JSON.stringify({
				model: "llama3.2",
				created_at: at,
				message: { role: "assistant", content: "" },
				done_reason: "stop",
				done: true,
				total_duration: 4353619900,
				load_duration: 63915300,
				prompt_eval_count: opts.promptTokens ?? 26,
				prompt_eval_duration: 246847000,
				eval_count: opts.completionTokens ?? tokens.length,
				eval_duration: 4032296000,
			}),
		);
	}
	return nl.repeat(opts.leadingBlankLines ?? 0) + lines.map((l) => l + nl).join("");
}

export interface OpenAIStreamOptions extends StreamOptions {
	/** llama.cpp puts usage on the finish chunk instead of a separate `choices: []` chunk. */
	usageOnFinishChunk?: boolean;
	/** Stop after the finish chunk: no usage chunk, no `[DONE]` (finish_reason alone ends it). */
	noDone?: boolean;
}

/** An OpenAI-compatible `/chat/completions` SSE stream with `stream_options.include_usage`. */
export function openaiStream(tokens: readonly string[], opts: OpenAIStreamOptions = {}): string {
	const nl = eol(opts);
	const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1723031664, model: "gpt-4o-mini" };
	const usage = { prompt_tokens: opts.promptTokens ?? 17, completion_tokens: opts.completionTokens ?? tokens.length, total_tokens: 0 };
	const events: unknown[] = [{ ...base, choices: [{ index: 0, delta: { role: "assistant", content: null }, finish_reason: null }] }];
	for (const t of opts.thinking ?? []) events.push({ ...base, choices: [{ index: 0, delta: { reasoning_content: t }, finish_reason: null }] });
	for (const t of tokens) events.push({ ...base, choices: [{ index: 0, delta: { content: t }, finish_reason: null }] });
	const data = events.map((e) => JSON.stringify(e));
	if (!opts.noTerminator) {
		const finish = { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }], ...(opts.usageOnFinishChunk ? { usage } : {}) };
		data.push(JSON.stringify(finish));
		if (!opts.usageOnFinishChunk && !opts.noDone) data.push(JSON.stringify({ ...base, choices: [], usage }));
		if (!opts.noDone) data.push("[DONE]");
	}
	return nl.repeat(opts.leadingBlankLines ?? 0) + data.map((d) => `data: ${d}${nl}${nl}`).join("");
}

export interface AnthropicStreamOptions extends StreamOptions {
	cacheReadTokens?: number;
	cacheCreationTokens?: number;
}

function sseEvent(name: string, data: unknown, nl: string): string {
	return `event: ${name}${nl}data: ${JSON.stringify(data)}${nl}${nl}`;
}

/** An Anthropic `/v1/messages` SSE stream. */
export function anthropicStream(tokens: readonly string[], opts: AnthropicStreamOptions = {}): string {
	const nl = eol(opts);
	const usage = {
		input_tokens: opts.promptTokens ?? 11,
		cache_creation_input_tokens: opts.cacheCreationTokens ?? 0,
		cache_read_input_tokens: opts.cacheReadTokens ?? 0,
		output_tokens: 1,
	};
	let out = nl.repeat(opts.leadingBlankLines ?? 0);
	out += sseEvent("message_start", { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], model: "claude-test", usage } }, nl);
	let index = 0;
	if (opts.thinking) {
		out += sseEvent("content_block_start", { type: "content_block_start", index, content_block: { type: "thinking", thinking: "" } }, nl);
		for (const t of opts.thinking) out += sseEvent("content_block_delta", { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: t } }, nl);
		out += sseEvent("content_block_delta", { type: "content_block_delta", index, delta: { type: "signature_delta", signature: "c2ln" } }, nl);
		out += sseEvent("content_block_stop", { type: "content_block_stop", index }, nl);
		index++;
	}
	out += sseEvent("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }, nl);
	out += sseEvent("ping", { type: "ping" }, nl);
	for (const t of tokens) out += sseEvent("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: t } }, nl);
	out += sseEvent("content_block_stop", { type: "content_block_stop", index }, nl);
	if (!opts.noTerminator) {
		out += sseEvent("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: opts.completionTokens ?? tokens.length } }, nl);
		out += sseEvent("message_stop", { type: "message_stop" }, nl);
	}
	return out;
}

export function streamFor(dialect: Dialect, tokens: readonly string[], opts: StreamOptions = {}): string {
	switch (dialect) {
		case "ollama":
			return ollamaStream(tokens, opts);
		case "openai":
			return openaiStream(tokens, opts);
		case "anthropic":
			return anthropicStream(tokens, opts);
	}
}

export function headersFor(dialect: Dialect): Record<string, string> {
	return dialect === "ollama" ? NDJSON_HEADERS : SSE_HEADERS;
}

/** A streaming scenario for `dialect`. */
export function streamScenario(dialect: Dialect, tokens: readonly string[], opts: StreamOptions = {}, extra: Scenario = {}): Scenario {
	return { headers: headersFor(dialect), body: streamFor(dialect, tokens, opts), ...extra };
}

/** Each dialect's way of failing mid-stream, with the provider's message. */
export function midStreamError(dialect: Dialect, tokens: readonly string[], message: string): string {
	switch (dialect) {
		case "ollama":
			// docs/api/errors: an error object on its own line, status unchanged.
			return ollamaStream(tokens, { noTerminator: true }) + `${JSON.stringify({ error: message })}\n`;
		case "openai":
			return openaiStream(tokens, { noTerminator: true }) + `data: ${JSON.stringify({ error: { message, type: "server_error", code: null } })}\n\n`;
		case "anthropic":
			return anthropicStream(tokens, { noTerminator: true }) + sseEvent("error", { type: "error", error: { type: "overloaded_error", message } }, "\n");
	}
}

/** A line that is not JSON, in each dialect's framing. */
export function malformedStream(dialect: Dialect, tokens: readonly string[]): string {
	switch (dialect) {
		case "ollama":
			return ollamaStream(tokens, { noTerminator: true }) + '{"model":"llama3.2","message":{"content":"x"\n' + ollamaStream([]);
		case "openai":
			return openaiStream(tokens, { noTerminator: true }) + 'data: {"choices":[{"delta":{"content":"x"}\n\n' + "data: [DONE]\n\n";
		case "anthropic":
			return anthropicStream(tokens, { noTerminator: true }) + 'event: content_block_delta\ndata: {"type":"content_block_delta",\n\n' + sseEvent("message_stop", { type: "message_stop" }, "\n");
	}
}

/** What the server repeats for ever in an endless stream (Stop tests). */
export function endlessChunk(dialect: Dialect): string {
	switch (dialect) {
		case "ollama":
			return `${JSON.stringify({ model: "llama3.2", message: { role: "assistant", content: " more" }, done: false })}\n`;
		case "openai":
			return `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: " more" }, finish_reason: null }] })}\n\n`;
		case "anthropic":
			return sseEvent("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: " more" } }, "\n");
	}
}

/** The opening of a stream that never ends: headers, some text, then `endlessChunk` repeated. */
export function endlessScenario(dialect: Dialect, intervalMs = 5): Scenario {
	return { ...streamScenario(dialect, ["Once upon a time"], { noTerminator: true }), endless: { repeat: endlessChunk(dialect), intervalMs } };
}
