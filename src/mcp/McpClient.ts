// One MCP server, connected: the headless surface's McpClient. Connects lazily (only when asked),
// over stdio (desktop; the Node code loaded on demand) or Streamable HTTP through the injected
// Transport; lists its tools as the engine's tools; closes (and kills a process) on close().
import { fetchTransport, type Transport } from "../providers/transport";
import type { Tool } from "../tools/types";
import { serverKind, type McpServerConfig } from "./config";
import { HttpChannel } from "./httpChannel";
import type { LogLine } from "./log";
import { mcpTools } from "./mcpTools";
import { OAuth, type OAuthOptions } from "./oauth";
import type { ElicitHandler } from "./elicitation";
import { McpError, type McpChannel } from "./protocol";
import { McpSession, type McpProgress, type McpToolInfo, type ServerInfo } from "./session";

export interface McpConnectOptions {
	signal?: AbortSignal;
	/** How HTTP requests are sent (the providers' transport); `fetchTransport` when omitted. */
	transport?: Transport;
	/** stdio only: look up the login shell's PATH (default true). */
	loginShell?: boolean;
	/** HTTP only: sign in with OAuth when the server asks (401/403). Without it, such a server is an `auth` error. */
	oauth?: Omit<OAuthOptions, "serverUrl" | "transport">;
	/** Progress of a running call, by the engine's call id. */
	onProgress?: (callId: string | undefined, progress: McpProgress) => void;
	/** Answers the server's elicitation requests; without it the client declares no elicitation. */
	onElicit?: ElicitHandler;
}

async function channelFor(config: McpServerConfig, opts: McpConnectOptions): Promise<McpChannel> {
	if (serverKind(config) === "http") {
		const transport = opts.transport ?? fetchTransport;
		const url = config.url as string;
		const auth = opts.oauth !== undefined ? new OAuth({ ...opts.oauth, serverUrl: url, transport }) : undefined;
		return new HttpChannel({ url, headers: config.headers, name: config.name, transport, auth });
	}
	// Node's child_process only where stdio is asked for: a dynamic import keeps it off the mobile path.
	const { StdioChannel } = await import("./stdioChannel");
	return new StdioChannel({ command: config.command as string, args: config.args, env: config.env, name: config.name, loginShell: opts.loginShell });
}

export class McpClient {
	readonly name: string;
	private tools: McpToolInfo[] | undefined;

	private constructor(
		readonly config: McpServerConfig,
		readonly session: McpSession,
		private readonly opts: McpConnectOptions,
	) {
		this.name = config.name;
	}

	/** Starts the server (or reaches it) and runs the handshake. Rejects with an McpError saying why. */
	static async connect(config: McpServerConfig, opts: McpConnectOptions = {}): Promise<McpClient> {
		const channel = await channelFor(config, opts);
		const session = new McpSession(channel, { timeoutMs: config.timeoutMs, label: `The MCP server "${config.name}"`, ...(opts.onElicit !== undefined ? { onElicit: opts.onElicit } : {}) });
		const onAbort = (): void => void session.close();
		opts.signal?.addEventListener("abort", onAbort, { once: true });
		try {
			await session.connect(opts.signal);
		} catch (err) {
			await session.close();
			throw err instanceof McpError ? err : new McpError("config", `The MCP server "${config.name}" could not be started: ${String(err)}`);
		} finally {
			opts.signal?.removeEventListener("abort", onAbort);
		}
		return new McpClient(config, session, opts);
	}

	get serverInfo(): ServerInfo | undefined {
		return this.session.serverInfo;
	}

	/** The server's last 200 log lines (its log notifications and stderr), oldest first. */
	logLines(): LogLine[] {
		return this.session.log.all();
	}

	/** The server's tools as listed (cached until `refresh`), before Discover's naming and framing. */
	async serverTools(refresh = false): Promise<McpToolInfo[]> {
		if (this.tools === undefined || refresh) this.tools = await this.session.listTools();
		return this.tools;
	}

	/** The tools as the engine runs them: `<server>__<tool>`, access "write", the turned-off ones left out. */
	async listTools(): Promise<Tool[]> {
		const tools = await this.serverTools();
		return mcpTools(tools, { server: this.name, session: this.session, disabled: this.config.disabledTools, onProgress: this.opts.onProgress });
	}

	/** The server's tool list changed (notifications/tools/list_changed): shown to the person, never obeyed silently. */
	onToolsChanged(listener: () => void): () => void {
		return this.session.onToolsChanged(listener);
	}

	onClose(listener: (reason: McpError) => void): () => void {
		return this.session.onClose(listener);
	}

	ping(signal?: AbortSignal): Promise<unknown> {
		return this.session.ping({ signal });
	}

	async close(): Promise<void> {
		await this.session.close();
	}
}
