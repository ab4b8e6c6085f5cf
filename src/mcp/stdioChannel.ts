// MCP over stdio, desktop only: the server is a child process speaking newline-delimited JSON-RPC.
// Reached only through a dynamic import (see connect.ts), and it requires Node's modules only behind
// the check that Node is there, so nothing on the mobile path touches them. The process gets the
// person's login-shell PATH (a GUI app's PATH lacks npx, uvx, docker), is killed on close, and every
// byte it writes is bounded: stdout by message, stderr into the server's 200-line log.
/* global process, require -- Node globals, present exactly when Platform.isDesktop below is true */
import { startTimer, stopTimer } from "../core/timers";
import { LineSplitter } from "./lineSplitter";
import { loginShellPath } from "./loginPath";
import { describeChars, idOfOversized, MAX_MESSAGE_CHARS, McpError, parseMessages, tooLargeError, type ChannelHandlers, type JsonRpcMessage, type McpChannel } from "./protocol";

type ChildProcess = import("node:child_process").ChildProcess;
type ErrnoException = Error & { code?: string };
type Signals = string;
type ChildProcessModule = typeof import("node:child_process");

const Platform = {
	isDesktop: typeof process !== "undefined" && typeof process.versions === "object" && typeof process.versions.node === "string",
};

/** stderr lines longer than this are cut before they reach the log. */
const MAX_STDERR_LINE = 4096;
/** After close, the process gets this long to exit before it is killed outright. */
const KILL_GRACE_MS = 1500;

export interface StdioConfig {
	command: string;
	args?: string[];
	env?: Record<string, string>;
	/** Server name, for messages. */
	name: string;
	/** Run in this folder (default: the app's). */
	cwd?: string;
	/** Look up the login shell's PATH (default true; tests pass false). */
	loginShell?: boolean;
}

export class StdioChannel implements McpChannel {
	private child: ChildProcess | undefined;
	private handlers: ChannelHandlers | undefined;
	private readonly stdout = new LineSplitter(MAX_MESSAGE_CHARS);
	private readonly stderr = new LineSplitter(MAX_STDERR_LINE);
	private closing = false;
	private lastStderr: string[] = [];

	constructor(private readonly config: StdioConfig) {}

	async start(handlers: ChannelHandlers): Promise<void> {
		if (!Platform.isDesktop) throw new McpError("config", `The MCP server "${this.config.name}" runs a command (stdio), which works only in the desktop app.`);
		this.handlers = handlers;
		// require, not import(): the bundle is CommonJS, and in Obsidian only require reaches Node modules.
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
		const cp = require("node:child_process") as ChildProcessModule;
		const path = this.config.loginShell === false ? undefined : await loginShellPath(cp);
		const env: Record<string, string> = {};
		for (const [k, v] of Object.entries(process.env)) if (typeof v === "string") env[k] = v;
		if (path !== undefined) env.PATH = path;
		Object.assign(env, this.config.env ?? {});
		const child = cp.spawn(this.config.command, this.config.args ?? [], {
			env,
			cwd: this.config.cwd,
			stdio: ["pipe", "pipe", "pipe"],
			windowsHide: true,
			// npx, uvx and the like are .cmd scripts on Windows, which only a shell runs.
			shell: process.platform === "win32",
		});
		this.child = child;
		await new Promise<void>((resolve, reject) => {
			child.once("spawn", () => resolve());
			child.once("error", (err) => reject(this.spawnError(err)));
		});
		child.on("error", (err) => this.handlers?.onLog("error", `Process error: ${err.message}`));
		child.stdin?.on("error", (err) => this.handlers?.onLog("error", `Writing to the server failed: ${err.message}`));
		child.stdout?.setEncoding("utf8");
		child.stderr?.setEncoding("utf8");
		child.stdout?.on("data", (chunk: string) => this.onStdout(chunk));
		child.stderr?.on("data", (chunk: string) => this.onStderr(chunk));
		child.once("exit", (code, signal) => this.onExit(code, signal));
	}

	send(message: JsonRpcMessage): Promise<void> {
		const stdin = this.child?.stdin;
		if (stdin === undefined || stdin === null || stdin.destroyed || this.closing) return Promise.reject(new McpError("closed", `The MCP server "${this.config.name}" is not running.`));
		return new Promise((resolve, reject) => {
			stdin.write(`${JSON.stringify(message)}\n`, (err) => (err ? reject(new McpError("closed", `The MCP server "${this.config.name}" stopped reading its input: ${err.message}`)) : resolve()));
		});
	}

	async close(): Promise<void> {
		const child = this.child;
		if (child === undefined || this.closing) return;
		this.closing = true;
		if (child.exitCode !== null || child.signalCode !== null) return;
		await new Promise<void>((resolve) => {
			const killer = startTimer(() => {
				child.kill("SIGKILL");
				resolve();
			}, KILL_GRACE_MS);
			child.once("exit", () => {
				stopTimer(killer);
				resolve();
			});
			child.stdin?.end();
			child.kill("SIGTERM");
		});
	}

	private spawnError(err: ErrnoException): McpError {
		if (err.code === "ENOENT") {
			return new McpError("config", `The command "${this.config.command}" of the MCP server "${this.config.name}" was not found. Install it, or give its full path in the server's settings.`);
		}
		return new McpError("config", `The MCP server "${this.config.name}" could not be started: ${err.message}`);
	}

	private onStdout(chunk: string): void {
		for (const event of this.stdout.push(chunk)) this.stdoutLine(event);
	}

	private stdoutLine(event: ReturnType<LineSplitter["push"]>[number]): void {
		const h = this.handlers;
		if (h === undefined) return;
		if (event.kind === "oversized") {
			h.onLog("error", `The server sent a message of ${describeChars(event.chars)}, over the ${describeChars(MAX_MESSAGE_CHARS)} limit; it was dropped.`);
			h.onError(tooLargeError(event.chars), idOfOversized(event.head, event.tail));
			return;
		}
		const text = event.text.trim();
		if (text === "") return;
		if (!text.startsWith("{") && !text.startsWith("[")) {
			// A banner or a stray print: not a message, so it is logged, never parsed.
			h.onLog("stdout", text);
			return;
		}
		let messages: JsonRpcMessage[];
		try {
			messages = parseMessages(text, "a line on stdout");
		} catch (err) {
			// It looked like a message and was not: whichever request it answered will never be answered.
			h.onError(err instanceof McpError ? err : new McpError("protocol", String(err)));
			return;
		}
		for (const m of messages) h.onMessage(m);
	}

	private onStderr(chunk: string): void {
		for (const event of this.stderr.push(chunk)) {
			const text = event.kind === "line" ? event.text : `${event.head}… [line of ${describeChars(event.chars)} cut]`;
			if (text.trim() === "") continue;
			this.lastStderr = [...this.lastStderr.slice(-4), text.slice(0, 300)];
			this.handlers?.onLog("stderr", text);
		}
	}

	private onExit(code: number | null, signal: Signals | null): void {
		for (const event of this.stdout.end()) this.stdoutLine(event);
		const how = signal !== null ? `was stopped (${signal})` : `exited with code ${code ?? "unknown"}`;
		const said = this.lastStderr.length > 0 ? ` Its last words on stderr: ${this.lastStderr.join(" | ")}` : "";
		const what = this.closing ? `The MCP server "${this.config.name}" was stopped.` : `The MCP server "${this.config.name}" ${how}.${said}`;
		this.handlers?.onLog(this.closing ? "info" : "error", what);
		this.handlers?.onClose(new McpError("closed", what));
	}
}
