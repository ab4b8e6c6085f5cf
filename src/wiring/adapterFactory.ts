// Builds the provider adapter the plugin uses: key from secret storage, transport by platform.
import { Platform, type App } from "obsidian";
import { createAdapter, fetchTransport, loadNodeTransport, type ProviderAdapter, type ProviderName, type Transport } from "../providers";

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
async function pickTransport(): Promise<Transport> {
	if (!Platform.isDesktopApp) return fetchTransport;
	nodeTransport ??= loadNodeTransport().catch(() => null);
	return (await nodeTransport) ?? fetchTransport;
}

/** The API key named by the settings, or undefined when none is set or the secret is gone. */
export function readApiKey(app: App, settings: AdapterSettings): string | undefined {
	const name = settings.apiKeySecret?.trim();
	if (!name) return undefined;
	return app.secretStorage.getSecret(name) ?? undefined;
}

export async function createPluginAdapter(app: App, settings: AdapterSettings): Promise<ProviderAdapter> {
	const transport = await pickTransport();
	return createAdapter({
		// createAdapter rejects an unknown provider with a clear `bad_request`.
		provider: settings.provider as ProviderName,
		baseUrl: settings.baseUrl.trim(),
		model: settings.model.trim(),
		apiKey: readApiKey(app, settings),
		transport,
		fromApp: true,
	});
}

/** Forgets the loaded transport (tests switch platforms between cases). */
export function resetTransportCache(): void {
	nodeTransport = null;
}
