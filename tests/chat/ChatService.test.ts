import { describe, expect, it } from "vitest";
import { copyStore, setup, SMALL, until, words } from "../support/chatHarness";
import { StubAdapter } from "../support/stubAdapter";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { promptCost } from "../../src/chat/promptCost";
import { TokenCalibration, calibratedTokens } from "../../src/chat/calibration";
import { modelTokens } from "../../src/chat/tokenFast";
import { ChatService, type ChatEvent } from "../../src/chat/ChatService";
import { compactionBudget } from "../../src/chat/compaction";
import { estimateTokens } from "../../src/chat/tokens";
import type { ChatMessage, GenerateRequest, GenerateResult, LLMAdapter } from "../../src/core/types";

describe("ChatService turns", () => {
	it("sends the whole history under the budget, the new message once and last, with the right limits", async () => {
		const adapter = new StubAdapter();
		const { chat } = setup(adapter);
		await chat.sendMessage("First question");
		await chat.sendMessage("Second question");
		const last = adapter.chatRequests[1];
		expect(last?.messages.map((m) => m.content)).toEqual(["Be brief.", "First question", "Answer 1.", "Second question"]);
		expect(last?.maxTokens).toBe(128);
		expect(last?.contextWindow).toBe(1024);
		expect(adapter.summaryRequests).toHaveLength(0);
		expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
	});

	it("saves the person's message before the model is asked", async () => {
		const store = new MemoryFileStore();
		const sessions = new SessionManager(store);
		let seen: ChatMessage[] = [];
		const adapter: LLMAdapter = {
			generate: async (): Promise<GenerateResult> => {
				const id = chat.sessionId ?? "";
				seen = (await new SessionManager(store).load(id)).messages;
				return { text: "ok" };
			},
		};
		const chat = new ChatService({ adapter, sessions, settings: SMALL });
		await chat.sendMessage("Keep me");
		expect(seen.map((m) => m.content)).toEqual(["Keep me"]);
	});

	it("summarizes older turns into one persisted system message and keeps the transcript", async () => {
		const adapter = new StubAdapter({ reply: () => words(60, "answer") });
		const { chat, sessions, events } = setup(adapter);
		for (let i = 0; i < 8; i++) await chat.sendMessage(`Question ${i}: ${words(40)}`);
		expect(adapter.summaryRequests.length).toBeGreaterThan(0);
		expect(events.some((e) => e.type === "compacted")).toBe(true);
		expect(events).toContainEqual({ type: "status", text: "Summarizing earlier messages…", code: "summarizing" });
		expect(events).toContainEqual({ type: "status", text: "Continuing conversation…", code: "continuing" });
		const summary = chat.messages[0];
		expect(summary?.role).toBe("system");
		expect(chat.messages.filter((m) => m.role === "system")).toHaveLength(1);
		expect(chat.messages.filter((m) => m.role !== "system")).toHaveLength(16);
		const reloaded = await sessions.load(chat.sessionId ?? "");
		expect(reloaded.messages).toEqual(chat.messages);
		// The last prompt: the summary in the system message, then the newest messages verbatim.
		const last = adapter.chatRequests[adapter.chatRequests.length - 1];
		expect(last?.messages[0]?.content).toContain(summary?.content ?? "?");
		expect(last?.messages.filter((m) => m.content.startsWith("Question 7")).length).toBe(1);
		expect(last?.messages[last.messages.length - 1]?.content.startsWith("Question 7")).toBe(true);
		const budget = compactionBudget({ maxPromptTokens: 1024, reservedResponseTokens: 128 }).prompt;
		for (const r of adapter.chatRequests) expect(promptCost(r.messages as never, estimateTokens)).toBeLessThanOrEqual(budget);
	});

	it("refuses a second send while one is running", async () => {
		const adapter = new StubAdapter({ hangAfter: "Partial" });
		const { chat } = setup(adapter);
		const first = chat.sendMessage("One");
		await expect(chat.sendMessage("Two")).rejects.toMatchObject({ code: "busy" });
		expect(chat.busy).toBe(true);
		await until(() => adapter.chatRequests.length === 1);
		chat.cancel();
		await expect(first).resolves.toMatchObject({ cancelled: true });
		expect(chat.busy).toBe(false);
	});

	it("keeps and saves the partial answer when stopped, and ignores a stop when idle", async () => {
		const adapter = new StubAdapter({ hangAfter: "Half an ans" });
		const { chat, sessions } = setup(adapter);
		chat.cancel();
		const tokens: string[] = [];
		const pending = chat.sendMessage("Tell me", {
			onToken: (d) => {
				tokens.push(d);
				if (tokens.join("") === "Half an ans") chat.cancel();
			},
		});
		const answer = await pending;
		expect(answer).toMatchObject({ role: "assistant", content: "Half an ans", cancelled: true });
		const saved = await sessions.load(chat.sessionId ?? "");
		expect(saved.messages.map((m) => [m.role, m.content, m.cancelled])).toEqual([
			["user", "Tell me", undefined],
			["assistant", "Half an ans", true],
		]);
	});

	it("honours the caller's abort signal", async () => {
		const controller = new AbortController();
		const adapter = new StubAdapter({ hangAfter: "abc" });
		const { chat } = setup(adapter);
		const pending = chat.sendMessage("Hi", { signal: controller.signal, onToken: () => controller.abort() });
		await expect(pending).resolves.toMatchObject({ cancelled: true });
	});

	it("saves the partial answer on flush (the app closing mid-answer)", async () => {
		const adapter = new StubAdapter({ hangAfter: "Streaming" });
		const { chat, sessions } = setup(adapter);
		let started!: () => void;
		const streaming = new Promise<void>((resolve) => (started = resolve));
		const pending = chat.sendMessage("Hi", { onToken: () => started() });
		await streaming;
		await chat.flush();
		await pending;
		const saved = await sessions.load(chat.sessionId ?? "");
		expect(saved.messages[1]).toMatchObject({ role: "assistant", cancelled: true });
		expect(saved.messages[1]?.content.length).toBeGreaterThan(0);
	});


	it("sends only instructions, the document and the message without history, and records the turn", async () => {
		const adapter = new StubAdapter();
		const { chat } = setup(adapter);
		await chat.sendMessage("Earlier");
		await chat.sendMessage("Summarize this note", { includeHistory: false, context: "The note.", contextName: "Note" });
		const last = adapter.chatRequests[1];
		expect(last?.messages.map((m) => m.role)).toEqual(["system", "user"]);
		expect(last?.messages[0]?.content).toBe("Be brief.");
		expect(last?.messages[1]?.content).toContain("The note.");
		expect(last?.messages[1]?.content.endsWith("\n\nSummarize this note")).toBe(true);
		expect(chat.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["Earlier", "Summarize this note"]);
	});


	it("feeds reported usage to the calibration and warns when the server seems to have cut the prompt", async () => {
		const calibration = new TokenCalibration();
		const observed: number[] = [];
		const original = calibration.observe.bind(calibration);
		calibration.observe = (model, estimated, reported) => {
			observed.push(estimated, reported);
			original(model, estimated, reported);
		};
		const adapter = new StubAdapter({ usage: () => ({ promptTokens: 300 }) });
		const events: ChatEvent[] = [];
		const chat = new ChatService({ adapter, sessions: new SessionManager(new MemoryFileStore()), settings: SMALL, calibration, model: "m", onEvent: (e) => events.push(e) });
		await chat.sendMessage("Short");
		expect(observed[1]).toBe(300);
		expect(observed[0]).toBeGreaterThan(0);
		expect(events.some((e) => e.type === "warning")).toBe(false);
		await chat.sendMessage("About this note", { context: "A line of the note.\n".repeat(400) });
		expect(events.some((e) => e.type === "warning" && e.message.includes("may have cut the prompt"))).toBe(true);
	});


	it("fits prompts by the calibrated estimate when the model counts more than the estimator", async () => {
		const calibration = new TokenCalibration({ data: { version: 1, models: { m: [1.6, 1.6, 1.6] } } });
		expect(calibration.factor("m")).toBeCloseTo(1.6);
		const adapter = new StubAdapter({ reply: () => words(60, "answer") });
		const chat = new ChatService({ adapter, sessions: new SessionManager(new MemoryFileStore()), settings: SMALL, calibration, model: "m" });
		for (let i = 0; i < 6; i++) await chat.sendMessage(`Question ${i}: ${words(40)}`, { context: "A line of the note.\n".repeat(300) });
		// The factor scales the estimator's unrounded value; the budget keeps the model's learned margin.
		const calibrated = (t: string): number => (t === "" ? 0 : calibratedTokens(modelTokens(t), 1.6));
		const budget = compactionBudget({ maxPromptTokens: 1024, reservedResponseTokens: 128 }, calibration.margin("m").keep).prompt;
		for (const r of adapter.chatRequests) {
			expect(promptCost(r.messages as never, calibrated)).toBeLessThanOrEqual(budget);
			// Without calibration the same prompt would look much smaller: the factor is really applied.
			expect(promptCost(r.messages as never, estimateTokens)).toBeLessThan(budget * 0.75);
		}
		expect(adapter.summaryRequests.length).toBeGreaterThan(0);
	});

	it("creates a session on the first send and reports the prompt it built", async () => {
		const { chat, events } = setup();
		expect(chat.sessionId).toBeUndefined();
		await chat.sendMessage("Hi", { context: "Note text" });
		expect(chat.sessionId).toBeDefined();
		const prompt = events.find((e) => e.type === "prompt");
		expect(prompt).toMatchObject({ type: "prompt", context: { included: "whole", fraction: 1 } });
	});

	it("previews the same estimate the send then uses, without sending", async () => {
		const adapter = new StubAdapter();
		const { chat, events } = setup(adapter);
		await chat.sendMessage("First");
		const preview = chat.previewPrompt("Second", { context: "Some note text." });
		expect(adapter.chatRequests).toHaveLength(1);
		await chat.sendMessage("Second", { context: "Some note text." });
		const sent = events.filter((e) => e.type === "prompt").pop();
		expect(sent).toMatchObject({ estimatedTokens: preview.estimatedTokens, budget: preview.budget, context: preview.context });
	});
});

