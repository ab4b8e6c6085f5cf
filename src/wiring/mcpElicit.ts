// An MCP server's requests for values (elicitation), bound to the tool call they come during: each
// MCP tool of a turn is handed, with its run, who shows the form (the panel's card for that call).
// The engine is untouched: it runs the tool as it is given; the tool passes the handler to its
// session (src/mcp/mcpTools.ts). Without a panel to show a form, tools are left as they are and the
// hub's own fallback declines. Nothing the server sends through a form reaches a setting or a rule:
// the answer goes only back to the server.
import type { TurnToolSource } from "../chat/toolSources";
import type { Tool } from "../core/types";
import type { McpRunContext } from "../mcp/mcpTools";
import type { ElicitPrompt } from "../ui/toolsPort";

function bound(tool: Tool, prompt: ElicitPrompt): Tool {
	const server = tool.mcp?.server;
	if (server === undefined) return tool;
	return {
		...tool,
		run: (args, ctx) => {
			const withForm: McpRunContext = { ...ctx, onElicit: (request, signal) => prompt({ server, ...(ctx.callId !== undefined ? { callId: ctx.callId } : {}), request }, signal) };
			return tool.run(args, withForm);
		},
	};
}

/** The source's MCP tools, each showing its server's forms through `prompt`. */
export function withElicitation(source: TurnToolSource, prompt: ElicitPrompt | undefined): TurnToolSource {
	if (prompt === undefined) return source;
	return {
		async toolsFor(servers, signal) {
			const { tools, problems } = await source.toolsFor(servers, signal);
			return { tools: tools.map((t) => bound(t, prompt)), problems };
		},
		...(source.onToolsChanged !== undefined ? { onToolsChanged: (listener: (server: string) => void) => source.onToolsChanged!(listener) } : {}),
	};
}
