// MCP's wire vocabulary as the client needs it: JSON-RPC 2.0 messages, the protocol revisions the
// client speaks, the limits every transport keeps, and McpError, the one error a caller sees.

/** Newest first: the client offers the first and accepts any of them back (2024-11-05 servers still exist). */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export const LATEST_PROTOCOL_VERSION = PROTOCOL_VERSIONS[0];

/** The most characters one message may hold: a 50 MB result is refused with a clear error, not held. */
export const MAX_MESSAGE_CHARS = 8 * 1024 * 1024;
/** A tool call's default time limit (a server's `timeoutMs` overrides it). */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Log lines kept per server (notifications/message and stderr), oldest dropped first. */
export const MAX_LOG_LINES = 200;
/** Characters kept of one log line. */
export const MAX_LOG_LINE_CHARS = 2_000;
/** The most tools a server may list, and the most pages it may take to list them. */
export const MAX_TOOLS = 10_000;
export const MAX_TOOL_PAGES = 200;

export type RequestId = string | number;

export interface JsonRpcRequest {
	jsonrpc: "2.0";
	id: RequestId;
	method: string;
	params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
	jsonrpc: "2.0";
	method: string;
	params?: Record<string, unknown>;
}

export interface JsonRpcError {
	code: number;
	message: string;
	data?: unknown;
}

export interface JsonRpcResponse {
	jsonrpc: "2.0";
	id: RequestId | null;
	result?: unknown;
	error?: JsonRpcError;
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export type McpErrorKind =
	/** The server did not answer within the time limit. */
	| "timeout"
	/** The person stopped the call. */
	| "aborted"
	/** The connection or the process ended. */
	| "closed"
	/** The server answered with a JSON-RPC error. */
	| "server"
	/** The server sent something that is not MCP (bad JSON, a message too large, a wrong version). */
	| "protocol"
	/** The server refused the HTTP request (status, redirect) or could not be reached. */
	| "http"
	/** The server wants a sign-in the client could not complete. */
	| "auth"
	/** The configuration cannot work here (stdio on mobile, no command or url). */
	| "config";

/** Every failure the MCP client reports: plain English, saying what happened and what to do. */
export class McpError extends Error {
	readonly kind: McpErrorKind;
	/** A JSON-RPC error's code, or an HTTP status. */
	readonly code?: number;

	constructor(kind: McpErrorKind, message: string, code?: number) {
		super(message);
		this.name = "McpError";
		this.kind = kind;
		this.code = code;
	}
}

export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A parsed value as a JSON-RPC message, or undefined when it is not one. */
export function asMessage(value: unknown): JsonRpcMessage | undefined {
	if (!isObject(value) || value.jsonrpc !== "2.0") return undefined;
	const hasId = typeof value.id === "string" || typeof value.id === "number";
	if (typeof value.method === "string") {
		if (value.params !== undefined && !isObject(value.params)) return undefined;
		return value as unknown as JsonRpcMessage;
	}
	if ((hasId || value.id === null) && ("result" in value || isObject(value.error))) return value as unknown as JsonRpcResponse;
	return undefined;
}

/** Messages from one JSON text: a message or a batch. Throws McpError("protocol") on anything else. */
export function parseMessages(text: string, where: string): JsonRpcMessage[] {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (err) {
		throw new McpError("protocol", `The MCP server sent ${where} that is not valid JSON (${err instanceof Error ? err.message : String(err)}): ${preview(text)}`);
	}
	const list = Array.isArray(parsed) ? parsed : [parsed];
	const messages: JsonRpcMessage[] = [];
	for (const item of list) {
		const m = asMessage(item);
		if (m === undefined) throw new McpError("protocol", `The MCP server sent ${where} that is not a JSON-RPC 2.0 message: ${preview(text)}`);
		messages.push(m);
	}
	return messages;
}

export function isResponse(m: JsonRpcMessage): m is JsonRpcResponse {
	return !("method" in m);
}

export function isRequest(m: JsonRpcMessage): m is JsonRpcRequest {
	return "method" in m && "id" in m && (typeof m.id === "string" || typeof m.id === "number");
}

/** The start of untrusted text, on one line, for an error message. */
export function preview(text: string, max = 200): string {
	const flat = text.slice(0, max * 2).replace(/\s+/g, " ").trim();
	return flat.length > max ? `"${flat.slice(0, max)}…"` : `"${flat}"`;
}

export function describeChars(n: number): string {
	return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} bytes`;
}

/** The id of a message too large to hold, from its first and last few kilobytes (servers put `id` first or last). */
export function idOfOversized(head: string, tail: string): RequestId | undefined {
	const first = /^\s*\{[^{}]*?"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")/.exec(head);
	const last = /"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail);
	const raw = first?.[1] ?? last?.[1];
	if (raw === undefined) return undefined;
	try {
		return JSON.parse(raw) as RequestId;
	} catch {
		return undefined;
	}
}

/** What a too-large message is called in the error a call gets. */
export function tooLargeError(chars: number | undefined): McpError {
	const size = chars !== undefined ? ` (${describeChars(chars)} so far)` : "";
	return new McpError("protocol", `The MCP server sent a message larger than ${describeChars(MAX_MESSAGE_CHARS)}${size}, so it was cut off and dropped. Ask for less at a time (a smaller range, a filter, a page).`);
}

/** The channel a session speaks through: stdio or HTTP. */
export interface ChannelHandlers {
	onMessage(message: JsonRpcMessage): void;
	/** A failure tied to one request (its response was too large, its stream broke), or to all when `id` is absent. */
	onError(error: McpError, id?: RequestId): void;
	/** The channel is gone for good (the process exited, the connection was refused). */
	onClose(reason: McpError): void;
	/** A line for the server's log: stderr, stray stdout, transport notes. */
	onLog(level: string, text: string): void;
}

export interface McpChannel {
	start(handlers: ChannelHandlers): Promise<void>;
	/** Sends one message; rejects when it could not be delivered (that request then fails). */
	send(message: JsonRpcMessage): Promise<void>;
	/** After initialize: the negotiated version (HTTP sends it as a header on every request). */
	setProtocolVersion?(version: string): void;
	/** The request is settled (answered, stopped, timed out): whatever is still open for it can go. */
	release?(id: RequestId): void;
	/** HTTP: opens the stream on which the server sends requests of its own (elicitation), if it has one. */
	listen?(): void;
	close(): Promise<void>;
}
