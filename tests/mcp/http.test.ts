// The MCP client over Streamable HTTP (tests/support/mcpHttpStub.ts on 127.0.0.1): the session id and
// protocol version headers, resuming a closed stream with Last-Event-ID after `retry`, the legacy
// HTTP+SSE fallback, and bad servers (silence, a 50 MB body, an endless stream, an endless event, a
// redirect) each giving a clear error without holding the app.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchTransport, loadNodeTransport, McpClient, McpError, type McpServerConfig, type Transport } from "../../src/headless";
import { startHttpStub, type HttpStub } from "../support/mcpHttpStub";
import { nodeTimers } from "../support/nodeTimers";

let stub: HttpStub;
beforeAll(async () => {
	stub = await startHttpStub();
});
afterAll(async () => {
	await stub.close();
});

const config = (path = "/mcp", extra: Partial<McpServerConfig> = {}): McpServerConfig => ({ name: "web", url: stub.url(path), ...extra });

async function call(client: McpClient, name: string, signal = new AbortController().signal): Promise<string> {
	const tool = (await client.listTools()).find((t) => t.name === `web__${name}`);
	if (tool === undefined) throw new Error(`no tool ${name}`);
	return tool.run({}, { signal, callId: "h1" });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => nodeTimers.set(() => r(), ms));

describe("the MCP client over Streamable HTTP", () => {
	it.each<[string, () => Promise<Transport>]>([
		["fetch", () => Promise.resolve(fetchTransport)],
		["the Node transport", loadNodeTransport],
	])("connects through %s, keeps the session id and version headers, and ends the session on close", async (_, make) => {
		const before = stub.log.deletes;
		const client = await McpClient.connect(config(), { transport: await make() });
		expect(client.serverInfo?.protocolVersion).toBe("2025-06-18");
		expect(await call(client, "echo")).toContain("echo over http");
		const later = stub.log.posted.filter((p) => p.method === "tools/list").at(-1);
		expect(later).toMatchObject({ session: "stub-session-1", version: "2025-06-18" });
		await client.close();
		expect(stub.log.deletes).toBe(before + 1);
	});

	it("resumes a stream closed before the answer with GET and Last-Event-ID, after the server's retry", async () => {
		const client = await McpClient.connect(config());
		expect(await call(client, "resume")).toContain("resumed");
		const get = stub.log.gets.filter((g) => g.lastEventId !== undefined).at(-1);
		expect(get?.lastEventId).toBe("e1");
		const waited = (get?.at ?? 0) - (stub.log.closedForResumeAt ?? 0);
		expect(waited).toBeGreaterThanOrEqual(250);
		expect(waited).toBeLessThan(2000);
		await client.close();
	});

	it("falls back to the legacy HTTP+SSE transport when POST is refused", async () => {
		const client = await McpClient.connect(config("/legacy"));
		expect(client.serverInfo).toMatchObject({ name: "legacy-stub", protocolVersion: "2024-11-05" });
		expect(client.logLines().some((l) => /older HTTP\+SSE/.test(l.text))).toBe(true);
		expect(await call(client, "echo")).toContain("echo over legacy");
		await client.close();
	});

	it("a server that never answers initialize fails with a time-limit error", async () => {
		const err = (await McpClient.connect(config("/silent", { timeoutMs: 400 })).catch((e: unknown) => e)) as McpError;
		expect(err).toBeInstanceOf(McpError);
		expect(err.message).toMatch(/did not answer initialize within 400 ms/);
	});

	it("a redirect is refused with its target, never followed", async () => {
		const err = (await McpClient.connect(config("/redirect")).catch((e: unknown) => e)) as McpError;
		expect(err.kind).toBe("http");
		expect(err.message).toMatch(/redirected to http:\/\/example\.invalid\/mcp\. It was not followed/);
	});

	it("a 50 MB JSON result is cut off with a clear error", async () => {
		const client = await McpClient.connect(config());
		await expect(call(client, "huge")).rejects.toThrow(/larger than 8\.0 MB/);
		expect(await call(client, "echo")).toContain("echo over http");
		await client.close();
	}, 30_000);

	it("an event that never ends is cut off with a clear error", async () => {
		const client = await McpClient.connect(config());
		await expect(call(client, "bigevent")).rejects.toThrow(/larger than 8\.0 MB/);
		await client.close();
	}, 30_000);

	it("an endless stream that never answers ends at the time limit, and the stream is closed", async () => {
		const client = await McpClient.connect(config("/mcp", { timeoutMs: 800 }));
		const started = Date.now();
		await expect(call(client, "endless")).rejects.toThrow(/did not answer tools\/call within 800 ms/);
		expect(Date.now() - started).toBeLessThan(3000);
		await sleep(100);
		expect(stub.log.streamClosedAt ?? 0).toBeGreaterThanOrEqual(started);
		expect(client.logLines().length).toBeLessThanOrEqual(200);
		await client.close();
	});

	it("Stop frees the call within 200 ms and posts notifications/cancelled", async () => {
		const client = await McpClient.connect(config());
		const stop = new AbortController();
		const running = call(client, "slow", stop.signal).catch((e: unknown) => e);
		await sleep(100);
		const stopped = performance.now();
		stop.abort();
		const err = (await running) as Error;
		expect(performance.now() - stopped).toBeLessThan(200);
		expect(err.message).toMatch(/stopped/);
		const callId = stub.log.posted.filter((p) => p.method === "tools/call").at(-1)?.id;
		for (let i = 0; i < 50 && !stub.log.posted.some((p) => p.method === "notifications/cancelled" && p.params?.requestId === callId); i++) await sleep(20);
		expect(stub.log.posted.some((p) => p.method === "notifications/cancelled" && p.params?.requestId === callId)).toBe(true);
		await client.close();
	});
});
