// OAuth 2.1 for remote MCP servers (the MCP authorization spec, 2025-11-25 with the 2025-03-26
// fallbacks): on a 401 or 403, find the protected resource's metadata (WWW-Authenticate's
// resource_metadata, else the well-known paths), then the authorization server's (RFC 8414 and
// OpenID paths, path-aware), or the default endpoints of the 2025-03-26 spec; pick the scope
// (WWW-Authenticate, else scopes_supported, else none); use a pre-registered client, a client
// metadata URL, or dynamic registration; send the person to authorize with PKCE (S256), state and
// the resource; trade the code for tokens with the client authentication the server supports
// (basic, post, none); refresh an expired token; step up on insufficient_scope, at most
// MAX_AUTHORIZATIONS times.
import type { Transport } from "../providers/transport";
import { drop, readBounded } from "./httpRead";
import type { HttpAuth } from "./httpChannel";
import { isObject, McpError } from "./protocol";

/** Authorizations one connection may start: a server that never accepts stops here. */
export const MAX_AUTHORIZATIONS = 3;
const MAX_METADATA_CHARS = 256 * 1024;

export interface OAuthTokens {
	access_token: string;
	token_type?: string;
	refresh_token?: string;
	expires_in?: number;
	scope?: string;
}

export interface OAuthClient {
	client_id: string;
	client_secret?: string;
	token_endpoint_auth_method?: string;
}

/** A client Discover registered itself (dynamic registration), and the endpoint that registered it. */
export interface RegisteredClient {
	registrationEndpoint: string;
	client: OAuthClient;
}

export interface OAuthOptions {
	/** The MCP server's URL. */
	serverUrl: string;
	/** Metadata, registration and token requests go through it (redirects never followed). */
	transport: Transport;
	/** Where the authorization server sends the person back (an obsidian:// handler in the app). */
	redirectUrl: string;
	clientName: string;
	/** A client ID metadata document's URL, used as client_id where the server supports it. */
	clientMetadataUrl?: string;
	/** A client the person registered with the server beforehand. */
	client?: OAuthClient;
	/**
	 * A client registered by an earlier sign-in, and where a new registration is saved. It is used
	 * only with the authorization server whose registration endpoint made it.
	 */
	registeredClient?: RegisteredClient;
	saveClient?(saved: RegisteredClient): void;
	/** Opens the authorization URL for the person and resolves with the URL they were sent back to. */
	authorize(url: URL): Promise<URL>;
	/** Tokens from an earlier sign-in (secret storage), and where new ones are saved. */
	tokens?: OAuthTokens;
	saveTokens?(tokens: OAuthTokens): void;
}

interface Challenge {
	resourceMetadata?: string;
	scope?: string;
	error?: string;
}

