// The OAuth pieces the conformance suite (npm run test:mcp) cannot show alone: reading a Bearer
// challenge, where an authorization server's metadata is looked for, and PKCE's S256 pair.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { metadataUrls, parseChallenge, pkcePair } from "../../src/mcp/oauth";

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
