// Starts the protocol server for a browser end-to-end test, with every dialect answering:
//   npx tsx tests/support/providerServerMain.ts [--port 18434] [--refuse-origin app://obsidian.md]
// Prints `PROVIDER_SERVER_URL=<url>` once listening; reconfigure it over /__control/* (see
// providerServer.ts). Stops on SIGINT/SIGTERM.
import { ProviderServer } from "./providerServer";
import { CHAT_PATHS, JSON_HEADERS, MULTIBYTE_TOKENS, streamScenario } from "./providerStreams";

function flag(name: string): string[] {
	const out: string[] = [];
	process.argv.forEach((arg, i) => {
		if (arg === name && process.argv[i + 1] !== undefined) out.push(process.argv[i + 1] ?? "");
	});
	return out;
}

/** Routes every dialect's chat and model list to a short multibyte answer. */
export function routeDefaults(server: ProviderServer): void {
	const json = (value: unknown) => ({ headers: JSON_HEADERS, body: JSON.stringify(value) });
	server.route("GET", "/api/tags", json({ models: [{ name: "llama3.2:latest", model: "llama3.2:latest" }] }));
	server.route("POST", "/api/show", json({ model_info: { "general.architecture": "llama", "llama.context_length": 131072 } }));
	server.route("GET", "/v1/models", json({ object: "list", data: [{ id: "llama3.2", object: "model" }] }));
	for (const dialect of ["ollama", "openai", "anthropic"] as const) {
		server.route("POST", CHAT_PATHS[dialect], streamScenario(dialect, MULTIBYTE_TOKENS, {}, { chunkDelayMs: 2 }));
	}
}

async function main(): Promise<void> {
	const port = Number(flag("--port")[0] ?? 0);
	const server = await ProviderServer.start({ port, cors: { refuseOrigins: flag("--refuse-origin") } });
	routeDefaults(server);
	console.log(`PROVIDER_SERVER_URL=${server.url}`);
	const stop = (): void => void server.close().then(() => process.exit(0));
	process.on("SIGINT", stop);
	process.on("SIGTERM", stop);
}

if (/providerServerMain\.ts$/.test(process.argv[1] ?? "")) {
	main().catch((err: unknown) => {
		console.error(err);
		process.exitCode = 1;
	});
}
