// The client the MCP conformance suite runs (`npm run test:mcp`): Discover's own MCP client against
// the scenario's test server. The suite passes the server's URL as the last argument and the
// scenario's name in MCP_CONFORMANCE_SCENARIO (with its data, when it has some, in
// MCP_CONFORMANCE_CONTEXT). It connects, lists the tools, calls each (arguments made from its
// schema), and closes; it exits 1 with the error when any step fails.
import { loadNodeTransport, McpClient, type McpConnectOptions, type McpServerConfig, type Transport, type VaultTool } from "../src/headless";
import { elicitDefaults } from "../src/mcp/elicitation";

/** Arguments a tool's schema accepts: a sample value for each required property. */
export function sampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
	const props = (typeof schema.properties === "object" && schema.properties !== null ? schema.properties : {}) as Record<string, { type?: unknown; default?: unknown }>;
	const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
	const args: Record<string, unknown> = {};
	for (const key of required) {
		const p = props[key] ?? {};
		if (p.default !== undefined) args[key] = p.default;
		else if (p.type === "number" || p.type === "integer") args[key] = key === "b" ? 3 : 2;
		else if (p.type === "boolean") args[key] = true;
		else if (p.type === "array") args[key] = [];
		else if (p.type === "object") args[key] = {};
		else args[key] = "test";
	}
	return args;
}

/** The fixed client metadata URL the suite's CIMD scenario expects. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
const REDIRECT_URL = "http://localhost:3000/callback";

/**
 * OAuth as the suite drives it: no person to sign in, so the authorization URL is fetched and its
 * redirect (never followed) carries the code back. Pre-registered credentials come in the context.
 */
function conformanceOAuth(transport: Transport): McpConnectOptions["oauth"] {
	const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as { client_id?: string; client_secret?: string };
	return {
		redirectUrl: REDIRECT_URL,
		clientName: "discover-conformance",
		clientMetadataUrl: CLIENT_METADATA_URL,
		client: context.client_id !== undefined ? { client_id: context.client_id, client_secret: context.client_secret } : undefined,
		async authorize(url) {
			const response = await transport(url.href, { method: "GET", headers: {} });
			const location = response.headers.get("location");
			await response.body?.cancel();
			if (location === null) throw new Error(`The authorization endpoint did not redirect (HTTP ${response.status}).`);
			return new URL(location, url);
		},
	};
}

async function main(): Promise<void> {
	const url = process.argv[process.argv.length - 1];
	const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
	if (url === undefined || !/^https?:\/\//.test(url)) throw new Error("Usage: MCP_CONFORMANCE_SCENARIO=<scenario> tsx scripts/mcp-conformance-client.ts <server-url>");
	const config: McpServerConfig = { name: "conformance", url, timeoutMs: 20_000 };
	const transport = await loadNodeTransport();
	// The suite's elicitation asks to "accept with defaults": this harness stands in for the person
	// (in the app, only the person answers) and accepts the form as it opens, with its defaults.
	const client = await McpClient.connect(config, { transport, oauth: conformanceOAuth(transport), onElicit: (request) => Promise.resolve({ action: "accept", content: elicitDefaults(request) }) });
	console.log(`Connected (${scenario}): ${client.serverInfo?.name ?? "?"} ${client.serverInfo?.protocolVersion ?? ""}`);
	const tools: VaultTool[] = await client.listTools();
	const infos = await client.serverTools();
	console.log(`Tools: ${infos.map((t) => t.name).join(", ") || "none"}`);
	for (const [i, tool] of tools.slice(0, 3).entries()) {
		const info = infos[i];
		const args = sampleArguments(info?.inputSchema ?? {});
		const text = await tool.run(args, { signal: new AbortController().signal, callId: `call-${i}` });
		console.log(`${tool.name}(${JSON.stringify(args)}) → ${text.slice(0, 300)}`);
	}
	await client.close();
}

main().then(
	() => process.exit(0),
	(err: unknown) => {
		console.error(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
		process.exit(1);
	},
);
