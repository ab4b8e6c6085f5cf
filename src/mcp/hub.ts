// The MCP servers the person runs, as one McpToolSource for the chat loop: each configured server
// is started (or reached) lazily, the first time a turn needs its tools, never at startup. Each has
// a state for its settings row (disabled, idle, connecting, connected, failed with why, desktop
// only), its tools (the turned-off ones left out of a turn), and its last 200 log lines. A server
// that crashes is reported, and restarted on the next use at most 3 times a minute (Restart in the
// settings starts it again at once). Disable and the plugin's unload end every process. The hub
// reads the servers from its host each time, so settings changed meanwhile take effect: a server
// removed, turned off or changed is stopped before its tools are offered again.
import type { Tool } from "../tools/types";
import { McpClient, type McpConnectOptions } from "./McpClient";
import type { McpServerConfig, McpServerKind } from "./config";
import { ServerLog, type LogLine } from "./log";
import { mcpTools } from "./mcpTools";
import { MAX_LOG_LINES, McpError } from "./protocol";
import type { McpToolInfo } from "./session";
import type { McpServerState, McpToolProblem, McpToolSource } from "./toolSource";

/** Automatic restarts (after a crash or a failed start) allowed within RESTART_WINDOW_MS. */
export const MAX_RESTARTS = 3;
export const RESTART_WINDOW_MS = 60_000;

/** A server as the hub needs it: the settings' entry, with its secrets read only when it starts. */
export interface HubServer {
	name: string;
	kind: McpServerKind;
	/** Off (Disable): never started, for agents neither. */
	enabled: boolean;
	/** Tools the person turned off, by the server's tool name (read at each turn). */
	disabledTools?: readonly string[];
	/** Changes when what the process runs with changes (a running server is then restarted). */
	fingerprint: string;
	/** The client's config, secrets filled in; a string says why it cannot start (a secret missing). */
	config(): McpServerConfig | string;
}

/** What the hub needs of a connected client (McpClient; tests may give another). */
export type HubClient = Pick<McpClient, "session" | "serverTools" | "logLines" | "onClose" | "close"> & Partial<Pick<McpClient, "onToolsChanged">>;

export interface McpHubOptions {
	/** The configured servers, read afresh at each use. */
	servers(): readonly HubServer[];
	/** The desktop app (stdio works); false on mobile, where stdio servers show as desktop only. */
	desktop: boolean;
	/** How a server is reached: McpClient.connect by default. */
	connect?(config: McpServerConfig, opts: McpConnectOptions): Promise<HubClient>;
	/** Transport, OAuth and progress for a server's connection. */
	connectOptions?(config: McpServerConfig): Omit<McpConnectOptions, "signal">;
	now?: () => number;
}

interface Running {
	client: HubClient;
	fingerprint: string;
	unsubscribe: () => void;
}

interface Record {
	status: "idle" | "connecting" | "connected" | "failed";
	error?: string;
	running?: Running;
	connecting?: Promise<HubClient>;
	/** Ends a start in progress (Disable, unload, Restart). */
	abort?: AbortController;
	tools: McpToolInfo[];
	/** The hub's own lines (started, crashed, stopped). */
	log: ServerLog;
	/** The lines of clients that ended, the newest MAX_LOG_LINES. */
	past: LogLine[];
	/** When automatic restarts happened, newest last. */
	restarts: number[];
	/** The next start is automatic (after a crash or failure), and counts against MAX_RESTARTS. */
	automatic: boolean;
}

