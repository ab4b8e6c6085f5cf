// A local protocol server on 127.0.0.1 that plays provider streams, byte-chunked, with faults.
// Tests configure it in-process (`route`, `once`); a browser end-to-end test can start it from a Node
// script and configure it over HTTP through the control endpoints:
//   POST /__control/route   { method, path, scenario, once? }   add a route (once: used one time)
//   POST /__control/reset                                       forget routes and recorded requests
//   GET  /__control/requests                                    recorded requests as JSON
// CORS: by default every Origin is allowed; `cors.allowOrigins` limits who gets CORS headers, and
// `cors.refuseOrigins` answers those origins the way Ollama does (HTTP 403, empty body, no CORS
// headers) to simulate "origin refused".
import http from "node:http";
import type { AddressInfo } from "node:net";
import { clearTimeout, setImmediate, setTimeout } from "node:timers";
import { seededRandom } from "./random";

/** What the server does for one request. */
export interface Scenario {
	status?: number;
	headers?: Record<string, string>;
	/** The whole body; written in random chunks of `chunkMin`..`chunkMax` bytes (default 1..7). */
	body?: string;
	chunkMin?: number;
	chunkMax?: number;
	/** Seed for the chunk sizes, so a failure replays. */
	seed?: number;
	/** Wait before sending anything (status line included). */
	firstByteDelayMs?: number;
	/** Wait between chunks; 0 (default) yields to the event loop between writes. */
	chunkDelayMs?: number;
	/** Destroy the socket after this many body bytes (a reset mid-stream). */
	resetAfterBytes?: number;
	/** Stop writing after this many body bytes and keep the connection open (a stall). */
	stallAfterBytes?: number;
	/** After `body`, write `repeat` every `intervalMs` until the client closes the connection. */
	endless?: { repeat: string; intervalMs: number };
}

export interface RecordedRequest {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	body: string;
	/** The body parsed as JSON, when it is. */
	json?: unknown;
}

export interface CorsOptions {
	/** Origins answered with HTTP 403 and no CORS headers, as Ollama does. */
	refuseOrigins?: string[];
	/** When set, only these origins get CORS headers; others are served without (a server that knows no CORS). */
	allowOrigins?: string[];
}

export interface ServerOptions {
	cors?: CorsOptions;
	port?: number;
}

type ScenarioSource = Scenario | ((req: RecordedRequest) => Scenario);

/** Splits bytes into random chunks of min..max bytes; splits land inside multibyte characters and lines. */
export function chunkBytes(bytes: Uint8Array, min: number, max: number, seed: number): Uint8Array[] {
	const rand = seededRandom(seed);
	const chunks: Uint8Array[] = [];
	for (let i = 0; i < bytes.length; ) {
		const size = min + Math.floor(rand() * (max - min + 1));
		chunks.push(bytes.subarray(i, i + size));
		i += size;
	}
	return chunks;
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));

export class ProviderServer {
	readonly requests: RecordedRequest[] = [];
	/** Requests whose client closed the connection before the response ended. */
	readonly clientCloses: RecordedRequest[] = [];
	private readonly routes = new Map<string, ScenarioSource>();
	private readonly onceRoutes = new Map<string, Scenario[]>();
	private closeWaiters: (() => void)[] = [];
	private constructor(
		private readonly server: http.Server,
		readonly url: string,
		private readonly options: ServerOptions,
	) {}

	static async start(options: ServerOptions = {}): Promise<ProviderServer> {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
		const { port } = server.address() as AddressInfo;
		const instance = new ProviderServer(server, `http://127.0.0.1:${port}`, options);
		server.on("request", (req, res) => void instance.handle(req, res));
		return instance;
	}

	/** Answers every `method path` request with `scenario` (or what the function returns). */
	route(method: string, path: string, scenario: ScenarioSource): this {
		this.routes.set(`${method.toUpperCase()} ${path}`, scenario);
		return this;
	}

	/** Answers the next `method path` request with `scenario`, before any persistent route. */
	once(method: string, path: string, scenario: Scenario): this {
		const key = `${method.toUpperCase()} ${path}`;
		const queue = this.onceRoutes.get(key) ?? [];
		queue.push(scenario);
		this.onceRoutes.set(key, queue);
		return this;
	}

	reset(): void {
		this.routes.clear();
		this.onceRoutes.clear();
		this.requests.length = 0;
		this.clientCloses.length = 0;
	}

