// The plugin's MCP hub: the settings' servers (secrets read from Obsidian's secret storage only as a
// server starts), HTTP through the providers' transport (Node's on desktop, fetch on mobile), OAuth
// sign-ins through the obsidian:// redirect with tokens kept in secret storage. Loaded by a dynamic
// import the first time a chat or the settings tab needs it, never by the plugin's onload.
import { Platform, type App } from "obsidian";
import { McpHub, type HubServer } from "../mcp/hub";
import type { OAuthTokens, RegisteredClient } from "../mcp/oauth";
import { mcpKindOf, resolveMcpServer, type McpServerSetting } from "../settings/mcpServers";
import { secretSlug } from "../settings/mcpPaste";
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
	return `discover-mcp-oauth-${secretSlug(server) || "server"}`;
}

/**
 * The secret the OAuth client Discover registered for a server is kept under:
 * `discover-mcp-oauthclient-<name>`, a prefix no server's token name can take.
 */
export function oauthClientSecretName(server: string): string {
	return `discover-mcp-oauthclient-${secretSlug(server) || "server"}`;
}

/**
 * What a server's OAuth secret holds, read back only for the address it was saved for: a server
 * whose URL changed (by a synced data.json, say) to another host never gets the other's tokens or
 * client secret sent there.
 */
function readBound(app: App, secret: string, serverUrl: string): Record<string, unknown> | undefined {
	const text = app.secretStorage.getSecret(secret);
	if (text === null) return undefined;
	try {
		const parsed = JSON.parse(text) as unknown;
		if (typeof parsed !== "object" || parsed === null) return undefined;
		const record = parsed as Record<string, unknown>;
		return record.serverUrl === serverUrl ? record : undefined;
	} catch {
		return undefined;
	}
}

/** The client an earlier sign-in registered for this server at this address (its secret included), from secret storage. */
export function readRegisteredClient(app: App, server: string, serverUrl: string): RegisteredClient | undefined {
	const record = readBound(app, oauthClientSecretName(server), serverUrl);
	if (record === undefined) return undefined;
	const { registrationEndpoint, client } = record as Partial<RegisteredClient>;
	if (typeof registrationEndpoint !== "string" || typeof client !== "object" || client === null || typeof client.client_id !== "string") return undefined;
	if (client.client_secret !== undefined && typeof client.client_secret !== "string") return undefined;
	return { registrationEndpoint, client };
}

export function saveRegisteredClient(app: App, server: string, serverUrl: string, saved: RegisteredClient): void {
	app.secretStorage.setSecret(oauthClientSecretName(server), JSON.stringify({ serverUrl, ...saved }));
}

export function readTokens(app: App, server: string, serverUrl: string): OAuthTokens | undefined {
	const tokens = readBound(app, oauthSecretName(server), serverUrl)?.tokens;
	return typeof tokens === "object" && tokens !== null && typeof (tokens as OAuthTokens).access_token === "string" ? (tokens as OAuthTokens) : undefined;
}

export function saveTokens(app: App, server: string, serverUrl: string, tokens: OAuthTokens): void {
	app.secretStorage.setSecret(oauthSecretName(server), JSON.stringify({ serverUrl, tokens }));
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
			// Tokens and a client registered once are kept in secret storage, bound to this server's
			// address, and reused with the same authorization server.
			const url = config.url ?? "";
			const registeredClient = readRegisteredClient(host.app, config.name, url);
			return {
				transport: chosen,
				// The app shows a server's forms on the card of the call it asks during (wiring/mcpElicit.ts,
				// the panel's elicit), so it declares elicitation (form mode only). A server that asks
				// outside any call of a chat on screen is declined: nothing answers for the person.
				onElicit: () => Promise.resolve({ action: "decline" }),
				oauth: {
					redirectUrl: OAUTH_REDIRECT_URL,
					clientName: "Discover (Obsidian)",
					authorize: (authorizeUrl) => host.oauthRedirects.authorize(authorizeUrl),
					tokens: readTokens(host.app, config.name, url),
					saveTokens: (tokens) => saveTokens(host.app, config.name, url, tokens),
					...(registeredClient !== undefined ? { registeredClient } : {}),
					saveClient: (saved) => saveRegisteredClient(host.app, config.name, url, saved),
				},
			};
		},
	});
}