describe("ChatService reload", () => {
	it("a reloaded session builds the same prompt as the live one", async () => {
		const reply = (_req: GenerateRequest, i: number) => `Answer ${i}: ${words(50, "detail")}`;
		const live = setup(new StubAdapter({ reply }));
		for (let i = 0; i < 12; i++) await live.chat.sendMessage(`Question ${i}: ${words(30)}`);
		expect(live.chat.messages[0]?.role).toBe("system");
		const snapshot = copyStore(live.store);

		const liveAdapter = new StubAdapter({ reply });
		live.chat.setAdapter(liveAdapter);
		await live.chat.sendMessage("One more", { context: "Note body" });

		const reloadedAdapter = new StubAdapter({ reply });
		const reloaded = setup(reloadedAdapter, SMALL, snapshot);
		await reloaded.chat.loadSession(live.chat.sessionId ?? "");
		await reloaded.chat.sendMessage("One more", { context: "Note body" });

		expect(reloadedAdapter.requests).toEqual(liveAdapter.requests);
		expect(reloaded.chat.messages.map((m) => [m.role, m.content])).toEqual(live.chat.messages.map((m) => [m.role, m.content]));
	});

	it("a send made while a chat is opening goes to that chat", async () => {
		const { chat, sessions } = setup();
		const saved = await sessions.create();
		await sessions.appendMessage(saved.id, { id: "m1", role: "user", content: "Earlier", createdAt: "2026-01-01T00:00:00.000Z" });
		const opening = chat.loadSession(saved.id);
		const answer = await chat.sendMessage("Right away");
		await opening;
		expect(chat.sessionId).toBe(saved.id);
		expect(chat.messages.map((m) => m.content)).toEqual(["Earlier", "Right away", answer.content]);
		expect(await sessions.list()).toHaveLength(1);
		const started = chat.newSession();
		await chat.sendMessage("In the new chat");
		expect(chat.sessionId).toBe((await started).id);
		expect(chat.messages.map((m) => m.content)).toEqual(["In the new chat", "Answer 2."]);
	});

	it("opening another chat stops the running answer, keeps it in its own chat, and does not wait for later sends", async () => {
		const { chat, sessions } = setup(new StubAdapter({ hangAfter: "Half" }));
		let streaming!: () => void;
		const started = new Promise<void>((resolve) => (streaming = resolve));
		const first = chat.sendMessage("Tell me", { onToken: () => streaming() });
		await started;
		const left = chat.sessionId ?? "";
		const other = await sessions.create();
		const opening = chat.loadSession(other.id);
		await expect(first).resolves.toMatchObject({ cancelled: true, content: "Half" });
		await opening;
		expect(chat.sessionId).toBe(other.id);
		expect((await sessions.load(left)).messages.map((m) => m.content)).toEqual(["Tell me", "Half"]);
	});

	it("reports an unknown session clearly", async () => {
		const { chat } = setup();
		await expect(chat.loadSession("nope")).rejects.toMatchObject({ code: "no_session" });
	});
});
