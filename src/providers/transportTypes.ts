// What a transport is: the shape both transports share (transport.ts's fetch, nodeTransport.ts's
// Node http), apart from either so that neither imports the other for its type.
/** What a transport is asked to send. Kept minimal so a Node `http` transport can honour all of it. */
export interface TransportInit {
	method: string;
	headers: Record<string, string>;
	body?: string;
	signal?: AbortSignal;
}

/**
 * Sends one HTTP request and resolves with a standard `Response` whose `body` streams. It must reject
 * (or error the body) promptly when `signal` aborts, and close the connection. It must never follow
 * a redirect: credentials would go to whatever host the server names.
 */
export type Transport = ((url: string, init: TransportInit) => Promise<Response>) & {
	/** True when the transport sends no Origin header, so no server can refuse it for its origin. */
	readonly sendsNoOrigin?: boolean;
};
