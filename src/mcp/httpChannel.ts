// MCP's Streamable HTTP transport over Discover's injected Transport (Node http on desktop, fetch on
// mobile), with the providers' rules: redirects are never followed (headers would go to another
// host), every body is bounded. It keeps the session id (Mcp-Session-Id), sends the negotiated
// MCP-Protocol-Version, resumes a broken SSE stream with GET and Last-Event-ID after the server's
// `retry`, and falls back to the legacy HTTP+SSE transport when the server answers initialize with
// 400, 404 or 405.
import { createParser } from "eventsource-parser";
import { startTimer, stopTimer } from "../core/timers";
import type { Transport } from "../providers/transport";
import { isRedirect } from "../providers/redirect";
import { drop, errorBody, readBounded } from "./httpRead";
import {
	isResponse,
	MAX_MESSAGE_CHARS,
	McpError,
	parseMessages,
	tooLargeError,
	type ChannelHandlers,
	type JsonRpcMessage,
	type McpChannel,
	type RequestId,
} from "./protocol";

export interface HttpConfig {
	url: string;
	headers?: Record<string, string>;
	/** Server name, for messages. */
	name: string;
	transport: Transport;
	/** Adds headers to each request (an OAuth bearer token) and may answer a 401 (see oauth.ts). */
	auth?: HttpAuth;
}

/** What OAuth plugs in: headers for each request, and a way to earn them when the server says 401/403. */
export interface HttpAuth {
	headers(): Promise<Record<string, string>>;
	/** Called with a 401 or 403; resolves true when the request should be sent once more. */
	unauthorized(response: Response): Promise<boolean>;
}

/** How long to wait before resuming a stream when the server gave no `retry`. */
const DEFAULT_RETRY_MS = 1000;
/** Resumes in a row without a new event before the request fails. */
const MAX_RESUMES = 5;
/** The longest `retry` honoured. */
const MAX_RETRY_MS = 60_000;
/** How long the legacy transport's GET may take to name its endpoint. */
const ENDPOINT_TIMEOUT_MS = 30_000;

interface StreamState {
	lastEventId?: string;
	retryMs?: number;
	resumes: number;
}

export class HttpChannel implements McpChannel {
	private handlers: ChannelHandlers | undefined;
	private sessionId: string | undefined;
	private protocolVersion: string | undefined;
	private legacyEndpoint: string | undefined;
	private readonly closer = new AbortController();
	/** Open streams by the request they answer: released when it settles. */
	private readonly streams = new Map<RequestId, AbortController>();
	private closed = false;

	constructor(private readonly config: HttpConfig) {}

	start(handlers: ChannelHandlers): Promise<void> {
		this.handlers = handlers;
		return Promise.resolve();
	}

	setProtocolVersion(version: string): void {
		this.protocolVersion = version;
	}

	release(id: RequestId): void {
		this.streams.get(id)?.abort();
		this.streams.delete(id);
	}

	async send(message: JsonRpcMessage): Promise<void> {
		if (this.closed) throw new McpError("closed", `The connection to the MCP server "${this.config.name}" is closed.`);
		if (this.legacyEndpoint !== undefined) return this.postLegacy(message);
		const id = "id" in message && !isResponse(message) ? message.id : undefined;
		const signal = this.signalFor(id);
		let response = await this.request(this.config.url, "POST", JSON.stringify(message), signal);
		if ((response.status === 401 || response.status === 403) && this.config.auth !== undefined && (await this.config.auth.unauthorized(response))) {
			response = await this.request(this.config.url, "POST", JSON.stringify(message), signal);
		}
		const session = response.headers.get("mcp-session-id");
		if (session !== null && session !== "") this.sessionId = session;
		const isInitialize = "method" in message && message.method === "initialize";
		if (isInitialize && this.sessionId === undefined && [400, 404, 405].includes(response.status)) {
			drop(response);
			await this.openLegacy();
			return this.postLegacy(message);
		}
		if (!response.ok) throw await this.statusError(response);
		if (response.status === 202 || id === undefined) {
			drop(response);
			return;
		}
		const type = response.headers.get("content-type") ?? "";
		if (type.includes("text/event-stream")) {
			// Read in the background: the answer comes through the session's pending request.
			void this.readStream(response, id, { resumes: 0 });
			return;
		}
		const text = await readBounded(response, MAX_MESSAGE_CHARS, tooLargeError);
		if (text.trim() === "") throw new McpError("protocol", `The MCP server "${this.config.name}" answered with an empty body.`);
		for (const m of parseMessages(text, "a reply")) this.handlers?.onMessage(m);
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		this.closer.abort();
		for (const c of this.streams.values()) c.abort();
		this.streams.clear();
		if (this.sessionId !== undefined && this.legacyEndpoint === undefined) {
			// Tell the server the session is over; a server that ignores it costs a second at most.
			const done = new AbortController();
			const timer = startTimer(() => done.abort(), 1000);
			try {
				drop(await this.config.transport(this.config.url, { method: "DELETE", headers: await this.headers(), signal: done.signal }));
			} catch {
				// Best effort.
			} finally {
				stopTimer(timer);
			}
		}
	}

