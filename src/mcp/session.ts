// The MCP client over one channel: JSON-RPC requests with ids, time limits and Stop; initialize with
// version negotiation; tools/list across pages; tools/call with progress; the server's requests
// (ping) and notifications (progress, tools/list_changed, log messages). Every failure is an
// McpError whose message says what to do; nothing a server sends can grow memory without bound.
import { startTimer, stopTimer, type TimerHandle } from "../core/timers";
import { ServerLog } from "./log";
import {
	DEFAULT_TIMEOUT_MS,
	isObject,
	isRequest,
	isResponse,
	LATEST_PROTOCOL_VERSION,
	MAX_TOOL_PAGES,
	MAX_TOOLS,
	McpError,
	PROTOCOL_VERSIONS,
	type JsonRpcMessage,
	type McpChannel,
	type RequestId,
} from "./protocol";
import { checkedElicitResult, parseElicitRequest, type ElicitHandler, type ElicitResult } from "./elicitation";

export interface McpProgress {
	progress: number;
	total?: number;
	message?: string;
}

export interface RequestOptions {
	signal?: AbortSignal;
	/** Overrides the session's limit for this request. */
	timeoutMs?: number;
	/** Asks the server for progress (a progress token) and hands each notification here. */
	onProgress?: (progress: McpProgress) => void;
	/**
	 * Who answers the server's elicitation requests while this request runs (a tool call's card);
	 * used only when the session declared elicitation (`SessionOptions.onElicit`). A form still
	 * open when this request ends (answered, stopped, timed out) is cancelled.
	 */
	onElicit?: ElicitHandler;
}

/** A tool as the server lists it (validated: a name and an object schema). */
export interface McpToolInfo {
	name: string;
	title?: string;
	description: string;
	inputSchema: Record<string, unknown>;
	annotations?: Record<string, unknown>;
}

export interface ServerInfo {
	name: string;
	version: string;
	protocolVersion: string;
	capabilities: Record<string, unknown>;
	instructions?: string;
}

interface Pending {
	method: string;
	resolve: (value: unknown) => void;
	reject: (err: McpError) => void;
	onProgress?: (progress: McpProgress) => void;
	onElicit?: ElicitHandler;
	/** The forms open for this request: ended when it settles. */
	elicitations: Set<AbortController>;
	cleanup: () => void;
}

export interface SessionOptions {
	/** Shown to the server as clientInfo. */
	clientName?: string;
	clientVersion?: string;
	/** Each request's time limit (default 120 s). */
	timeoutMs?: number;
	/** What the error messages call the server ("the MCP server \"github\""). */
	label?: string;
	/**
	 * Answers the server's `elicitation/create` (form mode) when no running request has a handler of
	 * its own (`RequestOptions.onElicit`). Only with it does the client declare the elicitation
	 * capability; without it the request is refused as not supported.
	 */
	onElicit?: ElicitHandler;
}

/** Cancelling and stopping take this long at most, even when the server never answers. */
function abortedError(method: string): McpError {
	return new McpError("aborted", `The ${method} request was stopped.`);
}

export class McpSession {
	readonly log = new ServerLog();
	private readonly pending = new Map<RequestId, Pending>();
	private nextId = 1;
	private closedWith: McpError | undefined;
	private info: ServerInfo | undefined;
	private readonly toolsChanged = new Set<() => void>();
	private readonly closeListeners = new Set<(reason: McpError) => void>();
	private readonly timeoutMs: number;
	private readonly label: string;

	constructor(
		private readonly channel: McpChannel,
		private readonly opts: SessionOptions = {},
	) {
		this.timeoutMs = opts.timeoutMs !== undefined && opts.timeoutMs > 0 ? opts.timeoutMs : DEFAULT_TIMEOUT_MS;
		this.label = opts.label ?? "The MCP server";
	}

	get serverInfo(): ServerInfo | undefined {
		return this.info;
	}

	get closed(): boolean {
		return this.closedWith !== undefined;
	}

	/** `notifications/tools/list_changed`: the caller shows it and decides; nothing is re-listed silently. */
	onToolsChanged(listener: () => void): () => void {
		this.toolsChanged.add(listener);
		return () => this.toolsChanged.delete(listener);
	}

	onClose(listener: (reason: McpError) => void): () => void {
		this.closeListeners.add(listener);
		return () => this.closeListeners.delete(listener);
	}

