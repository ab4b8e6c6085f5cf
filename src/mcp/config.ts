// A server as people write it (Claude Desktop's `mcpServers` entries): command/args/env for stdio,
// url/headers for HTTP; plus Discover's time limit and turned-off tools.
import { httpUrlProblem } from "../core/httpUrl";
import { McpError } from "./protocol";

export interface McpServerConfig {
	name: string;
	command?: string;
	args?: string[];
	env?: Record<string, string>;
	url?: string;
	headers?: Record<string, string>;
	timeoutMs?: number;
	disabledTools?: string[];
}

export type McpServerKind = "stdio" | "http";

/** Which transport a config asks for, or a clear error when it asks for none or both. */
export function serverKind(config: McpServerConfig): McpServerKind {
	const hasCommand = typeof config.command === "string" && config.command.trim() !== "";
	const hasUrl = typeof config.url === "string" && config.url.trim() !== "";
	if (hasCommand && hasUrl) throw new McpError("config", `The MCP server "${config.name}" has both a command and a url; give one.`);
	if (hasCommand) return "stdio";
	if (!hasUrl) throw new McpError("config", `The MCP server "${config.name}" has neither a command (stdio) nor a url (HTTP).`);
	const problem = httpUrlProblem(config.url as string);
	if (problem === "invalid") throw new McpError("config", `The url of the MCP server "${config.name}" is not an address: ${String(config.url).slice(0, 200)}`);
	if (problem === "protocol") throw new McpError("config", `The url of the MCP server "${config.name}" must start with http:// or https://.`);
	return "http";
}
