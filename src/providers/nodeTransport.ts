// Desktop only, reached through loadNodeTransport(). Node's http modules are required inside
// createNodeTransport(), behind a check that Node is there, so nothing here touches them on mobile.
/* global process, require -- Node globals, present exactly when Platform.isDesktop below is true */
import type { Transport, TransportInit } from "./transportTypes";

type HttpModule = typeof import("node:http");
type IncomingMessage = import("node:http").IncomingMessage;
type IncomingHttpHeaders = import("node:http").IncomingHttpHeaders;

/**
 * The engine may not import Obsidian's `Platform`; this is its headless equivalent for the one
 * question that matters here: are Node modules available (desktop app, Node scripts)?
 */
const Platform = {
	isDesktop: typeof process !== "undefined" && typeof process.versions === "object" && typeof process.versions.node === "string",
};

function abortError(): Error {
	const err = new Error("The request was aborted.");
	err.name = "AbortError";
	return err;
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
	const headers = new Headers();
	for (const [name, value] of Object.entries(raw)) {
		if (value === undefined) continue;
		headers.set(name, Array.isArray(value) ? value.join(", ") : value);
	}
	return headers;
}

/** Streams the response body, with backpressure, and destroys the socket when cancelled. */
function bodyStream(res: IncomingMessage, destroy: (err?: Error) => void): ReadableStream<Uint8Array> {
	let settled = false;
	return new ReadableStream<Uint8Array>({
		start(controller) {
			res.on("data", (chunk: Uint8Array) => {
				if (settled) return;
				controller.enqueue(chunk);
				if ((controller.desiredSize ?? 1) <= 0) res.pause();
			});
			res.on("end", () => {
				if (settled) return;
				settled = true;
				controller.close();
			});
			const fail = (err: Error): void => {
				if (settled) return;
				settled = true;
				controller.error(err);
			};
			res.on("error", fail);
			// A reset mid-body can surface only as `close` without `end`.
			res.on("close", () => fail(new Error("The connection closed before the response ended.")));
		},
		pull() {
			res.resume();
		},
		cancel() {
			settled = true;
			destroy();
		},
	});
}

/** Node `http`/`https` transport: sends no Origin header, streams, and closes the socket on abort. */
export function createNodeTransport(): Transport {
	if (Platform.isDesktop) {
		// require, not import(): the bundle is CommonJS, and in Obsidian only require reaches Node modules.
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
		const httpModule = require("node:http") as HttpModule;
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
		const httpsModule = require("node:https") as typeof import("node:https");
		const transport = (url: string, init: TransportInit): Promise<Response> => send(url, init, url.startsWith("https:") ? httpsModule.request : httpModule.request);
		return Object.assign(transport, { sendsNoOrigin: true });
	}
	throw new Error("The Node transport is only available on desktop.");
}

/**
 * A kept-alive connection can be closed by the server just as the next request goes out on it
 * (llama.cpp's server does this after a streamed answer): Node then fails with ECONNRESET ("socket
 * hang up") before any response. Nothing reached the server's handler, so that request is sent
 * once more on a new connection, as Node's documentation advises. Any other failure is final.
 */
function send(url: string, init: TransportInit, request: HttpModule["request"], fresh = false): Promise<Response> {
	return new Promise<Response>((resolve, reject) => {
		const { signal } = init;
		if (signal?.aborted) {
			reject(abortError());
			return;
		}
		const target = new URL(url);
		const headers: Record<string, string> = { ...init.headers };
		if (init.body !== undefined) headers["content-length"] = String(new TextEncoder().encode(init.body).byteLength);
		const req = request(target, fresh ? { method: init.method, headers, agent: false } : { method: init.method, headers });
		let res: IncomingMessage | undefined;
		const destroy = (err?: Error): void => {
			req.destroy(err);
			res?.destroy(err);
		};
		const onAbort = (): void => {
			const err = abortError();
			reject(err);
			destroy(err);
		};
		signal?.addEventListener("abort", onAbort, { once: true });
		req.on("error", (err: Error & { code?: string }) => {
			signal?.removeEventListener("abort", onAbort);
			if (!fresh && res === undefined && req.reusedSocket && err.code === "ECONNRESET" && signal?.aborted !== true) {
				send(url, init, request, true).then(resolve, reject);
				return;
			}
			reject(err);
		});
		req.on("response", (incoming) => {
			res = incoming;
			incoming.on("close", () => signal?.removeEventListener("abort", onAbort));
			const status = incoming.statusCode ?? 0;
			// `Response` throws for these, and a throw here would escape as an uncaught exception.
			if (status < 200 || status > 599) {
				const err = new Error(`The server answered with HTTP status ${status}, which is not a valid final status.`);
				reject(err);
				destroy();
				return;
			}
			// `Response` forbids a body on these statuses.
			const noBody = status === 204 || status === 205 || status === 304;
			resolve(
				new Response(noBody ? null : bodyStream(incoming, destroy), {
					status,
					statusText: incoming.statusMessage ?? "",
					headers: toHeaders(incoming.headers),
				}),
			);
		});
		req.end(init.body);
	});
}
