// The seam between the MCP servers the person runs (the hub: settings, lifecycle, restarts) and the
// chat loop (which offers their tools to the model turn by turn). The hub implements McpToolSource;
// the engine only ever sees this interface, so it runs headless against a fake or a real McpClient.
import type { OutsideToolSource, ToolSourceProblem } from "../core/types";
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
export type McpToolProblem = ToolSourceProblem;

/** The MCP tools for one turn (the shape the chat loop asks for; see OutsideToolSource). */
export type McpToolSource = OutsideToolSource;
