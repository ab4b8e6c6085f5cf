// Where a server's address points: this computer, a machine on the local network, or elsewhere.
// One reading for every place that asks (the panel's "Ollama on this computer", the prompt layout's
// automatic choice), so they never disagree about the same address.

const PRIVATE_V4 = [/^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./, /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./];
const LOCAL_NETWORK_SUFFIXES = [".local", ".lan", ".home", ".internal", ".home.arpa"];

export type ServerPlace = "this-computer" | "local-network" | "elsewhere";

/** The host of `baseUrl` (lower case, IPv6 in brackets), or undefined when it does not parse or has none. */
export function serverHost(baseUrl: string): string | undefined {
	try {
		const host = new URL(baseUrl.trim()).hostname.toLowerCase();
		return host === "" ? undefined : host;
	} catch {
		return undefined;
	}
}

/** Where `host` (as serverHost gives it) is: loopback names and addresses, private and link-local ones, local names. */
export function placeOfHost(host: string): ServerPlace {
	if (host === "localhost" || host.endsWith(".localhost") || host === "0.0.0.0" || host === "[::1]" || /^127\./.test(host)) return "this-computer";
	if (host.startsWith("[") && host.endsWith("]")) return /^\[(f[cd][0-9a-f]{2}|fe[89ab][0-9a-f]):/.test(host) ? "local-network" : "elsewhere";
	if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return PRIVATE_V4.some((r) => r.test(host)) ? "local-network" : "elsewhere";
	if (LOCAL_NETWORK_SUFFIXES.some((s) => host.endsWith(s))) return "local-network";
	// A name without a dot (`gpubox`) resolves only on the local network.
	return host.includes(".") ? "elsewhere" : "local-network";
}