/** The Bearer challenge's parameters (RFC 6750, section 3). */
export function parseChallenge(header: string | null): Challenge {
	const out: Challenge = {};
	if (header === null) return out;
	for (const m of header.matchAll(/([a-zA-Z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
		const value = (m[2] ?? m[3] ?? "").replace(/\\(.)/g, "$1");
		const key = (m[1] ?? "").toLowerCase();
		if (key === "resource_metadata") out.resourceMetadata = value;
		else if (key === "scope") out.scope = value;
		else if (key === "error") out.error = value;
	}
	return out;
}

function base64url(bytes: Uint8Array): string {
	let binary = "";
	for (const b of bytes) binary += String.fromCharCode(b);
	return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
	const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
	return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

/** Where an authorization server's metadata may be, in the order the spec gives (path-aware). */
export function metadataUrls(issuer: string): string[] {
	const u = new URL(issuer);
	const path = u.pathname.replace(/\/+$/, "");
	if (path === "") return [`${u.origin}/.well-known/oauth-authorization-server`, `${u.origin}/.well-known/openid-configuration`];
	return [`${u.origin}/.well-known/oauth-authorization-server${path}`, `${u.origin}/.well-known/openid-configuration${path}`, `${u.origin}${path}/.well-known/openid-configuration`];
}

export class OAuth implements HttpAuth {
	private tokens: OAuthTokens | undefined;
	private client: OAuthClient | undefined;
	private authorizations = 0;

	constructor(private readonly opts: OAuthOptions) {
		this.tokens = opts.tokens;
		this.client = opts.client;
	}

	headers(): Promise<Record<string, string>> {
		const headers: Record<string, string> = {};
		if (this.tokens !== undefined) headers.authorization = `Bearer ${this.tokens.access_token}`;
		return Promise.resolve(headers);
	}

	async unauthorized(response: Response): Promise<boolean> {
		const challenge = parseChallenge(response.headers.get("www-authenticate"));
		drop(response);
		if (this.authorizations >= MAX_AUTHORIZATIONS) return false;
		this.authorizations++;
		const prm = await this.resourceMetadata(challenge.resourceMetadata);
		const issuer = prm !== undefined && Array.isArray(prm.authorization_servers) && typeof prm.authorization_servers[0] === "string" ? prm.authorization_servers[0] : new URL(this.opts.serverUrl).origin;
		const as = await this.serverMetadata(issuer);
		const scopes = Array.isArray(prm?.scopes_supported) ? (prm.scopes_supported as unknown[]).filter((s): s is string => typeof s === "string") : [];
		const scope = challenge.scope ?? (scopes.length > 0 ? scopes.join(" ") : undefined);
		const resource = typeof prm?.resource === "string" ? prm.resource : undefined;
		const client = await this.clientFor(as, scope);
		// An expired token with a refresh token: refreshed without the person, unless the server wants more scope.
		const refresh = this.tokens?.refresh_token;
		if (refresh !== undefined && challenge.error !== "insufficient_scope") {
			const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refresh });
			if (resource !== undefined) body.set("resource", resource);
			const renewed = await this.tokenRequest(as, client, body).catch(() => undefined);
			if (renewed !== undefined) {
				this.tokens = { ...renewed, refresh_token: renewed.refresh_token ?? refresh };
				this.opts.saveTokens?.(this.tokens);
				return true;
			}
		}
		const { verifier, challenge: codeChallenge } = await pkcePair();
		const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
		const url = new URL(as.authorization_endpoint);
		url.searchParams.set("response_type", "code");
		url.searchParams.set("client_id", client.client_id);
		url.searchParams.set("redirect_uri", this.opts.redirectUrl);
		url.searchParams.set("code_challenge", codeChallenge);
		url.searchParams.set("code_challenge_method", "S256");
		url.searchParams.set("state", state);
		if (scope !== undefined) url.searchParams.set("scope", scope);
		if (resource !== undefined) url.searchParams.set("resource", resource);
		const back = await this.opts.authorize(url);
		if (back.searchParams.get("state") !== state) throw new McpError("auth", "The sign-in came back with the wrong state, so it was refused. Try signing in again.");
		const code = back.searchParams.get("code");
		if (code === null) throw new McpError("auth", `The sign-in was not completed${back.searchParams.get("error") !== null ? ` (${back.searchParams.get("error")?.slice(0, 100)})` : ""}.`);
		const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: this.opts.redirectUrl, code_verifier: verifier });
		if (resource !== undefined) body.set("resource", resource);
		this.tokens = await this.tokenRequest(as, client, body);
		this.opts.saveTokens?.(this.tokens);
		return true;
	}

	private async getJson(url: string): Promise<Record<string, unknown> | undefined> {
		let response: Response;
		try {
			response = await this.opts.transport(url, { method: "GET", headers: { accept: "application/json", "mcp-protocol-version": "2025-11-25" } });
		} catch {
			return undefined;
		}
		if (!response.ok) {
			drop(response);
			return undefined;
		}
		try {
			const parsed: unknown = JSON.parse(await readBounded(response, MAX_METADATA_CHARS, () => new McpError("auth", "Metadata too large.")));
			return isObject(parsed) ? parsed : undefined;
		} catch {
			return undefined;
		}
	}

	private async resourceMetadata(fromChallenge: string | undefined): Promise<Record<string, unknown> | undefined> {
		const server = new URL(this.opts.serverUrl);
		const path = server.pathname.replace(/\/+$/, "");
		const candidates = [fromChallenge, path !== "" ? `${server.origin}/.well-known/oauth-protected-resource${path}` : undefined, `${server.origin}/.well-known/oauth-protected-resource`];
		for (const url of candidates) {
			if (url === undefined) continue;
			const found = await this.getJson(url);
			if (found !== undefined) return found;
		}
		return undefined;
	}

	private async serverMetadata(issuer: string): Promise<{ authorization_endpoint: string; token_endpoint: string; registration_endpoint?: string; token_endpoint_auth_methods_supported?: string[]; client_id_metadata_document_supported?: boolean }> {
		for (const url of metadataUrls(issuer)) {
			const m = await this.getJson(url);
			if (m !== undefined && typeof m.authorization_endpoint === "string" && typeof m.token_endpoint === "string") {
				return {
					authorization_endpoint: m.authorization_endpoint,
					token_endpoint: m.token_endpoint,
					registration_endpoint: typeof m.registration_endpoint === "string" ? m.registration_endpoint : undefined,
					token_endpoint_auth_methods_supported: Array.isArray(m.token_endpoint_auth_methods_supported) ? (m.token_endpoint_auth_methods_supported as string[]) : undefined,
					client_id_metadata_document_supported: m.client_id_metadata_document_supported === true,
				};
			}
		}
		// The 2025-03-26 spec: no metadata means the default endpoints at the server's origin.
		const origin = new URL(issuer).origin;
		return { authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`, registration_endpoint: `${origin}/register` };
	}

	private async clientFor(as: Awaited<ReturnType<OAuth["serverMetadata"]>>, scope: string | undefined): Promise<OAuthClient> {
		if (this.client !== undefined) return this.client;
		if (as.client_id_metadata_document_supported === true && this.opts.clientMetadataUrl !== undefined) {
			this.client = { client_id: this.opts.clientMetadataUrl, token_endpoint_auth_method: "none" };
			return this.client;
		}
		const earlier = this.opts.registeredClient;
		if (earlier !== undefined && as.registration_endpoint !== undefined && earlier.registrationEndpoint === as.registration_endpoint) {
			this.client = earlier.client;
			return this.client;
		}
		if (as.registration_endpoint === undefined) throw new McpError("auth", "The server's sign-in needs a registered client, and it offers no registration. Register Discover with the server and enter the client ID in the server's settings.");
		const methods = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
		const method = methods.includes("none") ? "none" : methods.includes("client_secret_basic") ? "client_secret_basic" : methods.includes("client_secret_post") ? "client_secret_post" : "none";
		const body = { client_name: this.opts.clientName, redirect_uris: [this.opts.redirectUrl], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: method, ...(scope !== undefined ? { scope } : {}) };
		const response = await this.opts.transport(as.registration_endpoint, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) });
		const text = await readBounded(response, MAX_METADATA_CHARS, () => new McpError("auth", "The registration answer was too large."));
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch {
			parsed = undefined;
		}
		if (!response.ok || !isObject(parsed) || typeof parsed.client_id !== "string") throw new McpError("auth", `The server refused to register Discover as a client (HTTP ${response.status}).`, response.status);
		this.client = {
			client_id: parsed.client_id,
			client_secret: typeof parsed.client_secret === "string" ? parsed.client_secret : undefined,
			token_endpoint_auth_method: typeof parsed.token_endpoint_auth_method === "string" ? parsed.token_endpoint_auth_method : method,
		};
		this.opts.saveClient?.({ registrationEndpoint: as.registration_endpoint, client: this.client });
		return this.client;
	}

	private async tokenRequest(as: Awaited<ReturnType<OAuth["serverMetadata"]>>, client: OAuthClient, body: URLSearchParams): Promise<OAuthTokens> {
		const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
		const supported = as.token_endpoint_auth_methods_supported;
		let method = client.token_endpoint_auth_method ?? (client.client_secret !== undefined ? "client_secret_basic" : "none");
		if (client.client_secret !== undefined && supported !== undefined && !supported.includes(method)) method = supported.includes("client_secret_basic") ? "client_secret_basic" : supported.includes("client_secret_post") ? "client_secret_post" : method;
		if (method === "client_secret_basic" && client.client_secret !== undefined) {
			headers.authorization = `Basic ${btoa(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`)}`;
		} else {
			body.set("client_id", client.client_id);
			if (method === "client_secret_post" && client.client_secret !== undefined) body.set("client_secret", client.client_secret);
		}
		const response = await this.opts.transport(as.token_endpoint, { method: "POST", headers, body: body.toString() });
		const text = await readBounded(response, MAX_METADATA_CHARS, () => new McpError("auth", "The token answer was too large."));
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch {
			parsed = undefined;
		}
		if (!response.ok || !isObject(parsed) || typeof parsed.access_token !== "string") {
			const why = isObject(parsed) && typeof parsed.error === "string" ? ` (${parsed.error.slice(0, 100)})` : "";
			throw new McpError("auth", `The server refused the sign-in's token request (HTTP ${response.status})${why}. Try signing in again.`, response.status);
		}
		return parsed as unknown as OAuthTokens;
	}
}
