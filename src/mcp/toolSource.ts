// The seam between the MCP servers the person runs (the hub: settings, lifecycle, restarts) and the
// chat loop (which offers their tools to the model turn by turn). The hub implements McpToolSource;
// the engine only ever sees this interface, so it runs headless against a fake or a real McpClient.
import type { Tool } from "../tools/types";
import type { LogLine } from "./log";
import type { McpToolInfo } from "./session";

/** Where a server is: shown on its settings row and on a tool card that could not reach it. */
export type McpServerStatus = "disabled" | "idle" | "connecting" | "connected" | "failed" | "desktop-only";

export interface McpServerState {
	name: string;
	kind: "stdio" | "http";
	status: McpServerStatus;
	/** Why it failed (plain words, shown to the person), when status is "failed". */
	error?: string;
	/** Its tools as listed at the last connect (the ones turned off included). */
	tools: readonly McpToolInfo[];
	/** Its last 200 log lines. */
	log: readonly LogLine[];
}

/** A server that could not give its tools for a turn: the chat goes on without them and says why. */
export interface McpToolProblem {
	server: string;
	message: string;
}

export interface McpToolSource {
	/**
	 * The MCP tools for one turn: those of `servers` (an approved agent's `mcp:` list) or, when
	 * undefined, of the servers turned on in settings. Servers connect lazily, here, never at
	 * startup. A server that fails or is desktop-only gives a problem, never an exception; Stop
	 * (`signal`) ends the wait at once.
	 */
	toolsFor(servers: readonly string[] | undefined, signal?: AbortSignal): Promise<{ tools: Tool[]; problems: McpToolProblem[] }>;
	/**
	 * A connected server sent notifications/tools/list_changed: the chat shows it at once and uses
	 * the new list from its next message (never mid-turn). Returns the unsubscribe.
	 */
	onToolsChanged?(listener: (server: string) => void): () => void;
}
