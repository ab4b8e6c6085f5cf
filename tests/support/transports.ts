// The transports every provider test runs over.
import { afterAll, afterEach, beforeAll } from "vitest";
import { fetchTransport, loadNodeTransport, type Transport } from "../../src/providers/transport";
import { ProviderServer } from "./providerServer";

export { countingTransport } from "./countingTransport";

export interface NamedTransport {
	name: string;
	load: () => Promise<Transport>;
}

export const TRANSPORTS: NamedTransport[] = [
	{ name: "fetch", load: () => Promise.resolve(fetchTransport) },
	{ name: "node", load: loadNodeTransport },
];

/** Adds an Origin header, as the app's fetch does (`app://obsidian.md`), to test origin refusal. */
export function withOrigin(transport: Transport, origin: string): Transport {
	return (url, init) => transport(url, { ...init, headers: { ...init.headers, origin } });
}

/**
 * A protocol server and a transport for one describe block: started before its tests, reset after
 * each, closed at the end. Read `server` and `transport` inside tests (they are set in beforeAll).
 */
export function useProviderServer(load: () => Promise<Transport>): { server: ProviderServer; transport: Transport } {
	const env = {} as { server: ProviderServer; transport: Transport };
	beforeAll(async () => {
		env.server = await ProviderServer.start();
		env.transport = await load();
	});
	afterEach(() => env.server.reset());
	afterAll(() => env.server.close());
	return env;
}
