// The Node transport and a kept-alive connection the server closed as the next request went out:
// llama.cpp's server does this after a streamed answer, and Node then fails the request with
// "socket hang up" though nothing was received. Seen against the real server (test:real); here a
// server that answers the first request on a connection and drops the connection on the second.
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, expect, it } from "vitest";
import { loadNodeTransport } from "../../src/providers/transport";

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
	for (const s of sockets) s.destroy();
	sockets.clear();
	await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
	server = undefined;
});

/** Answers the first request of every connection (keep-alive), and drops it at the second. */
async function dropsSecondRequest(): Promise<{ url: string; connections: () => number; answered: () => number }> {
	let connections = 0;
	let answered = 0;
	server = createServer((socket: Socket) => {
		sockets.add(socket);
		connections++;
		let seen = 0;
		let buffered = "";
		socket.on("data", (chunk) => {
			buffered += chunk.toString("latin1");
			while (buffered.includes("\r\n\r\n")) {
				const end = buffered.indexOf("\r\n\r\n") + 4;
				const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
				if (buffered.length < end + length) return;
				buffered = buffered.slice(end + length);
				seen++;
				if (seen > 1) {
					socket.destroy();
					return;
				}
				answered++;
				socket.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}");
			}
		});
		socket.on("error", () => undefined);
	});
	await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	if (address === null || typeof address === "string") throw new Error("no port");
	return { url: `http://127.0.0.1:${address.port}/v1/chat/completions`, connections: () => connections, answered: () => answered };
}

it("a request on a reused connection the server dropped is sent again on a new one", async () => {
	const transport = await loadNodeTransport();
	const stub = await dropsSecondRequest();
	const init = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ n: 1 }) };
	for (let i = 0; i < 3; i++) {
		const res = await transport(stub.url, init);
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({});
	}
	expect(stub.answered()).toBe(3);
	expect(stub.connections()).toBeGreaterThanOrEqual(2);
});

it("a fresh connection that fails is not sent again", async () => {
	const transport = await loadNodeTransport();
	let connections = 0;
	server = createServer((socket) => {
		connections++;
		socket.on("data", () => socket.destroy());
		socket.on("error", () => undefined);
	});
	await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	if (address === null || typeof address === "string") throw new Error("no port");
	await expect(transport(`http://127.0.0.1:${address.port}/x`, { method: "POST", headers: {}, body: "{}" })).rejects.toThrow(/hang up|ECONNRESET/);
	expect(connections).toBe(1);
});
