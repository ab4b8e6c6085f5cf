// The turn loop with tools: model → calls → permission → run → results → model.
import { describe, expect, it } from "vitest";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { ChatService, type ChatEvent, type ChatServiceOptions } from "../../src/chat/ChatService";
import { ANSWER_NOW_NOTE, TOOLS_UNSUPPORTED_WARNING } from "../../src/chat/toolLoop";
import { APPROVAL_TIMEOUT_MS } from "../../src/chat/toolRound";
import { LLMError } from "../../src/providers/errors";
import { until, words } from "../support/chatHarness";
import { ScriptedToolAdapter, call, manualTimers, ownIds, recordingTool, type ScriptStep } from "../support/toolScript";
import type { ChatSettings, GenerateRequest, PromptMessage, Tool } from "../../src/core/types";
import { splitPoint } from "../../src/chat/recentWindow";
import type { ToolCard } from "../../src/chat/toolCard";

const SETTINGS: Partial<ChatSettings> = { maxPromptTokens: 4096, reservedResponseTokens: 256, recentMessagesToKeep: 6, minRecentMessagesToKeep: 2, systemPrompt: "Be brief." };

function chatWith(script: (req: GenerateRequest, i: number) => ScriptStep, tools: Tool[], extra: Partial<ChatServiceOptions> = {}, store = new MemoryFileStore()) {
	const adapter = new ScriptedToolAdapter(script);
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	const events: ChatEvent[] = [];
	const chat = new ChatService({ adapter, sessions, settings: SETTINGS, tools, onEvent: (e) => events.push(e), callIds: ownIds(), ...extra });
	const cards = (): ToolCard[] => events.flatMap((e) => (e.type === "tool" ? [e.card] : []));
	return { chat, adapter, sessions, store, events, cards };
}

/** Calls `calls` on the first answer, then answers "Done." */
const once =
	(...calls: ReturnType<typeof call>[]) =>
	(_req: GenerateRequest, i: number): ScriptStep =>
		i === 0 ? { text: "Let me look.", calls } : { text: "Done." };

