// A Streamable HTTP MCP server on 127.0.0.1 for tests, with faults chosen by tool or path:
//   /mcp      initialize (session id), tools/list, tools/call: echo (JSON), huge (a 50 MB JSON body),
//             endless (an SSE stream of log notifications that never answers), bigevent (one SSE event
//             that never ends), resume (an SSE stream closed before the answer, resumed by GET with
//             Last-Event-ID after `retry`), slow (never answers), progress (progress notifications
//             on its stream, then silence until it is cancelled), elicit (asks elicitation/create on
//             its stream, then returns what the client answered); DELETE ends the session.
//   /silent   never answers anything.
//   /legacy   the older HTTP+SSE transport: POST is 405, GET opens the event stream with `endpoint`.
//   /redirect a 307 to another host.
// With `cors`, every answer allows any origin (the browser test's page calls it from another port).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { nodeTimers } from "./nodeTimers";

export interface HttpStubLog {
	/** Every JSON-RPC message posted, in order. */
	posted: { method?: string; id?: unknown; params?: Record<string, unknown>; result?: unknown; at: number; session?: string; version?: string }[];
	/** What the client answered to the "elicit" tool's form. */
	elicited?: unknown;
	/** Each GET: its Last-Event-ID and when it came. */
	gets: { lastEventId?: string; at: number; path: string }[];
	deletes: number;
	/** When the tool's stream ended (the client closed it). */
	streamClosedAt?: number;
	/** When the resume tool's first stream was closed by the server. */
	closedForResumeAt?: number;
}

export interface HttpStub {
	url: (path?: string) => string;
	log: HttpStubLog;
	close: () => Promise<void>;
}

const SESSION = "stub-session-1";
/** A 48 × 48 bar chart (PNG), the "chart" tool's image result. */
export const STUB_CHART_PNG = "iVBORw0KGgoAAAANSUhEUgAAADAAAAAwEAIAAACI8LKTAAAABGdBTUEAALGPC/xhBQAAACBjSFJNAAB6JgAAgIQAAPoAAACA6AAAdTAAAOpgAAA6mAAAF3CculE8AAAABmJLR0T///////8JWPfcAAAAB3RJTUUH6gsdCgYvXrQzHgAAAh5JREFUaN7tmq1PA0EQxecu24SPBEHuXDEYQoMojkBwOCAEAQFVQwKioQKFQWDwmCIwVQgEgn8ABFhogsEQkGhSSxEEd7Mzu8xld9sdvfvLey97r5e9JrVaq9VuQxxklMrSbn/MtQx/R6k8BqQbpbLkOQaETzxBxMQOIiYGREx8xIj5LelR1zL8nXiCiAm+g17qDzePu5yVc89Lm4tXpnxVydIuBBwQVAFgg7PQzqlSeRr6i+IE06qV0+AfMfiCZaZVK6dK5UnoATWZVq2chn+C3thWLU9Q6AHxrdo+YsGXNNfqkJY0wCzT6pCWNMAO9FlWwyrp673bs6ceZ+XW5frx/Lh2CYsTYklLGSs1IO9LWkpheCWdMyVSCqU4xbsqedp1ch80CSu8hYRCKQ4WkMoc/Yp9wxFTol6hFAcNyFUHfbIl6hVKcbBdzjqIb0yvUIqD7XJY0omQMSlO8S6Hd9J1pkRKoRSneJdpdZ1edBqv55yVJweNzsyhZkGDKZFSKMVBAiqtpN2+4ElxSuwgKbJbTgyIDMi8uqpMNEX2jYMEZF5dq0w0RfaNU7yrYlpdU9yFBNk3DhaQsvneuMZC02TfOFhARrmyLqf+BGnIvnHQgEyrqwcjTHROGPOLgwaUpWb/D3qHBSZaT/aNgwZkfte/z0RTZN84SEDxRTEG9L+ASrvukCK75SQfd/fTze0yAhqMGYRPz6XOIPx5odT5AZv5Fnc2TiLzAAAAJXRFWHRkYXRlOmNyZWF0ZQAyMDI2LTExLTI5VDEwOjA2OjQ3KzAwOjAwFFO4MAAAACV0RVh0ZGF0ZTptb2RpZnkAMjAyNi0xMS0yOVQxMDowNjo0NyswMDowMGUOAIwAAAAASUVORK5CYII=";