	/** Resolves when a client has closed a connection before its response ended. */
	waitForClientClose(timeoutMs = 2000): Promise<void> {
		if (this.clientCloses.length > 0) return Promise.resolve();
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error("the client never closed the connection")), timeoutMs);
			this.closeWaiters.push(() => {
				clearTimeout(timer);
				resolve();
			});
		});
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const parts: Buffer[] = [];
		for await (const part of req) parts.push(part as Buffer);
		const body = Buffer.concat(parts).toString("utf8");
		const path = (req.url ?? "/").split("?")[0] ?? "/";
		const recorded: RecordedRequest = { method: req.method ?? "GET", path, headers: req.headers, body };
		try {
			recorded.json = JSON.parse(body) as unknown;
		} catch {
			// Not JSON: keep the text only.
		}

		const origin = req.headers.origin;
		if (origin !== undefined && this.options.cors?.refuseOrigins?.includes(origin)) {
			res.writeHead(403).end();
			return;
		}
		const allowed = origin !== undefined && (this.options.cors?.allowOrigins?.includes(origin) ?? true);
		const cors: Record<string, string> =
			allowed && origin !== undefined
				? { "access-control-allow-origin": origin, "access-control-allow-headers": "*", "access-control-allow-methods": "GET, POST, OPTIONS" }
				: {};
		if (req.method === "OPTIONS") {
			res.writeHead(204, cors).end();
			return;
		}
		if (path.startsWith("/__control/")) {
			this.control(path, recorded, res, cors);
			return;
		}
		this.requests.push(recorded);
		const key = `${recorded.method} ${path}`;
		const queued = this.onceRoutes.get(key);
		const source: ScenarioSource | undefined = queued && queued.length > 0 ? queued.shift() : this.routes.get(key);
		if (!source) {
			res.writeHead(404, { ...cors, "content-type": "text/plain" }).end("404 page not found");
			return;
		}
		const scenario = typeof source === "function" ? source(recorded) : source;
		await this.play(scenario, recorded, res, cors);
	}

	private control(path: string, recorded: RecordedRequest, res: http.ServerResponse, cors: Record<string, string>): void {
		const json = (status: number, value: unknown): void => {
			res.writeHead(status, { ...cors, "content-type": "application/json" }).end(JSON.stringify(value));
		};
		if (path === "/__control/reset") {
			this.reset();
			json(200, { ok: true });
		} else if (path === "/__control/requests") {
			json(200, this.requests);
		} else if (path === "/__control/route") {
			const spec = recorded.json as { method?: string; path?: string; scenario?: Scenario; once?: boolean } | undefined;
			if (!spec?.path || !spec.scenario) {
				json(400, { error: "expected { method, path, scenario, once? }" });
				return;
			}
			if (spec.once) this.once(spec.method ?? "POST", spec.path, spec.scenario);
			else this.route(spec.method ?? "POST", spec.path, spec.scenario);
			json(200, { ok: true });
		} else {
			json(404, { error: "unknown control path" });
		}
	}

	private async play(s: Scenario, recorded: RecordedRequest, res: http.ServerResponse, cors: Record<string, string>): Promise<void> {
		let clientClosed = false;
		res.on("close", () => {
			if (res.writableFinished) return;
			clientClosed = true;
			this.clientCloses.push(recorded);
			const waiters = this.closeWaiters;
			this.closeWaiters = [];
			for (const w of waiters) w();
		});
		res.socket?.setNoDelay(true);
		if (s.firstByteDelayMs) await wait(s.firstByteDelayMs);
		if (clientClosed) return;
		res.writeHead(s.status ?? 200, { ...cors, ...s.headers });
		res.flushHeaders();
		const bytes = new TextEncoder().encode(s.body ?? "");
		const chunks = chunkBytes(bytes, s.chunkMin ?? 1, s.chunkMax ?? 7, s.seed ?? 1);
		let written = 0;
		for (const chunk of chunks) {
			if (clientClosed) return;
			if (s.resetAfterBytes !== undefined && written >= s.resetAfterBytes) {
				res.socket?.destroy();
				return;
			}
			if (s.stallAfterBytes !== undefined && written >= s.stallAfterBytes) return; // Keep the socket open, silent.
			res.write(chunk);
			written += chunk.byteLength;
			await wait(s.chunkDelayMs ?? 0);
		}
		if (s.resetAfterBytes !== undefined) {
			res.socket?.destroy();
			return;
		}
		if (s.stallAfterBytes !== undefined) return;
		if (s.endless) {
			while (!clientClosed) {
				res.write(s.endless.repeat);
				await wait(s.endless.intervalMs);
			}
			return;
		}
		res.end();
	}
}
