// The plugin's MCP hub: the settings' servers (secrets read from Obsidian's secret storage only as a
// server starts), HTTP through the providers' transport (Node's on desktop, fetch on mobile), OAuth
// sign-ins through the obsidian:// redirect with tokens kept in secret storage. Loaded by a dynamic
// import the first time a chat or the settings tab needs it, never by the plugin's onload.
import { Platform, type App } from "obsidian";
import { McpHub, type HubServer } from "../mcp/hub";
import type { OAuthTokens, RegisteredClient } from "../mcp/oauth";
import { mcpKindOf, resolveMcpServer, type McpServerSetting } from "../settings/mcpServers";
import { pickTransport } from "./adapterFactory";
import { OAUTH_REDIRECT_URL, type OAuthRedirects } from "./oauthRedirect";
import type { Transport } from "../providers/transport";

export interface McpHubHost {
	readonly app: App;
	readonly settings: { readonly mcpServers?: readonly McpServerSetting[] };
	readonly oauthRedirects: OAuthRedirects;
}

/** The secret an HTTP server's OAuth tokens are kept under: `discover-mcp-oauth-<name>`. */
export function oauthSecretName(server: string): string {
	const slug = server
		.normalize("NFKD")
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, "-")
		.replace(/^-+|-+$/g, "");
	return `discover-mcp-oauth-${slug || "server"}`;
}

/** The secret the OAuth client Discover registered with a server's authorization server is kept under. */
export function oauthClientSecretName(server: string): string {
	return oauthSecretName(server).replace(/^discover-mcp-oauth-/, "discover-mcp-oauth-client-");
}

/** The client an earlier sign-in registered for this server (its secret included), from secret storage. */
export function readRegisteredClient(app: App, server: string): RegisteredClient | undefined {
	const text = app.secretStorage.getSecret(oauthClientSecretName(server));
	if (text === null) return undefined;
	try {
		const parsed = JSON.parse(text) as unknown;
		if (typeof parsed !== "object" || parsed === null) return undefined;
		const { registrationEndpoint, client } = parsed as Partial<RegisteredClient>;
		if (typeof registrationEndpoint !== "string" || typeof client !== "object" || client === null || typeof client.client_id !== "string") return undefined;
		if (client.client_secret !== undefined && typeof client.client_secret !== "string") return undefined;
		return { registrationEndpoint, client };
	} catch {
		return undefined;
	}
}

export function saveRegisteredClient(app: App, server: string, saved: RegisteredClient): void {
	app.secretStorage.setSecret(oauthClientSecretName(server), JSON.stringify(saved));
}

function readTokens(app: App, server: string): OAuthTokens | undefined {
	const text = app.secretStorage.getSecret(oauthSecretName(server));
	if (text === null) return undefined;
	try {
		const parsed = JSON.parse(text) as unknown;
		return typeof parsed === "object" && parsed !== null && typeof (parsed as OAuthTokens).access_token === "string" ? (parsed as OAuthTokens) : undefined;
	} catch {
		return undefined;
	}
}

/** A saved server as the hub sees it; its config (with secret values) is built only when it starts. */
export function hubServerOf(app: App, server: McpServerSetting): HubServer {
	const { disabledTools: _off, enabled: _on, ...runs } = server;
	return {
		name: server.name,
		kind: mcpKindOf(server),
		enabled: server.enabled,
		disabledTools: server.disabledTools,
		fingerprint: JSON.stringify(runs),
		config: () => {
			const resolved = resolveMcpServer(server, (name) => app.secretStorage.getSecret(name));
			return resolved.ok ? resolved.config : `The MCP server "${server.name}" uses the secret "${resolved.missingSecret}", which is not in Obsidian's secret storage. Choose or create it in Settings → MCP servers.`;
		},
	};
}

export async function createPluginMcpHub(host: McpHubHost, transport?: Transport): Promise<McpHub> {
	const chosen = transport ?? (await pickTransport());
	return new McpHub({
		servers: () => (host.settings.mcpServers ?? []).map((s) => hubServerOf(host.app, s)),
		desktop: Platform.isDesktopApp,
		connectOptions: (config) => {
			// A client registered once is kept (its secret in secret storage) and reused with the same authorization server.
			const registeredClient = readRegisteredClient(host.app, config.name);
			return {
				transport: chosen,
				oauth: {
					redirectUrl: OAUTH_REDIRECT_URL,
					clientName: "Discover (Obsidian)",
					authorize: (url) => host.oauthRedirects.authorize(url),
					tokens: readTokens(host.app, config.name),
					saveTokens: (tokens) => host.app.secretStorage.setSecret(oauthSecretName(config.name), JSON.stringify(tokens)),
					...(registeredClient !== undefined ? { registeredClient } : {}),
					saveClient: (saved) => saveRegisteredClient(host.app, config.name, saved),
				},
			};
		},
	});
}
