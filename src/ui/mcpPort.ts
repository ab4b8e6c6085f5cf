// The MCP servers as the settings tab and the chat engine reach them: the plugin's hub (src/mcp/hub.ts),
// loaded on first use. The UI imports only its type, so nothing here loads the MCP client.
import type { McpHub } from "../mcp/hub";

export type McpHubPort = Pick<McpHub, "toolsFor" | "onToolsChanged" | "states" | "state" | "restart" | "stop" | "sync" | "onChange">;

/** Gives the hub, creating it (and loading the MCP code) the first time it is asked for. */
export type McpHubLoader = () => Promise<McpHubPort>;
