// The chat's tools switch in the engine (headless): ChatService.setTools saves it with the chat, a
// reloaded chat keeps it (its sends and its preview go without tools), a new chat starts on, a
// switch set before a chat's first message is saved when that message creates it, and chats from
// before the switch was saved open with tools on.
import { describe, expect, it } from "vitest";
import { ChatService, MemoryFileStore, SessionManager, type GenerateRequest, type GenerateResult, type LLMAdapter, type Tool } from "../../src/headless";
import { nodeTimers } from "../support/nodeTimers";

/** Answers every request at once and records whether it offered tools. */
class ToolsSeen implements LLMAdapter {
	readonly offered: boolean[] = [];
	generate(req: GenerateRequest): Promise<GenerateResult> {
		if (req.purpose === "chat") this.offered.push((req.tools?.length ?? 0) > 0);
		req.onToken?.("ok");
		return Promise.resolve({ text: "ok" });
	}
}

const TOOL: Tool = {
	name: "search_notes",
	description: "Searches the person's notes for a query and returns the best passages with their paths.",
	parameters: { type: "object", properties: { query: { type: "string", description: "What to look for" } }, required: ["query"] },
	access: "read",
	run: () => Promise.resolve("nothing"),
};

function setup(store = new MemoryFileStore()) {
	const adapter = new ToolsSeen();
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	const warnings: string[] = [];
	const chat = new ChatService({ adapter, sessions, tools: [TOOL], timers: nodeTimers, onEvent: (e) => (e.type === "warning" ? warnings.push(e.code ?? e.message) : undefined) });
	return { store, adapter, sessions, chat, warnings };
}

describe("ChatService's tools switch", () => {
	it("off is saved with the chat: after a reload its sends offer no tools, and the preview leaves their definitions out", async () => {
		const first = setup();
		await first.chat.sendMessage("Hello");
		const id = first.chat.sessionId!;
		const withTools = first.chat.previewPrompt("draft").estimatedTokens;
		await first.chat.setTools(false);
		expect(first.chat.toolsOn).toBe(false);
		const withoutTools = first.chat.previewPrompt("draft").estimatedTokens;
		expect(withoutTools).toBeLessThan(withTools);
		expect(first.chat.previewPrompt("draft", { tools: false }).estimatedTokens).toBe(withoutTools);

		const again = setup(first.store);
		await again.chat.loadSession(id);
		expect(again.chat.toolsOn).toBe(false);
		expect(again.chat.previewPrompt("draft").estimatedTokens).toBe(withoutTools);
		await again.chat.sendMessage("Again");
		// An explicit choice for one send still wins.
		await again.chat.sendMessage("With tools", { tools: true });
		expect(first.adapter.offered).toEqual([true]);
		expect(again.adapter.offered).toEqual([false, true]);

		await again.chat.setTools(true);
		const third = setup(first.store);
		await third.chat.loadSession(id);
		expect(third.chat.toolsOn).toBe(true);
	});

	it("a new chat starts with tools on, whatever the chat before it had", async () => {
		const { chat } = setup();
		await chat.sendMessage("Hello");
		await chat.setTools(false);
		await chat.newSession();
		expect(chat.toolsOn).toBe(true);
		expect("tools" in (await chat.loadSession(chat.sessionId!))).toBe(false);
	});

	it("a switch set before the first message is saved when that message creates the chat", async () => {
		const { chat, adapter, store, warnings } = setup();
		await chat.setTools(false);
		expect(chat.toolsOn).toBe(false);
		await chat.sendMessage("Hello");
		expect(adapter.offered).toEqual([false]);
		const reloaded = setup(store);
		await reloaded.chat.loadSession(chat.sessionId!);
		expect(reloaded.chat.toolsOn).toBe(false);
		expect(warnings).toEqual([]);
	});

	it("a chat saved before the switch was (no tools record) opens with tools on", async () => {
		const { chat, sessions, adapter } = setup();
		const session = await sessions.create();
		await chat.loadSession(session.id);
		expect(chat.toolsOn).toBe(true);
		await chat.sendMessage("Hello");
		expect(adapter.offered).toEqual([true]);
	});
});
