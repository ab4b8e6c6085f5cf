import type { Transport } from "./transportTypes";

export type { Transport, TransportInit } from "./transportTypes";

/**
 * The default: the platform's `fetch`, which streams and aborts on desktop and mobile. Redirects are
 * not followed (`fetch` would carry `x-api-key` to the new host): the caller gets the 3xx, or in a
 * browser an opaque redirect, and refuses it with the address (request.ts).
 */
export const fetchTransport: Transport = (url, init) =>
	// Deliberately not requestUrl: it can neither stream nor abort, and it follows redirects.
	fetch(url, { method: init.method, headers: init.headers, body: init.body, signal: init.signal, redirect: "manual" });

/**
 * A Node `http`/`https` transport for desktop, where a server refuses the app's origin: it sends no
 * Origin header. Loaded on demand so nothing on the mobile path reaches a Node module; call it only
 * behind `Platform.isDesktopApp`. Rejects where Node modules are missing.
 */
export async function loadNodeTransport(): Promise<Transport> {
	// A dynamic import, not a static one: esbuild inlines it as a lazily initialised module, so
	// `node:http` is only required when this function runs.
	const mod = await import("./nodeTransport");
	return mod.createNodeTransport();
}
