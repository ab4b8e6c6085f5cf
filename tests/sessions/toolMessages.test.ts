// Sessions that hold tool calls and their results: they load, survive a rewrite, and export.
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/core/types";
import { asChatMessage } from "../../src/sessions/records";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";

const CALL: ChatMessage = {
	id: "a1",
	role: "assistant",
	content: "Reading it.",
	createdAt: "2030-01-01T00:00:01.000Z",
	toolCalls: [{ id: "call_1", name: "read_note", arguments: { path: "Plan.md" } }],
};
const RESULT: ChatMessage = { id: "t1", role: "tool", content: "# Plan", createdAt: "2030-01-01T00:00:02.000Z", toolCallId: "call_1", name: "read_note" };
const FAILED: ChatMessage = { id: "t2", role: "tool", content: "No such note", createdAt: "2030-01-01T00:00:03.000Z", toolCallId: "call_2", name: "read_note", isError: true };

describe("tool messages in sessions", () => {
	it("a session holding tool calls and results loads them as written, and again after a rewrite", async () => {
		const store = new MemoryFileStore();
		const manager = new SessionManager(store);
		const session = await manager.create();
		for (const m of [{ id: "u1", role: "user" as const, content: "Read my plan", createdAt: "2030-01-01T00:00:00.000Z" }, CALL, RESULT, FAILED]) await manager.appendMessage(session.id, m);
		const fresh = new SessionManager(store);
		const loaded = await fresh.load(session.id);
		expect(loaded.messages.slice(1)).toEqual([CALL, RESULT, FAILED]);
		await fresh.updateSession(loaded);
		expect((await new SessionManager(store).load(session.id)).messages.slice(1)).toEqual([CALL, RESULT, FAILED]);
	});

	it("damaged tool fields are dropped, never the message", () => {
		const damaged = asChatMessage({ ...CALL, toolCalls: [{ id: 1, name: "x" }, CALL.toolCalls?.[0]] });
		expect(damaged?.toolCalls).toEqual(CALL.toolCalls);
		const noCalls = asChatMessage({ ...CALL, toolCalls: "nope" });
		expect(noCalls).toMatchObject({ id: "a1", content: "Reading it." });
		expect(noCalls).not.toHaveProperty("toolCalls");
		const result = asChatMessage({ ...RESULT, toolCallId: 5, isError: "yes" });
		expect(result).toMatchObject({ id: "t1", role: "tool", content: "# Plan", name: "read_note" });
		expect(result).not.toHaveProperty("toolCallId");
		expect(result).not.toHaveProperty("isError");
	});

	it("an MCP result's origin is kept; a damaged one is dropped, never the message", () => {
		const origin = { server: "github", tool: "search", title: "Search", annotations: { readOnlyHint: true } };
		expect(asChatMessage({ ...RESULT, mcp: origin })?.mcp).toEqual(origin);
		for (const bad of [{ server: 1, tool: "x" }, { server: "s" }, { server: "s", tool: "t", annotations: { readOnlyHint: "yes" } }, "github", [origin]]) {
			const kept = asChatMessage({ ...RESULT, mcp: bad });
			expect(kept).toMatchObject({ id: "t1", role: "tool", content: "# Plan" });
			expect(kept).not.toHaveProperty("mcp");
		}
	});

	it("the Markdown export names tool results and the calls an answer made", async () => {
		const manager = new SessionManager(new MemoryFileStore());
		const session = await manager.create();
		for (const m of [CALL, RESULT]) await manager.appendMessage(session.id, m);
		const md = await manager.exportMarkdown(session.id);
		expect(md).toContain("## Tool result: read_note");
		expect(md).toContain("*Called read_note*");
		expect(md).toContain("# Plan");
	});
});

describe("the engine's call ids in saved chats", () => {
	it("a call's serverId is kept; one that is not text is dropped, the call kept", () => {
		const saved = { ...CALL, toolCalls: [{ id: "dtc_1", serverId: "call_0", name: "read_note", arguments: {} }] };
		expect(asChatMessage(JSON.parse(JSON.stringify(saved)))?.toolCalls).toEqual([{ id: "dtc_1", serverId: "call_0", name: "read_note", arguments: {} }]);
		const damaged = { ...CALL, toolCalls: [{ id: "dtc_1", serverId: 7, name: "read_note", arguments: {} }] };
		expect(asChatMessage(damaged)?.toolCalls).toEqual([{ id: "dtc_1", name: "read_note", arguments: {} }]);
	});
});
