// Builds the provider adapter the plugin uses: server and key through keyBinding's keyFor (a key
// goes only to the origin it was chosen for), the key's value from secret storage, transport by
// platform.
import { Platform, type App } from "obsidian";
import { createAdapter, fetchTransport, loadNodeTransport, type ProviderAdapter, type ProviderName, type Transport } from "../providers";
import { keyFor, type AgentServerFields, type ServerKey } from "../settings/keyBinding";

/** The settings an adapter depends on (the plugin's settings satisfy it). */
export interface AdapterSettings {
	provider: string;
	baseUrl: string;
	model: string;
	/** The name of the secret holding the API key; empty for none. */
	apiKeySecret?: string;
}

let nodeTransport: Promise<Transport | null> | null = null;

/**
 * On desktop, Node's http sends no browser Origin, so servers that refuse `app://obsidian.md`
 * still stream and stop; it is loaded on first use only. On mobile there are no Node modules: fetch.
 */
export async function pickTransport(): Promise<Transport> {
	if (!Platform.isDesktopApp) return fetchTransport;
	nodeTransport ??= loadNodeTransport().catch(() => null);
	return (await nodeTransport) ?? fetchTransport;
}

/** The server and the secret a request for `settings` (and the chat's agent, if any) may use. */
export function serverKeyFor(settings: AdapterSettings, agent?: AgentServerFields): ServerKey {
	// An unknown provider passes through: createAdapter refuses it with a clear `bad_request`.
	return keyFor({ provider: settings.provider as ProviderName, baseUrl: settings.baseUrl, apiKeySecret: settings.apiKeySecret ?? "" }, agent);
}

/**
 * The API key those requests carry: the secret keyFor allows for that server, read from secret
 * storage; undefined when none is set, the secret is gone, or the server is not the key's own.
 */
export function readApiKey(app: App, settings: AdapterSettings, agent?: AgentServerFields): string | undefined {
	const name = serverKeyFor(settings, agent).secret;
	if (!name) return undefined;
	return app.secretStorage.getSecret(name) ?? undefined;
}

/** The adapter for the settings' server, or for the chat's agent's (`agent`: its server fields). */
export async function createPluginAdapter(app: App, settings: AdapterSettings, agent?: AgentServerFields): Promise<ProviderAdapter> {
	const transport = await pickTransport();
	const server = serverKeyFor(settings, agent);
	return createAdapter({
		provider: server.provider,
		baseUrl: server.baseUrl.trim(),
		model: settings.model.trim(),
		apiKey: readApiKey(app, settings, agent),
		transport,
		fromApp: true,
	});
}

/** Forgets the loaded transport (tests switch platforms between cases). */
export function resetTransportCache(): void {
	nodeTransport = null;
}