describe("the tool loop", () => {
	it("runs the model's call, sends the result back, and saves the whole loop in order", async () => {
		const read = recordingTool("read_note", "read", (a) => `Contents of ${String(a.path)}`);
		const c = call("read_note", { path: "Plan.md" });
		const { chat, adapter, sessions } = chatWith(once(c), [read]);
		const answer = await chat.sendMessage("What is in the plan?");
		expect(answer.content).toBe("Done.");
		expect(read.runs).toEqual([{ path: "Plan.md" }]);
		expect(adapter.chatRequests[0]?.tools?.map((t) => t.name)).toEqual(["read_note"]);
		// The engine's id on the call and its result; the server's beside the call, to answer it by.
		expect(adapter.chatRequests[1]?.messages.slice(-3)).toEqual([
			{ role: "user", content: "What is in the plan?" },
			{ role: "assistant", content: "Let me look.", toolCalls: [{ ...c, id: "own_1", serverId: c.id }] },
			{ role: "tool", content: "Contents of Plan.md", toolCallId: "own_1", name: "read_note" },
		]);
		expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
		const reloaded = await sessions.load(chat.sessionId ?? "");
		expect(reloaded.messages).toEqual(chat.messages);
	});

	it("tells each run which call it answers, so a write's undo record and its card share the call's id (the engine's, not the server's)", async () => {
		const ids: (string | undefined)[] = [];
		const tool: Tool = { ...recordingTool("read_note", "read"), run: (_args, ctx) => (ids.push(ctx.callId), Promise.resolve("ok")) };
		// A server that names both calls alike.
		const a = call("read_note", { path: "A.md" }, { id: "call_0" });
		const b = call("read_note", { path: "B.md" }, { id: "call_0" });
		const { chat, cards } = chatWith(once(a, b), [tool]);
		await chat.sendMessage("Read both.");
		expect(ids).toEqual(["own_1", "own_2"]);
		expect([...new Set(cards().map((c) => c.id))]).toEqual(["own_1", "own_2"]);
	});

	it("ends after maxToolRounds, asking the model without tools to answer with what it has", async () => {
		const read = recordingTool("search_notes", "read");
		const { chat, adapter } = chatWith((_r, i) => ({ calls: [call("search_notes", { query: `q${i}` })] }), [read], { settings: { ...SETTINGS, maxToolRounds: 3 } });
		await chat.sendMessage("Search forever");
		expect(read.runs).toHaveLength(3);
		expect(adapter.chatRequests).toHaveLength(4);
		const last = adapter.chatRequests[3];
		expect(last?.tools).toBeUndefined();
		expect(last?.messages[0]?.content).toContain(ANSWER_NOW_NOTE);
		expect(adapter.chatRequests.slice(0, 3).every((r) => r.tools?.length === 1)).toBe(true);
	});

	it("answers malformed arguments and unknown tools with an error result, and the turn goes on", async () => {
		const read = recordingTool("read_note", "read");
		const bad = call("read_note", {}, { invalidArguments: 'Unexpected end of JSON input: {"path": "Pl' });
		const unknown = call("delete_vault", { path: "/" });
		const { chat, adapter } = chatWith(once(bad, unknown), [read]);
		const answer = await chat.sendMessage("Go");
		expect(answer.content).toBe("Done.");
		expect(read.runs).toEqual([]);
		const results = chat.messages.filter((m) => m.role === "tool");
		expect(results.map((m) => [m.toolCallId, m.isError])).toEqual([
			["own_1", true],
			["own_2", true],
		]);
		expect(results[0]?.content).toContain("Unexpected end of JSON input");
		expect(results[1]?.content).toContain('There is no tool named "delete_vault"');
		expect(adapter.chatRequests[1]?.messages.filter((m) => m.role === "tool")).toHaveLength(2);
	});

	it("declines write tools by default and reports a denial's reason to the model", async () => {
		const write = recordingTool("create_note", "write");
		const first = chatWith(once(call("create_note", { path: "New.md" })), [write]);
		await first.chat.sendMessage("Create it");
		expect(write.runs).toEqual([]);
		expect(first.chat.messages.find((m) => m.role === "tool")?.content).toBe("The person declined this call.");

		const second = chatWith(once(call("create_note", { path: "New.md" })), [write], { approve: () => Promise.resolve({ deny: "not in that folder" }) });
		await second.chat.sendMessage("Create it");
		expect(second.chat.messages.find((m) => m.role === "tool")).toMatchObject({ content: "The person declined: not in that folder", isError: true });

		const third = chatWith(once(call("create_note", { path: "New.md" })), [write], { approve: () => Promise.resolve("allow") });
		await third.chat.sendMessage("Create it");
		expect(write.runs).toEqual([{ path: "New.md" }]);
	});

	it("a tool that throws becomes an error result for the model", async () => {
		const broken = recordingTool("read_note", "read", () => new Error("disk on fire"));
		const { chat } = chatWith(once(call("read_note", { path: "A.md" })), [broken]);
		expect((await chat.sendMessage("Read")).content).toBe("Done.");
		expect(chat.messages.find((m) => m.role === "tool")).toMatchObject({ content: "The tool failed: disk on fire", isError: true });
	});

	it("runs parallel calls in call order, each result right after the calls", async () => {
		const order: string[] = [];
		const tool = recordingTool("read_note", "read", (a) => {
			order.push(String(a.path));
			return `text of ${String(a.path)}`;
		});
		const calls = ["A.md", "B.md", "C.md"].map((p) => call("read_note", { path: p }));
		const { chat } = chatWith(once(...calls), [tool]);
		await chat.sendMessage("Read three");
		expect(order).toEqual(["A.md", "B.md", "C.md"]);
		expect(chat.messages.filter((m) => m.role === "tool").map((m) => m.toolCallId)).toEqual(["own_1", "own_2", "own_3"]);
		expect(chat.messages.find((m) => m.role === "assistant")?.toolCalls?.map((c) => c.serverId)).toEqual(calls.map((c) => c.id));
	});

	it("retries once without tools when the model cannot use them, and says so once per chat", async () => {
		const refuse = new LLMError("bad_request", 'Model "tiny" can\'t use tools (Ollama said: does not support tools).', { toolsUnsupported: true });
		const { chat, adapter, events } = chatWith((req) => (req.tools !== undefined ? { error: refuse } : { text: "Plain answer." }), [recordingTool("read_note", "read")]);
		expect((await chat.sendMessage("Hello")).content).toBe("Plain answer.");
		expect(adapter.chatRequests.map((r) => r.tools !== undefined)).toEqual([true, false]);
		await chat.sendMessage("Again");
		const warnings = events.filter((e) => e.type === "warning" && e.message === TOOLS_UNSUPPORTED_WARNING);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatchObject({ code: "tools_unsupported" });
		// The model is known to refuse: the next turn goes without tools at once.
		expect(adapter.chatRequests.map((r) => r.tools !== undefined)).toEqual([true, false, false]);
		expect(chat.messages.filter((m) => m.error !== undefined)).toEqual([]);
	});

	it("offers no tools to a send with tools: false", async () => {
		const { chat, adapter } = chatWith(() => ({ text: "ok" }), [recordingTool("read_note", "read")]);
		await chat.sendMessage("Summarize", { tools: false });
		expect(adapter.chatRequests[0]?.tools).toBeUndefined();
	});

	it("emits each call's card: input streaming, waiting for permission, running, done or failed", async () => {
		const c1 = call("read_note", { path: "A.md" });
		const c2 = call("create_note", { path: "B.md" });
		const { chat, cards } = chatWith(once(c1, c2), [recordingTool("read_note", "read"), recordingTool("create_note", "write")]);
		await chat.sendMessage("Go");
		const states = (id: string): string[] => cards().filter((c) => c.id === id).map((c) => c.state + (c.waitingFor !== undefined ? `:${c.waitingFor}` : ""));
		// Each card goes by the engine's id from the call's first streamed fragment on.
		expect(states("own_1")).toEqual(["input", "input", "input", "waiting:permission", "running", "done"]);
		expect(states("own_2")).toEqual(["input", "input", "input", "waiting:permission", "failed"]);
		expect(cards().find((c) => c.id === "own_1" && c.state === "input" && c.argumentsText !== "")?.argumentsText).toBe('{"path":"A.md"}');
		expect(cards().find((c) => c.id === "own_2" && c.state === "failed")?.error).toBe("The person declined this call.");
		expect(cards().some((c) => c.id === c1.id || c.id === c2.id)).toBe(false);
	});
});

