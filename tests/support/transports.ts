// The transports every provider test runs over.
import { fetchTransport, loadNodeTransport, type Transport } from "../../src/providers/transport";

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
