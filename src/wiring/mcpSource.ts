// The chat engine's MCP tool source over the plugin's hub, which is loaded only when a turn needs a
// server: a chat with no MCP server turned on (or an agent naming none) never loads the MCP code.
import type { TurnToolSource } from "../chat/toolSources";
import type { McpServerSetting } from "../settings/mcpServers";
import type { McpHubLoader, McpHubPort } from "../ui/mcpPort";

export function lazyMcpSource(load: McpHubLoader, settings: () => { readonly mcpServers?: readonly McpServerSetting[] }): TurnToolSource {
	const listeners = new Set<(server: string) => void>();
	let hub: McpHubPort | undefined;
	const loaded = async (): Promise<McpHubPort> => {
		if (hub !== undefined) return hub;
		const h = await load();
		if (hub === undefined) {
			hub = h;
			h.onToolsChanged((server) => {
				for (const listener of listeners) listener(server);
			});
		}
		return h;
	};
	return {
		async toolsFor(servers, signal) {
			const none = servers === undefined ? !(settings().mcpServers ?? []).some((s) => s.enabled) : servers.length === 0;
			if (none && hub === undefined) return { tools: [], problems: [] };
			return (await loaded()).toolsFor(servers, signal);
		},
		onToolsChanged(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
	};
}
