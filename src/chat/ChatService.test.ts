import { describe, expect, it } from "vitest";
import { StubAdapter } from "../../tests/support/stubAdapter";
import { MemoryFileStore } from "../sessions/memoryStore";
import { SessionManager } from "../sessions/SessionManager";
import { promptCost } from "./promptCost";
import { TokenCalibration } from "./calibration";
import { ChatService, type ChatEvent } from "./ChatService";
import { compactionBudget } from "./compaction";
import { LLMError } from "../providers/errors";
import { ChatError } from "./errors";
import { estimateTokens } from "./tokens";
import type { ChatMessage, ChatSettings, GenerateRequest, GenerateResult, LLMAdapter } from "./types";

const SMALL: Partial<ChatSettings> = { maxPromptTokens: 1024, reservedResponseTokens: 128, recentMessagesToKeep: 4, minRecentMessagesToKeep: 2, systemPrompt: "Be brief." };

function setup(adapter: LLMAdapter = new StubAdapter(), settings: Partial<ChatSettings> = SMALL, store = new MemoryFileStore()) {
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	const events: ChatEvent[] = [];
	const chat = new ChatService({ adapter, sessions, settings, onEvent: (e) => events.push(e) });
	return { chat, sessions, store, events };
}

function copyStore(store: MemoryFileStore): MemoryFileStore {
	const copy = new MemoryFileStore();
	for (const [k, v] of store.files) copy.files.set(k, v);
	return copy;
}