const tools = ["echo", "huge", "endless", "bigevent", "resume", "slow", "chart", "progress", "elicit"].map((name) => ({ name, description: `The ${name} tool.`, inputSchema: { type: "object", properties: {} } }));

/** What the "elicit" tool asks: a flat form with defaults (SEP-1034), a titled choice, a format and a multi-select. */
export const STUB_ELICIT = {
	message: "Which calendar should the meeting go in? The invite is sent from your account.",
	requestedSchema: {
		type: "object",
		properties: {
			title: { type: "string", title: "Meeting title", minLength: 3, default: "Weekly sync" },
			email: { type: "string", title: "Invite from", format: "email", description: "The address the invite comes from." },
			calendar: { type: "string", title: "Calendar", oneOf: [{ const: "work", title: "Work" }, { const: "home", title: "Home" }], default: "work" },
			minutes: { type: "integer", title: "Length in minutes", minimum: 5, maximum: 240, default: 30 },
			remind: { type: "boolean", title: "Remind me 10 minutes before", default: true },
			agenda: { type: "array", title: "Agenda", description: "Pick up to two.", items: { anyOf: [{ const: "plan", title: "Planning" }, { const: "review", title: "Review" }, { const: "demo", title: "Demo" }] }, maxItems: 2, default: ["plan"] },
		},
		required: ["title", "email"],
	},
};

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve) => {
		const parts: Buffer[] = [];
		req.on("data", (c: Buffer) => parts.push(c));
		req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
	});
}

function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}): void {
	res.writeHead(200, { "content-type": "application/json", "mcp-session-id": SESSION, ...headers });
	res.end(JSON.stringify(body));
}

