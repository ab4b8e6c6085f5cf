// The reference server `mcp-server-everything` over Streamable HTTP, end to end through the real
// engine: spawned on a free port, reached with the fetch transport; a scripted model calls echo and
// get-sum (asked, framed, saved), then the long-running operation, whose progress reaches the card
// before Stop frees the chat within 200 ms. The hub is faked by a TurnToolSource over McpClient.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchTransport, McpClient } from "../../src/headless";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { ChatService, type ChatEvent } from "../../src/chat/ChatService";
import { ScriptedToolAdapter, call, ownIds, type ScriptStep } from "../support/toolScript";
import type { GenerateRequest, Tool, ToolCall } from "../../src/core/types";
import type { ToolCard } from "../../src/chat/toolCard";
import { sleep } from "../support/chatHarness";

let server: ChildProcess;
let client: McpClient;

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer();
		probe.once("error", reject);
		probe.listen(0, "127.0.0.1", () => {
			const address = probe.address();
			probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
		});
	});
}

beforeAll(async () => {
	const port = await freePort();
	server = spawn(join(process.cwd(), "node_modules", ".bin", "mcp-server-everything"), ["streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
	const started = Date.now();
	let said = "";
	server.stderr?.on("data", (chunk: Buffer) => (said += chunk.toString()));
	while (!said.includes("listening")) {
		if (Date.now() - started > 30_000) throw new Error(`the server did not start: ${said}`);
		await sleep(50);
	}
	client = await McpClient.connect({ name: "everything", url: `http://127.0.0.1:${port}/mcp` }, { transport: fetchTransport });
}, 60_000);

afterAll(async () => {
	await client?.close();
	server?.kill();
});

function chatWith(script: (req: GenerateRequest, i: number) => ScriptStep) {
	const events: ChatEvent[] = [];
	const asked: { call: ToolCall; tool: Tool }[] = [];
	const adapter = new ScriptedToolAdapter(script);
	const chat = new ChatService({
		adapter,
		sessions: new SessionManager(new MemoryFileStore(), { onWarning: () => undefined }),
		settings: { maxPromptTokens: 16_384, reservedResponseTokens: 512, systemPrompt: "Be brief." },
		onEvent: (e) => events.push(e),
		callIds: ownIds(),
		mcpTools: { toolsFor: async () => ({ tools: await client.listTools(), problems: [] }) },
		approve: (c, tool) => (asked.push({ call: c, tool }), Promise.resolve("allow")),
	});
	const cards = (): ToolCard[] => events.flatMap((e) => (e.type === "tool" ? [e.card] : []));
	return { chat, adapter, asked, cards };
}

describe("mcp-server-everything over Streamable HTTP in the chat", () => {
	it("echo and get-sum are asked, run and saved framed", async () => {
		const { chat, asked } = chatWith((_r, i) => (i === 0 ? { calls: [call("everything__echo", { message: "over http" }), call("everything__get-sum", { a: 20, b: 22 })] } : { text: "42." }));
		await chat.sendMessage("Echo and add.");
		expect(asked.map((a) => a.tool.mcp?.tool)).toEqual(["echo", "get-sum"]);
		const results = chat.messages.filter((m) => m.role === "tool").map((m) => m.content);
		expect(results[0]).toContain("over http");
		expect(results[1]).toContain("42");
	}, 60_000);

	it("the long-running operation's progress reaches the card, and Stop frees the chat within 200 ms", async () => {
		const { chat, cards } = chatWith((_r, i) => (i === 0 ? { calls: [call("everything__trigger-long-running-operation", { duration: 30, steps: 30 })] } : { text: "never" }));
		const controller = new AbortController();
		const sent = chat.sendMessage("Run it.", { signal: controller.signal });
		const end = Date.now() + 15_000;
		while (!cards().some((k) => k.progress !== undefined)) {
			if (Date.now() > end) throw new Error("no progress reached the card");
			await sleep(20);
		}
		const stoppedAt = performance.now();
		controller.abort();
		const answer = await sent;
		expect(performance.now() - stoppedAt).toBeLessThan(200);
		expect(answer.cancelled).toBe(true);
		expect(chat.busy).toBe(false);
	}, 60_000);
});
