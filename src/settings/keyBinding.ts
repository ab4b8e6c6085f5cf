// Where a key may go. A secret (its name in Obsidian's secret storage) is bound to the origin
// (scheme, host, port) of the server it was chosen for: the settings' key to the settings' Base
// URL, an agent's own `secret:` to that agent's server (which the person saw on the agent's review
// card before approving it). Every request that carries a key asks here first, so a note, a synced
// file or a model can never point a key at another host: a provider or address that is not the
// key's own gets no key at all. The rule is written for any server kind (a model provider today,
// an MCP server tomorrow): `boundKey` takes the bindings and the origin a request goes to.
// Redirects are never followed by the transports (providers/redirect.ts), so a key reaches no
// origin but the one its request was made for. Engine-safe: never imports 'obsidian'.
import { DEFAULT_BASE_URLS, type ProviderName } from "../providers/types";

/** A secret and the one origin its key may be sent to. */
export interface KeyBinding {
	secret: string;
	origin: string;
}

/** The origin (scheme, host, port) of an http(s) address; undefined for anything else. */
export function originOf(url: string): string | undefined {
	try {
		const parsed = new URL(url.trim());
		if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
		return parsed.origin;
	} catch {
		return undefined;
	}
}

/**
 * The secret whose key a request to `target` carries: `wanted`, when a binding for it names the
 * target's origin and no binding of the same secret names another origin (a secret chosen for one
 * server never follows a request to another, whoever names it). Undefined: the request goes
 * without a key.
 */
export function boundKey(wanted: string | undefined, target: string, bindings: readonly KeyBinding[]): string | undefined {
	const name = wanted?.trim();
	const origin = originOf(target);
	if (!name || origin === undefined) return undefined;
	const mine = bindings.filter((b) => b.secret === name);
	return mine.length > 0 && mine.every((b) => b.origin === origin) ? name : undefined;
}

/** The settings' server: one provider, address and key. */
export interface KeySettings {
	provider: ProviderName;
	baseUrl: string;
	/** The name of the secret chosen for that server; "" for none. */
	apiKeySecret: string;
}

/** What an agent says about its server: all optional (absent: the settings'). */
export interface AgentServerFields {
	/** The agent note's path, when it is one (for the error that names it). */
	path?: string;
	provider?: ProviderName;
	baseUrl?: string;
	secret?: string;
}

/** The server a chat's requests go to, and the key they carry. */
export interface ServerKey {
	provider: ProviderName;
	baseUrl: string;
	/** The secret whose key the requests carry; undefined: none. */
	secret: string | undefined;
	/**
	 * Why a key the settings or the agent would have given is not sent: `own-secret-needed` (the
	 * agent's server is not the settings' and it names no `secret:`), `bound-elsewhere` (its
	 * `secret:` is the settings' key, which belongs to the settings' server).
	 */
	withheld?: "own-secret-needed" | "bound-elsewhere";
}

/** The settings' binding: their key to their Base URL's origin. */
export function settingsBindings(s: KeySettings): KeyBinding[] {
	const origin = originOf(s.baseUrl);
	const secret = s.apiKeySecret.trim();
	return secret !== "" && origin !== undefined ? [{ secret, origin }] : [];
}

/**
 * The server and key for the settings and (optionally) a chat's agent. The server: the agent's
 * `baseUrl`, else the settings' address when the provider is the settings' one, else the
 * provider's usual address. The key: the agent's own `secret:` (for its own server only: never
 * the settings' key at another origin), else the settings' key when the server's origin is the
 * settings' one, else none.
 */
export function keyFor(s: KeySettings, agent?: AgentServerFields): ServerKey {
	const provider = agent?.provider ?? s.provider;
	const baseUrl = agent?.baseUrl?.trim() || (provider === s.provider ? s.baseUrl : DEFAULT_BASE_URLS[provider]);
	const bindings = settingsBindings(s);
	const own = agent?.secret?.trim();
	if (own) {
		// The agent's own secret, approved with the agent, goes to the agent's server; its binding is
		// that server, unless the settings already bound the same secret elsewhere.
		const origin = originOf(baseUrl);
		const secret = origin === undefined ? undefined : boundKey(own, baseUrl, [...bindings, { secret: own, origin }]);
		return secret === undefined ? { provider, baseUrl, secret, withheld: "bound-elsewhere" } : { provider, baseUrl, secret };
	}
	const settingsSecret = s.apiKeySecret.trim();
	if (settingsSecret === "") return { provider, baseUrl, secret: undefined };
	const secret = boundKey(settingsSecret, baseUrl, bindings);
	return secret === undefined ? { provider, baseUrl, secret, withheld: "own-secret-needed" } : { provider, baseUrl, secret };
}