	private signalFor(id: RequestId | undefined): AbortSignal {
		if (id === undefined) return this.closer.signal;
		const c = new AbortController();
		this.streams.set(id, c);
		return c.signal;
	}

	private async headers(extra: Record<string, string> = {}): Promise<Record<string, string>> {
		const h: Record<string, string> = { ...(this.config.headers ?? {}), ...(await this.config.auth?.headers()), ...extra };
		if (this.sessionId !== undefined) h["mcp-session-id"] = this.sessionId;
		if (this.protocolVersion !== undefined) h["mcp-protocol-version"] = this.protocolVersion;
		return h;
	}

	private async request(url: string, method: "GET" | "POST", body: string | undefined, signal: AbortSignal, extra: Record<string, string> = {}): Promise<Response> {
		const accept = method === "GET" ? "text/event-stream" : "application/json, text/event-stream";
		const headers = await this.headers({ accept, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...extra });
		let response: Response;
		try {
			response = await this.config.transport(url, { method, headers, body, signal });
		} catch (err) {
			if (signal.aborted) throw new McpError("aborted", "The request was stopped.");
			throw new McpError("http", `The MCP server "${this.config.name}" at ${originOf(url)} could not be reached: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500));
		}
		if (isRedirect(response)) {
			drop(response);
			const location = response.type === "opaqueredirect" ? null : response.headers.get("location");
			const where = location !== null ? ` to ${location.slice(0, 200)}` : "";
			throw new McpError("http", `The MCP server "${this.config.name}" at ${originOf(url)} redirected${where}. It was not followed, so nothing (and no header) was sent there. If that is the right address, put it in the server's settings.`, response.status);
		}
		return response;
	}

	private async statusError(response: Response): Promise<McpError> {
		const said = await errorBody(response);
		const words = said !== "" ? `: ${said}` : ".";
		const who = `The MCP server "${this.config.name}"`;
		if (response.status === 401 || response.status === 403) return new McpError("auth", `${who} refused the request (HTTP ${response.status}): it needs a sign-in or a key. Add the header it expects (often Authorization) in the server's settings${words === "." ? "." : `. It said${words}`}`, response.status);
		if (response.status === 404 && this.sessionId !== undefined) return new McpError("closed", `${who} ended the session (HTTP 404). Restart the server to start a new one.`, 404);
		return new McpError("http", `${who} answered HTTP ${response.status}${words}`, response.status);
	}

	/** Reads an SSE response; if it ends before the answer and the server gave event ids, resumes with GET. */
	private async readStream(response: Response, id: RequestId | undefined, state: StreamState): Promise<void> {
		let answered = false;
		let progressed = false;
		let failure: McpError | undefined;
		const parser = createParser({
			maxBufferSize: MAX_MESSAGE_CHARS,
			onEvent: (event) => {
				if (event.id !== undefined) state.lastEventId = event.id;
				progressed = true;
				if (event.data.trim() === "" || (event.event !== undefined && event.event !== "message")) return;
				let messages: JsonRpcMessage[];
				try {
					messages = parseMessages(event.data, "an event");
				} catch (err) {
					failure ??= err as McpError;
					return;
				}
				for (const m of messages) {
					if (isResponse(m) && m.id === id) answered = true;
					this.handlers?.onMessage(m);
				}
			},
			onRetry: (ms) => {
				state.retryMs = Math.min(Math.max(0, ms), MAX_RETRY_MS);
			},
			onError: (err) => {
				if (err.type === "max-buffer-size-exceeded") failure ??= tooLargeError(undefined);
			},
		});
		const body = response.body;
		if (body !== null) {
			const reader = body.getReader();
			const decoder = new TextDecoder("utf-8");
			try {
				while (!answered && failure === undefined) {
					const chunk = await reader.read();
					if (chunk.done) break;
					parser.feed(decoder.decode(chunk.value, { stream: true }));
				}
			} catch {
				// A broken connection: resumable like a clean end.
			} finally {
				reader.cancel().catch(() => undefined);
			}
		}
		if (failure !== undefined) {
			this.handlers?.onError(failure, id);
			return;
		}
		if (answered || id === undefined || this.closed || !this.streams.has(id)) return;
		if (progressed) state.resumes = 0;
		if (state.lastEventId === undefined || state.resumes >= MAX_RESUMES) {
			const why = state.lastEventId === undefined ? "and gave no event id to resume from" : `${MAX_RESUMES} times in a row`;
			this.handlers?.onError(new McpError("protocol", `The MCP server "${this.config.name}" ended its event stream before answering, ${why}.`), id);
			return;
		}
		state.resumes++;
		await this.resume(id, state);
	}

	/**
	 * The standalone GET stream: where a server sends requests not tied to one of ours (the SDK
	 * sends elicitation there). A server without one (405) or a failed GET is simply not listened to.
	 */
	listen(): void {
		if (this.closed || this.legacyEndpoint !== undefined) return;
		void (async () => {
			try {
				const response = await this.request(this.config.url, "GET", undefined, this.closer.signal);
				if (!response.ok) {
					drop(response);
					return;
				}
				await this.readStream(response, undefined, { resumes: 0 });
			} catch {
				// Not listening is the state without this stream: requests tied to a call still arrive on its stream.
			}
		})();
	}

	private async resume(id: RequestId, state: StreamState): Promise<void> {
		const signal = this.streams.get(id)?.signal;
		if (signal === undefined) return;
		await new Promise<void>((resolve) => {
			const timer = startTimer(resolve, state.retryMs ?? DEFAULT_RETRY_MS);
			signal.addEventListener("abort", () => {
				stopTimer(timer);
				resolve();
			});
		});
		if (signal.aborted) return;
		try {
			const response = await this.request(this.config.url, "GET", undefined, signal, { "last-event-id": state.lastEventId ?? "" });
			if (!response.ok) throw await this.statusError(response);
			await this.readStream(response, id, state);
		} catch (err) {
			if (!signal.aborted) this.handlers?.onError(err instanceof McpError ? err : new McpError("http", String(err)), id);
		}
	}

	// The legacy HTTP+SSE transport (protocol 2024-11-05): a GET opens an event stream whose first
	// event, `endpoint`, names where to POST; every answer comes back on that stream.

	private async openLegacy(): Promise<void> {
		const response = await this.request(this.config.url, "GET", undefined, this.closer.signal);
		const type = response.headers.get("content-type") ?? "";
		if (!response.ok || !type.includes("text/event-stream")) {
			const err = await this.statusError(response);
			throw new McpError("http", `The MCP server "${this.config.name}" speaks neither Streamable HTTP nor the older HTTP+SSE transport at ${this.config.url} (${err.message}) Check the URL (often it ends in /mcp or /sse).`, response.status);
		}
		let found: (url: string) => void = () => undefined;
		let failed: (err: McpError) => void = () => undefined;
		const endpoint = new Promise<string>((resolve, reject) => {
			found = resolve;
			failed = reject;
		});
		const timer = startTimer(() => failed(new McpError("timeout", `The MCP server "${this.config.name}" opened an event stream but never said where to send messages (no endpoint event).`)), ENDPOINT_TIMEOUT_MS);
		void this.readLegacy(response, (data) => {
			let url: URL;
			try {
				url = new URL(data.trim(), this.config.url);
			} catch {
				failed(new McpError("protocol", `The MCP server "${this.config.name}" named an endpoint that is not an address.`));
				return;
			}
			// Messages carry the configured headers (keys): they go only to the server's own origin.
			if (url.origin !== new URL(this.config.url).origin) failed(new McpError("protocol", `The MCP server "${this.config.name}" asked for messages to go to another host (${url.origin}); they were not sent.`));
			else found(url.href);
		}, failed);
		try {
			this.legacyEndpoint = await endpoint;
		} finally {
			stopTimer(timer);
		}
		this.handlers?.onLog("info", "The server speaks the older HTTP+SSE transport; using it.");
	}

	private async readLegacy(response: Response, onEndpoint: (data: string) => void, onFail: (err: McpError) => void): Promise<void> {
		let ended: McpError | undefined;
		const parser = createParser({
			maxBufferSize: MAX_MESSAGE_CHARS,
			onEvent: (event) => {
				if (event.event === "endpoint") {
					onEndpoint(event.data);
					return;
				}
				if (event.event !== undefined && event.event !== "message") return;
				try {
					for (const m of parseMessages(event.data, "an event")) this.handlers?.onMessage(m);
				} catch (err) {
					this.handlers?.onError(err as McpError);
				}
			},
			onError: (err) => {
				if (err.type === "max-buffer-size-exceeded") ended ??= tooLargeError(undefined);
			},
		});
		const reader = response.body?.getReader();
		const decoder = new TextDecoder("utf-8");
		try {
			while (reader !== undefined && ended === undefined) {
				const chunk = await reader.read();
				if (chunk.done) break;
				parser.feed(decoder.decode(chunk.value, { stream: true }));
			}
		} catch {
			// Closed or broken: reported below.
		} finally {
			reader?.cancel().catch(() => undefined);
		}
		if (this.closed) return;
		const reason = ended ?? new McpError("closed", `The MCP server "${this.config.name}" closed its event stream.`);
		onFail(reason);
		if (ended !== undefined) this.handlers?.onError(ended);
		this.handlers?.onClose(reason);
	}

	private async postLegacy(message: JsonRpcMessage): Promise<void> {
		const endpoint = this.legacyEndpoint as string;
		const response = await this.request(endpoint, "POST", JSON.stringify(message), this.closer.signal);
		if (!response.ok) throw await this.statusError(response);
		drop(response);
	}
}

function originOf(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return url.slice(0, 100);
	}
}