const words = (n: number, word = "word"): string => Array.from({ length: n }, () => word).join(" ");

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
		expect(events).toContainEqual({ type: "status", text: "Summarizing earlier messages…" });
		expect(events).toContainEqual({ type: "status", text: "Continuing conversation…" });
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
		chat.cancel();
		await first;
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

	it("retries a context overflow once with a smaller prompt", async () => {
		const adapter = new StubAdapter({ overflowTimes: 1 });
		const { chat } = setup(adapter);
		const answer = await chat.sendMessage("Hello", { context: "Line of the note.\n".repeat(2000) });
		expect(answer.content).toBe("Answer 1.");
		const [first, second] = adapter.chatRequests;
		expect(adapter.chatRequests).toHaveLength(2);
		expect(promptCost(second?.messages as never, estimateTokens)).toBeLessThan(promptCost(first?.messages as never, estimateTokens));
	});

	it.each([
		["the default window", SMALL],
		["no recent messages kept", { ...SMALL, recentMessagesToKeep: 0, minRecentMessagesToKeep: 0 }],
	])("an overflow retry after a summary made in the same turn sends exactly what follows it (%s)", async (_name, settings) => {
		// The first summary is inserted at index 0 during the first attempt, shifting the new message by one.
		let answers = 0;
		const stub = new StubAdapter({ reply: () => `Answer ${answers++}: ${words(60, "answer")}` });
		let summarized = false;
		let overflowed = false;
		const chatRequests: { role: string; content: string }[][] = [];
		const adapter: LLMAdapter = {
			generate: (req) => {
				if (req.purpose === "summary") summarized = true;
				else chatRequests.push(req.messages.map((m) => ({ ...m })));
				if (req.purpose === "chat" && summarized && !overflowed) {
					overflowed = true;
					return Promise.reject(new LLMError("context_overflow", "too long"));
				}
				return stub.generate(req);
			},
		};
		const { chat, events } = setup(adapter, settings);
		for (let n = 0; n < 30 && !overflowed; n++) {
			chatRequests.length = 0;
			events.length = 0;
			await chat.sendMessage(`Question ${n}: ${words(40)}`);
		}
		expect(overflowed).toBe(true);
		expect(chatRequests).toHaveLength(2);
		const transcript = chat.messages.filter((m) => m.role !== "system");
		const position = (id: string | undefined): number => transcript.findIndex((m) => m.id === id);
		const summaries = events.flatMap((e) => (e.type === "message" && e.message.role === "system" ? [e.message] : []));
		expect(summaries.length).toBeGreaterThan(0);
		// Each new summary covers at least what the one before it covered.
		for (let i = 1; i < summaries.length; i++) expect(position(summaries[i]?.summaryOf)).toBeGreaterThanOrEqual(position(summaries[i - 1]?.summaryOf));
		// Whatever the final summary does not cover goes out verbatim, up to the new message.
		const last = summaries[summaries.length - 1];
		const expected = transcript.slice(position(last?.summaryOf) + 1, -1).map((m) => m.content);
		expect(chatRequests[1]?.slice(1).map((m) => m.content)).toEqual(expected);
	});

	it("rejects a second overflow with its kind and keeps the message", async () => {
		const adapter = new StubAdapter({ overflowTimes: 2 });
		const { chat, sessions } = setup(adapter);
		await expect(chat.sendMessage("Hello")).rejects.toMatchObject({ kind: "context_overflow" });
		expect(adapter.chatRequests).toHaveLength(2);
		const saved = await sessions.load(chat.sessionId ?? "");
		expect(saved.messages).toHaveLength(1);
		expect(saved.messages[0]).toMatchObject({ role: "user", content: "Hello" });
	});

	it("rejects other failures with their kind, records no answer, and a retry does not duplicate the message", async () => {
		const failing = new StubAdapter({ failChatWith: "network" });
		const { chat, sessions } = setup(failing);
		await expect(chat.sendMessage("Are you there?")).rejects.toMatchObject({ kind: "network" });
		expect(chat.messages).toHaveLength(1);
		expect(chat.messages[0]?.error).toBeDefined();
		const working = new StubAdapter();
		chat.setAdapter(working);
		await chat.sendMessage("Are you there?");
		expect(working.chatRequests[0]?.messages.filter((m) => m.content === "Are you there?")).toHaveLength(1);
		const saved = await sessions.load(chat.sessionId ?? "");
		expect(saved.messages.map((m) => [m.role, m.error])).toEqual([
			["user", undefined],
			["assistant", undefined],
		]);
	});

	it("refuses a blank message without sending or saving anything", async () => {
		const adapter = new StubAdapter();
		const { chat, store } = setup(adapter);
		await expect(chat.sendMessage(" \n\t ")).rejects.toMatchObject({ code: "empty_message" });
		expect(adapter.requests).toHaveLength(0);
		expect(store.files.size).toBe(0);
		expect(chat.busy).toBe(false);
	});

	it("sends nothing when the person's message cannot be saved, and hands the text back", async () => {
		const adapter = new StubAdapter();
		const { chat, sessions } = setup(adapter);
		await chat.sendMessage("First");
		const original = sessions.appendMessage.bind(sessions);
		sessions.appendMessage = () => Promise.reject(new Error("disk full"));
		const err = await chat.sendMessage("Second").catch((e: unknown) => e);
		expect(err).toMatchObject({ code: "storage", text: "Second" });
		expect((err as Error).message).toContain("disk full");
		expect(adapter.chatRequests).toHaveLength(1);
		expect(chat.messages.map((m) => m.content)).toEqual(["First", "Answer 1."]);
		sessions.appendMessage = original;
		await chat.sendMessage("Second");
		expect((await sessions.load(chat.sessionId ?? "")).messages.map((m) => m.content)).toEqual(["First", "Answer 1.", "Second", "Answer 2."]);
	});

	it("keeps and returns the answer with a warning when it cannot be saved", async () => {
		const { chat, sessions, events } = setup(new StubAdapter({ reply: "Kept on screen" }));
		await chat.sendMessage("First");
		const original = sessions.appendMessage.bind(sessions);
		sessions.appendMessage = (id, message) => (message.role === "assistant" ? Promise.reject(new Error("disk full")) : original(id, message));
		const answer = await chat.sendMessage("Second");
		expect(answer).toMatchObject({ role: "assistant", content: "Kept on screen" });
		expect(chat.messages[chat.messages.length - 1]).toBe(answer);
		expect(events.some((e) => e.type === "warning" && e.message.includes("could not be saved"))).toBe(true);
	});

	it("refuses a message too long for the model, naming both sizes, sending and saving nothing", async () => {
		const adapter = new StubAdapter();
		const { chat, store } = setup(adapter);
		const text = words(2000);
		const err = await chat.sendMessage(text).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(ChatError);
		const chatErr = err as ChatError;
		expect(chatErr.code).toBe("message_too_long");
		expect(chatErr.text).toBe(text);
		expect(chatErr.messageTokens).toBeGreaterThan(chatErr.maxMessageTokens ?? Infinity);
		expect(chatErr.message).toContain((chatErr.messageTokens ?? 0).toLocaleString("en-US"));
		expect(chatErr.message).toContain((chatErr.maxMessageTokens ?? 0).toLocaleString("en-US"));
		expect(adapter.requests).toHaveLength(0);
		expect(chat.messages).toHaveLength(0);
		expect([...store.files.values()].join("")).not.toContain("word word");
	});

	it("sends only instructions, the document and the message without history, and records the turn", async () => {
		const adapter = new StubAdapter();
		const { chat } = setup(adapter);
		await chat.sendMessage("Earlier");
		await chat.sendMessage("Summarize this note", { includeHistory: false, context: "The note.", contextName: "Note" });
		const last = adapter.chatRequests[1];
		expect(last?.messages.map((m) => m.role)).toEqual(["system", "user"]);
		expect(last?.messages[0]?.content).toContain("The note.");
		expect(chat.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["Earlier", "Summarize this note"]);
	});

	it("still sends the turn without history, with a warning, when the history cannot be prepared", async () => {
		const adapter = new StubAdapter();
		const { chat, events } = setup(adapter);
		await chat.sendMessage("First");
		// A damaged message, as a broken session file might yield.
		(chat.messages as ChatMessage[])[0] = { id: "x", role: "user", content: undefined as unknown as string, createdAt: "" };
		const answer = await chat.sendMessage("Second");
		expect(answer.content).toBe("Answer 2.");
		expect(adapter.chatRequests[1]?.messages.map((m) => m.content)).toEqual(["Be brief.", "Second"]);
		expect(events.some((e) => e.type === "warning" && e.message.includes("sent without them"))).toBe(true);
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

	it("keeps a good answer when saving the calibration throws", async () => {
		const calibration = new TokenCalibration({
			onChange: () => {
				throw new Error("settings could not be saved");
			},
		});
		const adapter = new StubAdapter({ reply: "Fine answer", usage: () => ({ promptTokens: 40 }) });
		const { sessions } = setup();
		const chat = new ChatService({ adapter, sessions, settings: SMALL, calibration, model: "m" });
		const errors: unknown[] = [];
		const original = console.error;
		console.error = (...args: unknown[]) => errors.push(args);
		try {
			const answer = await chat.sendMessage(`Hi ${words(30)}`);
			expect(answer).toMatchObject({ role: "assistant", content: "Fine answer" });
			expect(calibration.samples("m")).toBe(1);
			expect((await sessions.load(chat.sessionId ?? "")).messages.map((m) => [m.role, m.error])).toEqual([
				["user", undefined],
				["assistant", undefined],
			]);
			expect(errors.length).toBeGreaterThan(0);
		} finally {
			console.error = original;
		}
	});

	it("keeps the answer when the caller's token listener throws", async () => {
		const { chat } = setup(new StubAdapter({ reply: "Fine answer" }));
		const errors: unknown[] = [];
		const original = console.error;
		console.error = (...args: unknown[]) => errors.push(args);
		try {
			const answer = await chat.sendMessage("Hi", {
				onToken: () => {
					throw new Error("renderer broke");
				},
			});
			expect(answer).toMatchObject({ role: "assistant", content: "Fine answer" });
			expect(answer.cancelled).toBeUndefined();
			expect(errors.length).toBeGreaterThan(0);
		} finally {
			console.error = original;
		}
	});

	it("fits prompts by the calibrated estimate when the model counts more than the estimator", async () => {
		const calibration = new TokenCalibration({ data: { version: 1, models: { m: [1.6, 1.6, 1.6] } } });
		expect(calibration.factor("m")).toBeCloseTo(1.6);
		const adapter = new StubAdapter({ reply: () => words(60, "answer") });
		const chat = new ChatService({ adapter, sessions: new SessionManager(new MemoryFileStore()), settings: SMALL, calibration, model: "m" });
		for (let i = 0; i < 6; i++) await chat.sendMessage(`Question ${i}: ${words(40)}`, { context: "A line of the note.\n".repeat(300) });
		const calibrated = (t: string): number => Math.ceil(estimateTokens(t) * 1.6);
		const budget = compactionBudget({ maxPromptTokens: 1024, reservedResponseTokens: 128 }).prompt;
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

	it("reports an unknown session clearly", async () => {
		const { chat } = setup();
		await expect(chat.loadSession("nope")).rejects.toMatchObject({ code: "no_session" });
	});
});