describe("a failure after tool rounds", () => {
	it("keeps the person's message with the calls and results, and the failed answer says why", async () => {
		const c = call("read_note", { path: "A.md" });
		const { chat, adapter } = chatWith((_r, i) => (i === 0 ? { calls: [c] } : i === 1 ? { error: new LLMError("server", "Stub failure: server") } : { text: "ok" }), [recordingTool("read_note", "read")]);
		await expect(chat.sendMessage("Read A")).rejects.toMatchObject({ kind: "server" });
		expect(chat.messages.map((m) => [m.role, m.error !== undefined])).toEqual([
			["user", false],
			["assistant", false],
			["tool", false],
			["assistant", true],
		]);
		await chat.sendMessage("Try again");
		expect(adapter.chatRequests[2]?.messages.slice(1).map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
	});
});

describe("permission and Stop", () => {
	it("a permission request nobody answers expires after 5 minutes as a denial (no answer)", async () => {
		const timers = manualTimers();
		const write = recordingTool("create_note", "write");
		const { chat, cards } = chatWith(once(call("create_note", { path: "X.md" })), [write], { approve: () => new Promise(() => undefined), timers });
		const sent = chat.sendMessage("Create");
		await until(() => cards().some((c) => c.state === "waiting"), "the permission card");
		expect([...timers.pending.values()].some((t) => t.ms === APPROVAL_TIMEOUT_MS)).toBe(true);
		timers.fire(APPROVAL_TIMEOUT_MS);
		expect((await sent).content).toBe("Done.");
		expect(write.runs).toEqual([]);
		expect(chat.messages.find((m) => m.role === "tool")?.content).toBe("The person declined: no answer");
	});

	it("Stop while a permission is pending denies it and ends the turn, the call keeping its result", async () => {
		const { chat, adapter, cards, sessions } = chatWith(once(call("create_note", { path: "X.md" }), call("read_note", { path: "Y.md" })), [recordingTool("create_note", "write"), recordingTool("read_note", "read")], {
			approve: () => new Promise(() => undefined),
		});
		const sent = chat.sendMessage("Create");
		await until(() => cards().some((c) => c.state === "waiting"), "the permission card");
		chat.cancel();
		const answer = await sent;
		expect(answer.cancelled).toBe(true);
		expect(adapter.chatRequests).toHaveLength(1);
		const results = chat.messages.filter((m) => m.role === "tool");
		expect(results).toHaveLength(2);
		expect(results.every((m) => m.isError === true)).toBe(true);
		await chat.flush();
		const reloaded = await sessions.load(chat.sessionId ?? "");
		expect(reloaded.messages).toEqual(chat.messages);
	});

	it("Stop while a tool runs aborts the tool's signal and keeps what was said and done", async () => {
		let seen: AbortSignal | undefined;
		const slow: Tool = {
			name: "read_note",
			description: "reads",
			parameters: { type: "object" },
			access: "read",
			run: (_args, ctx) => {
				seen = ctx.signal;
				return new Promise(() => undefined);
			},
		};
		const fast = recordingTool("search_notes", "read");
		const { chat, cards, sessions } = chatWith(once(call("search_notes", { query: "plan" }), call("read_note", { path: "Plan.md" })), [slow, fast]);
		const sent = chat.sendMessage("Find the plan");
		await until(() => cards().some((c) => c.name === "read_note" && c.state === "running"), "the running tool");
		chat.cancel();
		const answer = await sent;
		expect(answer.cancelled).toBe(true);
		expect(seen?.aborted).toBe(true);
		// The running call's card shows that it ended.
		expect(cards().filter((c) => c.name === "read_note").pop()).toMatchObject({ state: "failed", error: "The person stopped the chat while this call ran." });
		expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
		expect(chat.messages[2]?.content).toBe("search_notes result");
		await chat.flush();
		expect((await sessions.load(chat.sessionId ?? "")).messages).toEqual(chat.messages);
	});
});

describe("tool results and the budget", () => {
	const big = (n: number): string => Array.from({ length: n }, (_, i) => `## Part ${i}\n${words(40, i % 7 === 3 ? "budget" : "filler")}`).join("\n\n");

	it("fits a large read result to its share by relevance, and cuts other results with a note", async () => {
		const read = recordingTool("read_note", "read", () => big(200));
		const write = recordingTool("edit_note", "write", () => big(200));
		const { chat, adapter, events } = chatWith(once(call("read_note", { path: "Big.md" }), call("edit_note", { path: "Big.md" })), [read, write], { approve: () => Promise.resolve("allow") });
		await chat.sendMessage("What is the budget?");
		const [readResult, writeResult] = chat.messages.filter((m) => m.role === "tool");
		expect(readResult?.content.length).toBeLessThan(big(200).length / 2);
		expect(readResult?.content).toContain("budget");
		expect(writeResult?.content).toMatch(/\[Result cut: the first part of [\d,]+ tokens is shown\.\]$/);
		const prompts = events.flatMap((e) => (e.type === "prompt" ? [e] : []));
		expect(prompts.every((p) => p.estimatedTokens <= p.budget)).toBe(true);
		expect(adapter.chatRequests).toHaveLength(2);
	});

	it("a large read leaves the conversation its room: earlier turns are not summarized to make space for it", async () => {
		const read = recordingTool("read_note", "read", () => big(400));
		const { chat, adapter } = chatWith((req, i) => (req.messages[req.messages.length - 1]?.content === "Read the big note" && i === 4 ? { calls: [call("read_note", { path: "Big.md" })] } : { text: `Answer ${i}: ${words(60, "detail")}` }), [read]);
		for (let i = 0; i < 4; i++) await chat.sendMessage(`Question ${i}: ${words(60, "context")}`);
		await chat.sendMessage("Read the big note");
		expect(read.runs).toHaveLength(1);
		expect(adapter.requests.filter((r) => r.purpose === "summary")).toEqual([]);
		const last = adapter.chatRequests[adapter.chatRequests.length - 1];
		for (let i = 0; i < 4; i++) expect(last?.messages.some((m) => m.content.startsWith(`Question ${i}:`))).toBe(true);
	});

	it("stubs older tool results before any conversation text is summarized", async () => {
		const read = recordingTool("read_note", "read", () => big(60));
		const { chat, adapter } = chatWith((_r, i) => (i % 2 === 0 ? { calls: [call("read_note", { path: `Projects/Plan${i}.md` })] } : { text: `Answer ${i}.` }), [read]);
		for (let i = 0; i < 4; i++) await chat.sendMessage(`Question ${i}`);
		expect(adapter.requests.filter((r) => r.purpose === "summary")).toEqual([]);
		const last = adapter.chatRequests[adapter.chatRequests.length - 1];
		const stubs = last?.messages.filter((m) => m.role === "tool" && / \([\d,]+ tokens\), omitted$/.test(m.content)) ?? [];
		expect(stubs.length).toBeGreaterThan(0);
		expect(stubs[0]?.content).toMatch(/^read_note Projects\/Plan0\.md \([\d,]+ tokens\), omitted$/);
		// Every question is still there, verbatim.
		for (let i = 0; i < 4; i++) expect(last?.messages.some((m) => m.role === "user" && m.content === `Question ${i}`)).toBe(true);
	});

	it("the next prompt after a reload is the prompt without one", async () => {
		const script = (_r: GenerateRequest, i: number): ScriptStep => (i % 3 < 2 ? { text: `Step ${i}`, calls: [call("read_note", { path: `N${i}.md` })] } : { text: `Answer ${i}.` });
		const read = recordingTool("read_note", "read", () => big(30));
		const store = new MemoryFileStore();
		const live = chatWith(script, [read], {}, store);
		for (let i = 0; i < 3; i++) await live.chat.sendMessage(`Question ${i}`);
		await live.chat.flush();
		const reloaded = chatWith(() => ({ text: "x" }), [read], {}, store);
		await reloaded.chat.loadSession(live.chat.sessionId ?? "");
		// The live chat's next prompt, without a reload.
		const direct = new ScriptedToolAdapter(() => ({ text: "x" }));
		live.chat.setAdapter(direct);
		await live.chat.sendMessage("Next");
		await reloaded.chat.sendMessage("Next");
		expect(reloaded.adapter.chatRequests[0]?.messages).toEqual(direct.chatRequests[0]?.messages);
	});
});

describe("compaction keeps a call with its results", () => {
	it("never splits the older block between an assistant's calls and their results", () => {
		const c = call("read_note", { path: "A.md" });
		const history: PromptMessage[] = [
			{ role: "user", content: "q1" },
			{ role: "assistant", content: "", toolCalls: [c, c] },
			{ role: "tool", content: "r1", toolCallId: c.id },
			{ role: "tool", content: "r2", toolCallId: c.id },
			{ role: "assistant", content: "a1" },
			{ role: "user", content: "q2" },
		];
		for (let limit = 1; limit <= history.length; limit++) {
			const split = splitPoint(history, limit);
			expect(history[split]?.role, `limit ${limit}`).not.toBe("tool");
			expect(history[split - 1]?.toolCalls, `limit ${limit}`).toBeUndefined();
		}
	});
});
