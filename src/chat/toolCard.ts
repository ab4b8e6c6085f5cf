import type { ImageRef, McpToolOrigin, ToolApproval, ToolCall, Tool, ToolProgress } from "../core/types";

/** Where a tool call stands, as its card in the panel shows it. */
export type ToolCardState = "input" | "waiting" | "running" | "done" | "failed";

/** One tool call's card: sent as a `tool` ChatEvent every time it changes. */
export interface ToolCard {
	/** The call's id (the key the panel updates a card by). */
	id: string;
	/** The call's position in its answer: 0, 1, … */
	index: number;
	/** The loop's round the call belongs to: 1, 2, … */
	round: number;
	name: string;
	state: ToolCardState;
	/** On `input`: the argument text (JSON, possibly incomplete) received so far. */
	argumentsText?: string;
	/** From `waiting` on: the arguments as read. */
	arguments?: Record<string, unknown>;
	/** On `waiting`: for the person's permission, or for its turn to run. */
	waitingFor?: "permission" | "run";
	/** The tool's access, once the tool is known. */
	access?: "read" | "write";
	/** On `done`: the result as the model sees it. */
	result?: string;
	/** On `failed`: the error as the model sees it (declined, no answer, a throw, bad arguments). */
	error?: string;
	/** An MCP server's tool: the server, the tool's own name and its annotations (hints only). */
	mcp?: McpToolOrigin;
	/** On `running`: the latest progress the tool reported. */
	progress?: ToolProgress;
	/** On `done`: the images the result carried, saved as files (ChatServiceOptions.saveToolImage). */
	images?: ImageRef[];
}

/** Asks the person about a call; see ChatServiceOptions.approve. */
export type ToolApprover = (call: ToolCall, tool: Tool) => Promise<ToolApproval>;

/** Read tools run without asking; write tools are declined unless a caller says otherwise. */
export const defaultApprover: ToolApprover = (_call, tool) => Promise.resolve(tool.access === "read" ? "allow" : "deny");
