// The server an agent's requests go to. The settings hold one server (provider, address, key): an
// agent naming that provider uses the settings' address, an agent naming another uses that
// provider's usual address, and an agent's `baseUrl:` wins over both. The chat's adapter and the
// model list an agent is checked against both ask here (through keyBinding's keyFor, which also
// says which key may go there), so they never disagree.
import type { ProviderName } from "../providers/types";
import { keyFor, type AgentServerFields } from "./keyBinding";

export interface ServerSettings {
	provider: ProviderName;
	baseUrl: string;
}

/** `agent`: the agent's server fields, or (as before) just its provider. */
export function serverFor(s: ServerSettings, agent: ProviderName | AgentServerFields | undefined): ServerSettings {
	const fields: AgentServerFields | undefined = typeof agent === "string" ? { provider: agent } : agent;
	const { provider, baseUrl } = keyFor({ ...s, apiKeySecret: "" }, fields);
	return { provider, baseUrl };
}
