// The server an agent's provider is reached at. The settings hold one server (provider, address,
// key): an agent naming that provider uses the settings' address, an agent naming another uses
// that provider's usual address. The chat's adapter and the model list an agent is checked
// against both ask here, so they never disagree.
import { DEFAULT_BASE_URLS, type ProviderName } from "../providers/types";

export interface ServerSettings {
	provider: ProviderName;
	baseUrl: string;
}

export function serverFor(s: ServerSettings, provider: ProviderName | undefined): ServerSettings {
	const chosen = provider ?? s.provider;
	return { provider: chosen, baseUrl: chosen === s.provider ? s.baseUrl : DEFAULT_BASE_URLS[chosen] };
}
