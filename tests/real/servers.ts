// The base URLs of the servers test:real started (globalSetup.ts), injected into the test workers.
import { inject } from "vitest";
import type { ServerName } from "./serverContexts";

export { SERVER_CONTEXTS, type ServerName } from "./serverContexts";

/** The base URL (no path) of a server started by the global setup. */
export function serverUrl(name: ServerName): string {
	const url = inject("llamaServers")[name];
	if (!url) throw new Error(`no llama-server "${name}" was started`);
	return url;
}