const key = (name: string): string => name.toLowerCase();
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export class McpHub implements McpToolSource {
	private readonly records = new Map<string, Record>();
	private readonly listeners = new Set<(name: string) => void>();
	private readonly toolListeners = new Set<(server: string) => void>();
	private closed = false;
	private readonly now: () => number;

	constructor(private readonly opts: McpHubOptions) {
		const now = opts.now;
		this.now = now !== undefined ? () => now() : () => Date.now();
	}

	/** Called whenever a server's state changes (its name): the settings rows redraw. */
	onChange(listener: (name: string) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** A running server said its tool list changed (shown in the chat, never obeyed silently). */
	onToolsChanged(listener: (server: string) => void): () => void {
		this.toolListeners.add(listener);
		return () => this.toolListeners.delete(listener);
	}

	/** Every configured server's state, in the settings' order. */
	states(): McpServerState[] {
		return this.opts.servers().map((s) => this.stateOf(s));
	}

	state(name: string): McpServerState | undefined {
		const server = this.find(name);
		return server === undefined ? undefined : this.stateOf(server);
	}

	async toolsFor(servers: readonly string[] | undefined, signal?: AbortSignal): Promise<{ tools: Tool[]; problems: McpToolProblem[] }> {
		await this.sync();
		const configured = this.opts.servers();
		const names = servers ?? configured.filter((s) => s.enabled).map((s) => s.name);
		const problems: McpToolProblem[] = [];
		const tools: Tool[] = [];
		const seen = new Set<string>();
		const work: Promise<void>[] = [];
		for (const name of names) {
			if (seen.has(key(name))) continue;
			seen.add(key(name));
			const server = configured.find((s) => key(s.name) === key(name));
			if (server === undefined) {
				problems.push({ server: name, message: `There is no MCP server named "${name}" in Discover's settings (Settings → MCP servers); its tools are not available.` });
				continue;
			}
			if (!server.enabled) {
				problems.push({ server: server.name, message: `The MCP server "${server.name}" is turned off in Discover's settings; its tools are not available until the person turns it on.` });
				continue;
			}
			if (server.kind === "stdio" && !this.opts.desktop) {
				problems.push({ server: server.name, message: `The MCP server "${server.name}" runs a command on this computer, which works only in Obsidian's desktop app; its tools are not available here.` });
				continue;
			}
			work.push(
				this.toolsOf(server).then(
					(list) => void tools.push(...list),
					(err: unknown) => void problems.push({ server: server.name, message: messageOf(err) }),
				),
			);
		}
		const all = Promise.all(work);
		if (signal === undefined) await all;
		else if (!signal.aborted) {
			// Stop ends the wait at once; the starts go on (or are ended by Disable/unload), harmlessly.
			let onAbort = (): void => undefined;
			const stopped = new Promise<void>((resolve) => {
				onAbort = () => resolve();
				signal.addEventListener("abort", onAbort, { once: true });
			});
			await Promise.race([all, stopped]);
			signal.removeEventListener("abort", onAbort);
		}
		if (signal?.aborted === true) return { tools: [], problems: [...problems, { server: "", message: "Stopped before the MCP servers answered." }] };
		return { tools, problems };
	}

	/** Stops the server (if running) and starts it now; the crash count starts afresh. */
	async restart(name: string): Promise<McpServerState | undefined> {
		const server = this.find(name);
		if (server === undefined) return undefined;
		const record = this.record(server.name);
		record.restarts = [];
		record.automatic = false;
		await this.stopRecord(server.name, record, "Restarted from the settings.");
		if (server.enabled && !(server.kind === "stdio" && !this.opts.desktop)) {
			await this.client(server).catch(() => undefined);
		}
		return this.stateOf(server);
	}

	/** Ends the server's process or session (Disable, or a server removed); it starts again only when used. */
	async stop(name: string): Promise<void> {
		const record = this.records.get(key(name));
		if (record !== undefined) await this.stopRecord(name, record, "Stopped.");
	}

	/** Ends every server (the plugin unloads); the hub starts nothing afterwards. */
	async close(): Promise<void> {
		this.closed = true;
		await Promise.all([...this.records.entries()].map(([name, record]) => this.stopRecord(name, record, "Discover was unloaded.")));
		this.listeners.clear();
		this.toolListeners.clear();
	}

	/** Stops servers that were removed, turned off or changed since they started. */
	async sync(): Promise<void> {
		const configured = new Map(this.opts.servers().map((s) => [key(s.name), s]));
		const stale: Promise<void>[] = [];
		for (const [name, record] of this.records) {
			const server = configured.get(name);
			if (server === undefined) {
				stale.push(this.stopRecord(name, record, "Removed from the settings.").then(() => void this.records.delete(name)));
				continue;
			}
			const running = record.running !== undefined || record.connecting !== undefined;
			if (!running) continue;
			if (!server.enabled) stale.push(this.stopRecord(server.name, record, "Turned off in the settings."));
			else if (record.running !== undefined && record.running.fingerprint !== server.fingerprint) stale.push(this.stopRecord(server.name, record, "Its settings changed; it starts again when next used."));
		}
		await Promise.all(stale);
	}

	private find(name: string): HubServer | undefined {
		return this.opts.servers().find((s) => key(s.name) === key(name));
	}

	private record(name: string): Record {
		let record = this.records.get(key(name));
		if (record === undefined) {
			record = { status: "idle", tools: [], log: new ServerLog(MAX_LOG_LINES, this.now), past: [], restarts: [], automatic: false };
			this.records.set(key(name), record);
		}
		return record;
	}

	private changed(name: string): void {
		for (const listener of this.listeners) listener(name);
	}

	private stateOf(server: HubServer): McpServerState {
		const record = this.records.get(key(server.name));
		const log = this.logOf(record);
		const tools = record?.tools ?? [];
		if (!server.enabled) return { name: server.name, kind: server.kind, status: "disabled", tools, log };
		if (server.kind === "stdio" && !this.opts.desktop) return { name: server.name, kind: server.kind, status: "desktop-only", tools, log };
		const status = record?.status ?? "idle";
		return { name: server.name, kind: server.kind, status, ...(status === "failed" && record?.error !== undefined ? { error: record.error } : {}), tools, log };
	}

	/** The hub's lines and the running client's, oldest first, the newest 200. */
	private logOf(record: Record | undefined): LogLine[] {
		if (record === undefined) return [];
		const lines = [...record.past, ...record.log.all(), ...(record.running?.client.logLines() ?? [])];
		lines.sort((a, b) => a.at - b.at);
		return lines.slice(-MAX_LOG_LINES);
	}

	private async toolsOf(server: HubServer): Promise<Tool[]> {
		const client = await this.client(server);
		const list = await client.serverTools();
		const record = this.record(server.name);
		if (record.tools !== list) {
			record.tools = list;
			this.changed(server.name);
		}
		return mcpTools(list, { server: server.name, session: client.session, disabled: server.disabledTools });
	}

	/** The server's client: the running one, the start in progress, or a new start (lazily, here). */
	private client(server: HubServer): Promise<HubClient> {
		if (this.closed) return Promise.reject(new McpError("closed", `The MCP server "${server.name}" is not available: Discover is shutting down.`));
		const record = this.record(server.name);
		if (record.running !== undefined) return Promise.resolve(record.running.client);
		if (record.connecting !== undefined) return record.connecting;
		if (record.automatic) {
			const now = this.now();
			record.restarts = record.restarts.filter((at) => now - at < RESTART_WINDOW_MS);
			if (record.restarts.length >= MAX_RESTARTS) {
				const wait = Math.max(1, Math.ceil((RESTART_WINDOW_MS - (now - (record.restarts[0] ?? now))) / 1000));
				return Promise.reject(
					new McpError("closed", `The MCP server "${server.name}" stopped ${MAX_RESTARTS} times within a minute, so Discover does not start it again for ${wait} s. ${record.error ?? ""} The person can press Restart in Settings → MCP servers.`.replace(/\s+/g, " ").trim()),
				);
			}
			record.restarts.push(now);
		}
		const connecting = this.start(server, record);
		record.connecting = connecting;
		const clear = (): void => {
			if (record.connecting === connecting) record.connecting = undefined;
		};
		connecting.then(clear, clear);
		return connecting;
	}

	private async start(server: HubServer, record: Record): Promise<HubClient> {
		const config = server.config();
		if (typeof config === "string") {
			this.fail(server.name, record, config);
			throw new McpError("config", config);
		}
		const abort = new AbortController();
		record.abort = abort;
		record.status = "connecting";
		record.error = undefined;
		record.log.add("discover", record.automatic ? "Starting again after it stopped." : "Starting.");
		this.changed(server.name);
		const connect = (c: McpServerConfig, o: McpConnectOptions): Promise<HubClient> => (this.opts.connect ? this.opts.connect(c, o) : McpClient.connect(c, o));
		let client: HubClient;
		try {
			client = await connect(config, { ...(this.opts.connectOptions?.(config) ?? {}), signal: abort.signal });
		} catch (err) {
			if (record.abort === abort) record.abort = undefined;
			// Stopped on purpose (Disable, Restart, unload) while it started: not a failure.
			if (abort.signal.aborted) {
				record.status = "idle";
				this.changed(server.name);
				throw new McpError("closed", `The MCP server "${server.name}" was stopped before it answered.`);
			}
			this.fail(server.name, record, messageOf(err));
			throw err instanceof McpError ? err : new McpError("config", messageOf(err));
		}
		if (record.abort === abort) record.abort = undefined;
		if (abort.signal.aborted || this.closed) {
			await client.close().catch(() => undefined);
			throw new McpError("closed", `The MCP server "${server.name}" was stopped before it answered.`);
		}
		const running: Running = { client, fingerprint: server.fingerprint, unsubscribe: () => undefined };
		const offClose = client.onClose((reason) => this.crashed(server.name, record, running, reason));
		const offTools = client.onToolsChanged?.(() => {
			// The next turn lists them afresh.
			void client.serverTools(true).then((list) => {
				record.tools = list;
				this.changed(server.name);
			}, () => undefined);
			for (const listener of this.toolListeners) listener(server.name);
		});
		running.unsubscribe = () => {
			offClose();
			offTools?.();
		};
		record.running = running;
		record.status = "connected";
		record.automatic = false;
		record.log.add("discover", "Connected.");
		this.changed(server.name);
		return client;
	}

	private fail(name: string, record: Record, why: string): void {
		record.status = "failed";
		record.error = why;
		record.automatic = true;
		record.log.add("error", why);
		this.changed(name);
	}

	/** The connection ended without Discover ending it: a crash, reported; the next use restarts it. */
	private crashed(name: string, record: Record, running: Running, reason: McpError): void {
		if (record.running !== running) return;
		this.keepLog(record, running);
		record.running = undefined;
		this.fail(name, record, `The server stopped: ${reason.message}`);
	}

	/** A client's log lines go into the record's log before the client is let go. */
	private keepLog(record: Record, running: Running): void {
		record.past = [...record.past, ...running.client.logLines()].slice(-MAX_LOG_LINES);
	}

	private async stopRecord(name: string, record: Record, why: string): Promise<void> {
		record.abort?.abort();
		record.abort = undefined;
		const running = record.running;
		const connecting = record.connecting;
		record.running = undefined;
		if (running !== undefined) {
			running.unsubscribe();
			this.keepLog(record, running);
			await running.client.close().catch(() => undefined);
		}
		if (connecting !== undefined) await connecting.then((c) => c.close(), () => undefined).catch(() => undefined);
		if (running !== undefined || connecting !== undefined || record.status !== "idle") {
			record.status = "idle";
			record.error = undefined;
			record.log.add("discover", why);
			this.changed(name);
		}
	}
}
