// The OAuth pieces the conformance suite (npm run test:mcp) cannot show alone: reading a Bearer
// challenge, where an authorization server's metadata is looked for, and PKCE's S256 pair.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { metadataUrls, parseChallenge, pkcePair } from "../../src/mcp/oauth";
import { McpClient, type Transport } from "../../src/headless";

describe("OAuth for MCP servers", () => {
	it("reads resource_metadata, scope and error from a Bearer challenge, quoted or not", () => {
		expect(parseChallenge('Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://x.test/.well-known/oauth-protected-resource/mcp"')).toEqual({
			error: "insufficient_scope",
			scope: "files:read files:write",
			resourceMetadata: "https://x.test/.well-known/oauth-protected-resource/mcp",
		});
		expect(parseChallenge("Bearer scope=read")).toEqual({ scope: "read" });
		expect(parseChallenge(null)).toEqual({});
	});

	it("looks for metadata at the RFC 8414 and OpenID paths, path-aware", () => {
		expect(metadataUrls("https://auth.test")).toEqual(["https://auth.test/.well-known/oauth-authorization-server", "https://auth.test/.well-known/openid-configuration"]);
		expect(metadataUrls("https://auth.test/tenant1/")).toEqual([
			"https://auth.test/.well-known/oauth-authorization-server/tenant1",
			"https://auth.test/.well-known/openid-configuration/tenant1",
			"https://auth.test/tenant1/.well-known/openid-configuration",
		]);
	});

	it("makes a PKCE pair whose challenge is the verifier's SHA-256, base64url", async () => {
		const { verifier, challenge } = await pkcePair();
		expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(challenge).toBe(createHash("sha256").update(verifier).digest("base64url"));
		expect((await pkcePair()).verifier).not.toBe(verifier);
	});
});

describe("an expired token", () => {
	it("is refreshed with the refresh token, without asking the person to sign in again", async () => {
		const seen: string[] = [];
		const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
		const transport: Transport = (url, init) => {
			const path = new URL(url).pathname;
			if (path === "/.well-known/oauth-protected-resource/mcp") return Promise.resolve(json({ resource: "https://mcp.test/mcp", authorization_servers: ["https://auth.test"] }));
			if (path === "/.well-known/oauth-authorization-server") return Promise.resolve(json({ issuer: "https://auth.test", authorization_endpoint: "https://auth.test/authorize", token_endpoint: "https://auth.test/token", token_endpoint_auth_methods_supported: ["none"] }));
			if (path === "/token") {
				seen.push(`token ${init.body ?? ""}`);
				return Promise.resolve(json({ access_token: "fresh", token_type: "Bearer" }));
			}
			seen.push(`${init.headers.authorization ?? "none"}`);
			if (init.headers.authorization !== "Bearer fresh") return Promise.resolve(json({ error: "invalid_token" }, 401, { "www-authenticate": 'Bearer error="invalid_token"' }));
			const m = JSON.parse(init.body ?? "{}") as { id?: number; method: string };
			if (m.id === undefined) return Promise.resolve(new Response(null, { status: 202 }));
			return Promise.resolve(json({ jsonrpc: "2.0", id: m.id, result: m.method === "initialize" ? { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } } : { tools: [] } }));
		};
		const saved: unknown[] = [];
		const client = await McpClient.connect(
			{ name: "remote", url: "https://mcp.test/mcp" },
			{
				transport,
				oauth: {
					redirectUrl: "obsidian://discover-oauth",
					clientName: "Discover",
					client: { client_id: "pre" },
					tokens: { access_token: "stale", refresh_token: "r1" },
					saveTokens: (t) => saved.push(t),
					authorize: () => Promise.reject(new Error("the person was asked to sign in")),
				},
			},
		);
		expect(seen[0]).toBe("Bearer stale");
		expect(seen[1]).toMatch(/^token grant_type=refresh_token&refresh_token=r1&resource=https%3A%2F%2Fmcp.test%2Fmcp&client_id=pre$/);
		expect(seen[2]).toBe("Bearer fresh");
		expect(saved).toEqual([{ access_token: "fresh", token_type: "Bearer", refresh_token: "r1" }]);
		await client.close();
	});

	it("a dynamically registered client is saved, bound to its registration endpoint, and reused by the next sign-in; another server's is not", async () => {
		const registered: string[] = [];
		const authorizeUrls: URL[] = [];
		const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
		const transport: Transport = (url, init) => {
			const path = new URL(url).pathname;
			if (path === "/.well-known/oauth-protected-resource/mcp") return Promise.resolve(json({ resource: "https://mcp.test/mcp", authorization_servers: ["https://auth.test"] }));
			if (path === "/.well-known/oauth-authorization-server") return Promise.resolve(json({ issuer: "https://auth.test", authorization_endpoint: "https://auth.test/authorize", token_endpoint: "https://auth.test/token", registration_endpoint: "https://auth.test/register", token_endpoint_auth_methods_supported: ["client_secret_post"] }));
			if (path === "/register") {
				registered.push(init.body ?? "");
				return Promise.resolve(json({ client_id: `client-${registered.length}`, client_secret: `secret-${registered.length}`, token_endpoint_auth_method: "client_secret_post" }, 201));
			}
			if (path === "/token") return Promise.resolve(json({ access_token: "granted", token_type: "Bearer" }));
			if (init.headers.authorization !== "Bearer granted") return Promise.resolve(json({ error: "invalid_token" }, 401, { "www-authenticate": 'Bearer error="invalid_token"' }));
			const m = JSON.parse(init.body ?? "{}") as { id?: number; method: string };
			if (m.id === undefined) return Promise.resolve(new Response(null, { status: 202 }));
			return Promise.resolve(json({ jsonrpc: "2.0", id: m.id, result: m.method === "initialize" ? { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } } : { tools: [] } }));
		};
		const authorize = (url: URL): Promise<URL> => {
			authorizeUrls.push(url);
			return Promise.resolve(new URL(`obsidian://discover-oauth?code=c&state=${url.searchParams.get("state") ?? ""}`));
		};
		const savedClients: unknown[] = [];
		const connect = (registeredClient?: { registrationEndpoint: string; client: { client_id: string; client_secret?: string } }) =>
			McpClient.connect({ name: "remote", url: "https://mcp.test/mcp" }, { transport, oauth: { redirectUrl: "obsidian://discover-oauth", clientName: "Discover", authorize, saveClient: (c) => savedClients.push(c), ...(registeredClient !== undefined ? { registeredClient } : {}) } });
		await (await connect()).close();
		expect(registered).toHaveLength(1);
		expect(savedClients).toEqual([{ registrationEndpoint: "https://auth.test/register", client: { client_id: "client-1", client_secret: "secret-1", token_endpoint_auth_method: "client_secret_post" } }]);
		// The next start (tokens gone): the saved client signs in again, nothing is registered.
		await (await connect(savedClients[0] as never)).close();
		expect(registered).toHaveLength(1);
		expect(authorizeUrls[1]?.searchParams.get("client_id")).toBe("client-1");
		// A client saved for another authorization server is never sent to this one.
		await (await connect({ registrationEndpoint: "https://other.test/register", client: { client_id: "foreign", client_secret: "foreign-secret" } })).close();
		expect(registered).toHaveLength(2);
		expect(authorizeUrls[2]?.searchParams.get("client_id")).toBe("client-2");
	});
});