export async function startHttpStub(opts: { cors?: boolean } = {}): Promise<HttpStub> {
	const log: HttpStubLog = { posted: [], gets: [], deletes: 0 };
	const open = new Set<ServerResponse>();
	let pendingResume: unknown;
	let legacyStream: ServerResponse | undefined;

	// The "elicit" tool's streams waiting for the client's answer, by the request's id.
	const asking = new Map<string, (answer: unknown) => void>();
	const handleMessage = (m: { method?: string; id?: unknown; params?: Record<string, unknown>; result?: unknown; error?: unknown }, res: ServerResponse): void => {
		const reply = (result: unknown): void => json(res, { jsonrpc: "2.0", id: m.id, result });
		if (m.method === undefined && m.id !== undefined) {
			// The client's answer to a request of the server's.
			asking.get(JSON.stringify(m.id))?.(m.result ?? m.error);
			asking.delete(JSON.stringify(m.id));
			res.writeHead(202).end();
			return;
		}
		if (m.id === undefined) {
			res.writeHead(202).end();
			return;
		}
		if (m.method === "initialize") return reply({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "http-stub", version: "1" } });
		if (m.method === "tools/list") return reply({ tools });
		const name = m.params?.name;
		if (name === "echo") return reply({ content: [{ type: "text", text: "echo over http" }] });
		if (name === "chart") return reply({ content: [{ type: "text", text: "Sales by quarter." }, { type: "image", data: STUB_CHART_PNG, mimeType: "image/png" }] });
		if (name === "huge") {
			res.writeHead(200, { "content-type": "application/json" });
			const chunk = "x".repeat(1024 * 1024);
			res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":{"content":[{"type":"text","text":"`);
			let sent = 0;
			const more = (): void => {
				while (sent < 50 && !res.destroyed) {
					sent++;
					if (!res.write(chunk)) return void res.once("drain", more);
				}
				res.end('"}]}}');
			};
			more();
			return;
		}
		res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": SESSION });
		open.add(res);
		res.on("close", () => {
			open.delete(res);
			log.streamClosedAt = Date.now();
		});
		if (name === "endless") {
			const tick = `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "tick" } })}\n\n`;
			const next = (): void => {
				if (res.destroyed) return;
				res.write(tick);
				nodeTimers.set(next, 5);
			};
			next();
			return;
		}
		if (name === "bigevent") {
			res.write("data: ");
			const chunk = "y".repeat(1024 * 1024);
			let sent = 0;
			const more = (): void => {
				while (sent < 20 && !res.destroyed) {
					sent++;
					if (!res.write(chunk)) return void res.once("drain", more);
				}
			};
			more();
			return;
		}
		if (name === "resume") {
			pendingResume = m.id;
			res.write("id: e1\nretry: 300\ndata: \n\n");
			nodeTimers.set(() => {
				log.closedForResumeAt = Date.now();
				res.end();
			}, 30);
		}
		if (name === "progress") {
			const meta = m.params?._meta as { progressToken?: unknown } | undefined;
			const steps = [
				{ progress: 1, total: 4, message: "Reading 1,240 notes" },
				{ progress: 2, total: 4, message: "Indexing headings and links" },
			];
			steps.forEach((p, i) => nodeTimers.set(() => res.destroyed || res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: meta?.progressToken, ...p } })}\n\n`), 20 + i * 40));
			return; // Then silent, until cancelled.
		}
		if (name === "elicit") {
			const id = `elicit-${JSON.stringify(m.id)}`;
			asking.set(JSON.stringify(id), (answer) => {
				log.elicited = answer;
				if (!res.destroyed) res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: `The form came back: ${JSON.stringify(answer)}` }] } })}\n\n`);
			});
			res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id, method: "elicitation/create", params: STUB_ELICIT })}\n\n`);
			return;
		}
		// slow: the stream stays open and silent.
	};

	const server: Server = createServer((req, res) => {
		const path = (req.url ?? "/").split("?")[0] ?? "/";
		if (opts.cors === true) {
			res.setHeader("access-control-allow-origin", "*");
			res.setHeader("access-control-expose-headers", "mcp-session-id");
			if (req.method === "OPTIONS") {
				res.writeHead(204, { "access-control-allow-methods": "GET, POST, DELETE, OPTIONS", "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*", "access-control-max-age": "600" }).end();
				return;
			}
		}
		void (async () => {
			if (path === "/silent") return; // Never answers.
			if (path === "/redirect") return void res.writeHead(307, { location: "http://example.invalid/mcp" }).end();
			if (path === "/legacy") {
				if (req.method !== "GET") return void res.writeHead(405).end();
				log.gets.push({ at: Date.now(), path });
				res.writeHead(200, { "content-type": "text/event-stream" });
				res.write("event: endpoint\ndata: /legacy/messages?sessionId=7\n\n");
				legacyStream = res;
				open.add(res);
				return;
			}
			if (path === "/legacy/messages") {
				const m = JSON.parse(await readBody(req)) as { method?: string; id?: unknown; params?: Record<string, unknown> };
				log.posted.push({ ...m, at: Date.now() });
				res.writeHead(202).end();
				if (m.id === undefined) return;
				const result = m.method === "initialize" ? { protocolVersion: "2024-11-05", capabilities: { tools: {} }, serverInfo: { name: "legacy-stub", version: "1" } } : m.method === "tools/list" ? { tools: [tools[0]] } : { content: [{ type: "text", text: "echo over legacy" }] };
				legacyStream?.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: m.id, result })}\n\n`);
				return;
			}
			if (req.method === "DELETE") {
				log.deletes++;
				return void res.writeHead(200).end();
			}
			if (req.method === "GET") {
				const lastEventId = req.headers["last-event-id"] as string | undefined;
				log.gets.push({ lastEventId, at: Date.now(), path });
				if (lastEventId === undefined || pendingResume === undefined) return void res.writeHead(405).end();
				res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": SESSION });
				res.end(`id: e2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: pendingResume, result: { content: [{ type: "text", text: "resumed" }] } })}\n\n`);
				pendingResume = undefined;
				return;
			}
			const m = JSON.parse(await readBody(req)) as { method?: string; id?: unknown; params?: Record<string, unknown> };
			log.posted.push({ ...m, at: Date.now(), session: req.headers["mcp-session-id"] as string | undefined, version: req.headers["mcp-protocol-version"] as string | undefined });
			handleMessage(m, res);
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: (path = "/mcp") => `http://127.0.0.1:${port}${path}`,
		log,
		close: () =>
			new Promise<void>((resolve) => {
				for (const res of open) res.destroy();
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