	/** Starts the channel and runs the initialize handshake. */
	async connect(signal?: AbortSignal): Promise<ServerInfo> {
		await this.channel.start({
			onMessage: (m) => this.receive(m),
			onError: (err, id) => this.failOne(err, id),
			onClose: (reason) => this.shutDown(reason),
			onLog: (level, text) => this.log.add(level, text),
		});
		const result = await this.request(
			"initialize",
			{ protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: this.opts.onElicit !== undefined ? { elicitation: { form: {} } } : {}, clientInfo: { name: this.opts.clientName ?? "discover", version: this.opts.clientVersion ?? "0.1.0" } },
			{ signal },
		);
		if (!isObject(result) || typeof result.protocolVersion !== "string") throw this.fatal(new McpError("protocol", `${this.label} answered initialize without a protocol version.`));
		const version = result.protocolVersion;
		if (!(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
			throw this.fatal(new McpError("protocol", `${this.label} speaks MCP version ${version.slice(0, 40)}, which Discover does not support (it speaks ${PROTOCOL_VERSIONS.join(", ")}). Update the server or Discover.`));
		}
		const server = isObject(result.serverInfo) ? result.serverInfo : {};
		this.info = {
			name: typeof server.name === "string" ? server.name.slice(0, 200) : "",
			version: typeof server.version === "string" ? server.version.slice(0, 100) : "",
			protocolVersion: version,
			capabilities: isObject(result.capabilities) ? result.capabilities : {},
			instructions: typeof result.instructions === "string" ? result.instructions.slice(0, 10_000) : undefined,
		};
		this.channel.setProtocolVersion?.(version);
		await this.notify("notifications/initialized");
		// A server asks for values on its own stream (HTTP's GET), so it is opened only when something can answer.
		if (this.opts.onElicit !== undefined) this.channel.listen?.();
		return this.info;
	}

	/** One request; its result, or an McpError (timeout, Stop, the server's error, the channel closing). */
	request(method: string, params: Record<string, unknown> = {}, opts: RequestOptions = {}): Promise<unknown> {
		if (this.closedWith !== undefined) return Promise.reject(this.closedWith);
		if (opts.signal?.aborted === true) return Promise.reject(abortedError(method));
		const id = this.nextId++;
		const sent = opts.onProgress !== undefined ? { ...params, _meta: { ...(isObject(params._meta) ? params._meta : {}), progressToken: id } } : params;
		return new Promise<unknown>((resolve, reject) => {
			const limit = opts.timeoutMs ?? this.timeoutMs;
			let timer: TimerHandle = undefined;
			const onAbort = (): void => {
				this.settle(id, abortedError(method));
				this.cancel(id, "The person stopped the request.");
			};
			const cleanup = (): void => {
				stopTimer(timer);
				opts.signal?.removeEventListener("abort", onAbort);
			};
			this.pending.set(id, { method, resolve, reject, onProgress: opts.onProgress, onElicit: opts.onElicit, elicitations: new Set(), cleanup });
			opts.signal?.addEventListener("abort", onAbort, { once: true });
			timer = startTimer(() => {
				const seconds = limit % 1000 === 0 ? `${limit / 1000} s` : `${limit} ms`;
				this.settle(id, new McpError("timeout", `${this.label} did not answer ${method} within ${seconds}. It may be stuck or still starting; check its log, then try again or raise its time limit.${this.strayNote()}`));
				this.cancel(id, `No answer within ${seconds}.`);
			}, limit);
			this.channel.send({ jsonrpc: "2.0", id, method, params: sent }).catch((err: unknown) => this.settle(id, asMcpError(err)));
		});
	}

	async notify(method: string, params?: Record<string, unknown>): Promise<void> {
		if (this.closedWith !== undefined) return;
		await this.channel.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
	}

	ping(opts: RequestOptions = {}): Promise<unknown> {
		return this.request("ping", {}, opts);
	}

	/** Every tool across pages, validated; at most MAX_TOOLS. Tools without a name or schema are skipped (and logged). */
	async listTools(opts: RequestOptions = {}): Promise<McpToolInfo[]> {
		const tools: McpToolInfo[] = [];
		const seenCursors = new Set<string>();
		let cursor: string | undefined;
		for (let page = 0; page < MAX_TOOL_PAGES; page++) {
			const result = await this.request("tools/list", cursor !== undefined ? { cursor } : {}, opts);
			if (!isObject(result) || !Array.isArray(result.tools)) throw new McpError("protocol", `${this.label} answered tools/list without a list of tools.`);
			for (const raw of result.tools as unknown[]) {
				const tool = toolInfo(raw);
				if (tool === undefined) {
					this.log.add("warning", `A tool without a valid name or input schema was skipped: ${JSON.stringify(raw)?.slice(0, 200) ?? ""}`);
					continue;
				}
				if (tools.length >= MAX_TOOLS) {
					this.log.add("warning", `The server lists more than ${MAX_TOOLS} tools; only the first ${MAX_TOOLS} are used.`);
					return tools;
				}
				tools.push(tool);
			}
			const next = result.nextCursor;
			if (typeof next !== "string" || next === "") return tools;
			if (seenCursors.has(next)) throw new McpError("protocol", `${this.label} repeated a tools/list cursor, so its list would never end.`);
			seenCursors.add(next);
			cursor = next;
		}
		this.log.add("warning", `The server's tool list took more than ${MAX_TOOL_PAGES} pages; only those were used.`);
		return tools;
	}

	callTool(name: string, args: Record<string, unknown>, opts: RequestOptions = {}): Promise<unknown> {
		return this.request("tools/call", { name, arguments: args }, opts);
	}

	/** Fails every open request and closes the channel. */
	async close(): Promise<void> {
		if (this.closedWith === undefined) this.shutDown(new McpError("closed", `${this.label} connection was closed.`));
		await this.channel.close().catch(() => undefined);
	}

	private strayNote(): string {
		const stray = this.log.all().filter((l) => l.level === "stdout");
		return stray.length > 0 ? ` It wrote ${stray.length} line${stray.length === 1 ? "" : "s"} to stdout that are not JSON-RPC (the first: ${JSON.stringify(stray[0]?.text.slice(0, 120))}); an MCP server must write only JSON-RPC there.` : "";
	}

	private cancel(id: RequestId, reason: string): void {
		// The spec forbids cancelling initialize: the connection is closed instead (McpClient.connect).
		if (id === 1 && this.info === undefined) return;
		// Fire and forget: the call is already freed, whatever the server does with this.
		this.notify("notifications/cancelled", { requestId: id, reason }).catch(() => undefined);
	}

	private settle(id: RequestId, outcome: McpError | { value: unknown }): void {
		const p = this.pending.get(id);
		if (p === undefined) return;
		this.pending.delete(id);
		p.cleanup();
		for (const form of p.elicitations) form.abort();
		this.channel.release?.(id);
		if (outcome instanceof McpError) p.reject(outcome);
		else p.resolve(outcome.value);
	}

	private failOne(err: McpError, id?: RequestId): void {
		if (id !== undefined && this.pending.has(id)) {
			this.settle(id, err);
			return;
		}
		// Not tied to a known request: every open request gets it (a broken message may have been any one's).
		this.log.add("error", err.message);
		for (const key of [...this.pending.keys()]) this.settle(key, err);
	}

	private fatal(err: McpError): McpError {
		this.shutDown(err);
		this.channel.close().catch(() => undefined);
		return err;
	}

	private shutDown(reason: McpError): void {
		if (this.closedWith !== undefined) return;
		this.closedWith = reason;
		for (const key of [...this.pending.keys()]) this.settle(key, reason);
		for (const listener of this.closeListeners) listener(reason);
	}

	private receive(m: JsonRpcMessage): void {
		if (isResponse(m)) {
			if (m.id === null) {
				this.failOne(new McpError("server", `${this.label} reported an error: ${m.error?.message.slice(0, 300) ?? "unknown"}`, m.error?.code));
				return;
			}
			const p = this.pending.get(m.id);
			if (p === undefined) return; // Late (after Stop or a timeout) or unknown: dropped.
			if (m.error !== undefined) {
				const msg = typeof m.error.message === "string" ? m.error.message.slice(0, 500) : "unknown error";
				this.settle(m.id, new McpError("server", `${this.label} refused ${p.method}: ${msg}`, typeof m.error.code === "number" ? m.error.code : undefined));
			} else this.settle(m.id, { value: m.result });
			return;
		}
		if (isRequest(m)) {
			if (m.method === "elicitation/create" && this.opts.onElicit !== undefined) void this.elicit(m.id, m.params, this.opts.onElicit);
			else this.answer(m.id, m.method);
			return;
		}
		this.notification(m.method, m.params ?? {});
	}

	/**
	 * A server's request for values, shown by the handler of the newest running request that has one
	 * (the tool call it belongs to: a server asks while it works on a call), else the session's. The
	 * person answers, declines or cancels; an answer that does not fit the schema is sent as a
	 * cancel; a form Discover cannot show is declined. It is cancelled when its request ends, when
	 * the session closes, and after the session's time limit.
	 */
	private async elicit(id: RequestId, params: unknown, fallback: ElicitHandler): Promise<void> {
		const request = parseElicitRequest(params);
		if (typeof request === "string") {
			this.channel.send({ jsonrpc: "2.0", id, error: { code: -32602, message: request } }).catch(() => undefined);
			return;
		}
		if (request.unsupported !== undefined) this.log.add("warning", `The server asked for a form Discover cannot show, so it was declined: ${request.unsupported}`);
		const owner = [...this.pending.values()].filter((p) => p.onElicit !== undefined).pop();
		const handler = owner?.onElicit ?? fallback;
		const stop = new AbortController();
		owner?.elicitations.add(stop);
		const off = this.onClose(() => stop.abort());
		const timer = startTimer(() => stop.abort(), this.timeoutMs);
		let result: ElicitResult;
		try {
			result = checkedElicitResult(request, await untilAborted(handler(request, stop.signal), stop.signal));
		} catch {
			result = { action: "cancel" };
		} finally {
			off();
			stopTimer(timer);
			owner?.elicitations.delete(stop);
		}
		if (this.closed) return;
		this.channel.send({ jsonrpc: "2.0", id, result }).catch(() => undefined);
	}

	/** The server's requests: ping is answered; the rest are capabilities the client did not declare. */
	private answer(id: RequestId, method: string): void {
		const reply: JsonRpcMessage =
			method === "ping" ? { jsonrpc: "2.0", id, result: {} } : { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: the client does not support ${method.slice(0, 100)}` } };
		this.channel.send(reply).catch(() => undefined);
	}

	private notification(method: string, params: Record<string, unknown>): void {
		if (method === "notifications/progress") {
			const token = params.progressToken;
			const p = typeof token === "string" || typeof token === "number" ? this.pending.get(token) : undefined;
			if (p?.onProgress !== undefined && typeof params.progress === "number") {
				p.onProgress({
					progress: params.progress,
					total: typeof params.total === "number" ? params.total : undefined,
					message: typeof params.message === "string" ? params.message.slice(0, 500) : undefined,
				});
			}
			return;
		}
		if (method === "notifications/tools/list_changed") {
			this.log.add("info", "The server says its list of tools changed.");
			for (const listener of this.toolsChanged) listener();
			return;
		}
		if (method === "notifications/message") {
			const level = typeof params.level === "string" ? params.level : "info";
			const data = typeof params.data === "string" ? params.data : JSON.stringify(params.data ?? null).slice(0, 4000);
			const logger = typeof params.logger === "string" ? `${params.logger.slice(0, 60)}: ` : "";
			this.log.add(level, logger + data);
		}
		// notifications/cancelled and others: nothing to do.
	}
}

/** The handler's answer, or a rejection as soon as `signal` aborts (a handler that ignores it cannot hold the answer). */
function untilAborted<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) return Promise.reject(new Error("aborted"));
	return new Promise<T>((resolve, reject) => {
		const onAbort = (): void => reject(new Error("aborted"));
		signal.addEventListener("abort", onAbort, { once: true });
		void answer.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
	});
}

function toolInfo(raw: unknown): McpToolInfo | undefined {
	if (!isObject(raw) || typeof raw.name !== "string" || raw.name === "" || raw.name.length > 200) return undefined;
	const schema = raw.inputSchema;
	if (!isObject(schema)) return undefined;
	return {
		name: raw.name,
		title: typeof raw.title === "string" ? raw.title.slice(0, 200) : undefined,
		description: typeof raw.description === "string" ? raw.description : "",
		inputSchema: schema,
		annotations: isObject(raw.annotations) ? raw.annotations : undefined,
	};
}

export function asMcpError(err: unknown): McpError {
	if (err instanceof McpError) return err;
	const message = err instanceof Error ? err.message : String(err);
	return new McpError("http", `The MCP server could not be reached: ${message.slice(0, 300)}`);
}
