import { describe, expect, it } from "vitest";
import { capturingConsoleErrors, setup, SMALL, words } from "../support/chatHarness";
import { StubAdapter } from "../support/stubAdapter";
import { LLMError } from "../../src/providers/errors";
import { promptCost } from "../../src/chat/promptCost";
import { TokenCalibration } from "../../src/chat/calibration";
import { ChatService } from "../../src/chat/ChatService";
import { ChatError } from "../../src/chat/errors";
import { estimateTokens } from "../../src/chat/tokens";
import type { ChatMessage, LLMAdapter } from "../../src/core/types";

// What a turn does when something goes wrong: the provider, the store, the caller's callbacks.
describe("ChatService failures", () => {
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
		await expect(chat.sendMessage("Hello", { context: "Line of the note.\n".repeat(2000) })).rejects.toMatchObject({ kind: "context_overflow" });
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
		// The same warning as data, for a panel in another language: its code, and the system's words apart.
		expect(events).toContainEqual(expect.objectContaining({ type: "warning", code: "answer_not_saved", detail: "disk full" }));
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

	it("finishes a turn with the settings and adapter it started with, even when they change mid-turn", async () => {
		const later = new StubAdapter();
		const stub = new StubAdapter({ reply: () => words(60, "answer") });
		const adapter: LLMAdapter = {
			generate: (req) => {
				// A headless caller reconfigures while the turn is summarizing.
				if (req.purpose === "summary") {
					chat.updateSettings({ reservedResponseTokens: 500, systemPrompt: "Changed." });
					chat.setAdapter(later);
				}
				return stub.generate(req);
			},
		};
		const { chat } = setup(adapter);
		for (let i = 0; i < 30 && stub.summaryRequests.length === 0; i++) await chat.sendMessage(`Question ${i}: ${words(40)}`);
		expect(stub.summaryRequests.length).toBeGreaterThan(0);
		expect(later.requests).toHaveLength(0);
		const last = stub.chatRequests[stub.chatRequests.length - 1];
		expect(last?.maxTokens).toBe(128);
		expect(last?.messages[0]?.content.startsWith("Be brief.")).toBe(true);
		// The next turn uses the new ones.
		await chat.sendMessage("Next");
		expect(later.chatRequests[0]?.maxTokens).toBe(500);
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
		const errors = await capturingConsoleErrors(async () => {
			const answer = await chat.sendMessage(`Hi ${words(30)}`);
			expect(answer).toMatchObject({ role: "assistant", content: "Fine answer" });
			expect(calibration.samples("m")).toBe(1);
			expect((await sessions.load(chat.sessionId ?? "")).messages.map((m) => [m.role, m.error])).toEqual([
				["user", undefined],
				["assistant", undefined],
			]);
		});
		expect(errors.length).toBeGreaterThan(0);
	});

	it("keeps the answer when the caller's token listener throws", async () => {
		const { chat } = setup(new StubAdapter({ reply: "Fine answer" }));
		const errors = await capturingConsoleErrors(async () => {
			const answer = await chat.sendMessage("Hi", {
				onToken: () => {
					throw new Error("renderer broke");
				},
			});
			expect(answer).toMatchObject({ role: "assistant", content: "Fine answer" });
			expect(answer.cancelled).toBeUndefined();
		});
		expect(errors.length).toBeGreaterThan(0);
	});
});
