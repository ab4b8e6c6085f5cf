// Bad MCP servers (tests/support/mcpStub.ts, real processes) inside a chat: a crash mid-call, a
// 50 MB result, a log flood and 5,000 tools each end in a clear result on the card, the chat
// answers and keeps every message, and nothing freezes. The hub is faked by a TurnToolSource over
// McpClient (src/mcp/hub.ts is another engineer's part).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/headless";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { ChatService, type ChatEvent } from "../../src/chat/ChatService";
import { MAX_TOOLS_A_REQUEST, type TurnToolSource } from "../../src/chat/toolSources";
import { ScriptedToolAdapter, call, ownIds, type ScriptStep } from "../support/toolScript";
import type { GenerateRequest } from "../../src/core/types";
import type { ToolCard } from "../../src/chat/toolCard";
import { stubConfig } from "../support/mcpStub";

const open: McpClient[] = [];
afterAll(async () => {
	await Promise.all(open.map((c) => c.close()));
});

async function connect(name: string, mode = "normal"): Promise<McpClient> {
	const client = await McpClient.connect(stubConfig(name, mode), { loginShell: false });
	open.push(client);
	return client;
}

function chatWith(client: McpClient, script: (req: GenerateRequest, i: number) => ScriptStep) {
	const adapter = new ScriptedToolAdapter(script);
	const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
	const events: ChatEvent[] = [];
	const source: TurnToolSource = { toolsFor: async () => ({ tools: await client.listTools(), problems: [] }) };
	const chat = new ChatService({ adapter, sessions, settings: { maxPromptTokens: 32_768, reservedResponseTokens: 512, systemPrompt: "Be brief." }, onEvent: (e) => events.push(e), callIds: ownIds(), mcpTools: source, approve: () => Promise.resolve("allow") });
	const cards = (): ToolCard[] => events.flatMap((e) => (e.type === "tool" ? [e.card] : []));
	return { chat, adapter, sessions, events, cards };
}

const then = (name: string) => (_r: GenerateRequest, i: number): ScriptStep => (i === 0 ? { calls: [call(name, { text: "x" })] } : { text: "Answered anyway." });

describe("bad MCP servers inside a chat", () => {
	let stub: McpClient;
	beforeAll(async () => {
		stub = await connect("stub");
	}, 30_000);

	it("a 50 MB result: the card fails with a clear error, the chat answers, nothing is lost", async () => {
		const { chat, cards, sessions } = chatWith(stub, then("stub__huge"));
		const started = Date.now();
		const answer = await chat.sendMessage("Get the huge thing.");
		expect(Date.now() - started).toBeLessThan(20_000);
		expect(answer.content).toBe("Answered anyway.");
		const failed = cards().find((k) => k.state === "failed");
		expect(failed?.error).toMatch(/MB|too large|larger/i);
		const reloaded = await sessions.load(chat.sessionId ?? "");
		expect(reloaded.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
	}, 60_000);

	it("a log flood: the call still ends with its result", async () => {
		const { chat } = chatWith(stub, then("stub__flood"));
		await chat.sendMessage("Flood.");
		expect(chat.messages.find((m) => m.role === "tool")?.content).toContain("flooded");
	}, 60_000);

	it("a crash mid-call: the card says the server exited, and the chat answers", async () => {
		const crashing = await connect("crashy");
		const { chat, cards } = chatWith(crashing, then("crashy__crash"));
		const answer = await chat.sendMessage("Crash it.");
		expect(answer.content).toBe("Answered anyway.");
		const failed = cards().find((k) => k.state === "failed");
		expect(failed?.error).toMatch(/exit|crash|closed/i);
	}, 60_000);

	it("5,000 tools: at most 128 go with a request, the rest are turned off with a warning, and the chat answers", async () => {
		const many = await connect("many", "many");
		const { chat, adapter, events } = chatWith(many, () => ({ text: "Fine." }));
		const answer = await chat.sendMessage("Hello.");
		expect(answer.content).toBe("Fine.");
		expect(adapter.chatRequests[0]?.tools?.length ?? 0).toBeLessThanOrEqual(MAX_TOOLS_A_REQUEST);
		const off = events.find((e) => e.type === "warning" && e.code === "mcp_tools_off");
		expect(off?.type === "warning" ? off.params : undefined).toEqual({ server: "many", count: 5_000 - MAX_TOOLS_A_REQUEST });
		expect(off?.type === "warning" ? (off.detail ?? "").length : Infinity).toBeLessThan(3_000);
	}, 60_000);
});
