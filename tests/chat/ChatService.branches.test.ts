import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { CONTINUE_INSTRUCTION } from "../../src/chat/turnMode";
import { chatErrorCode } from "../../src/chat/errors";
import { LLMError } from "../../src/providers/errors";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { ChatMessage, ChatSettings } from "../../src/core/types";
import { ScriptedAdapter } from "../support/scriptedAdapter";
import { copyStore } from "../support/chatHarness";

const ROOMY: Partial<ChatSettings> = { maxPromptTokens: 8192, reservedResponseTokens: 256, systemPrompt: "Be brief." };

function setup(settings: Partial<ChatSettings> = ROOMY, store = new MemoryFileStore()) {
	const adapter = new ScriptedAdapter();
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	const chat = new ChatService({ adapter, sessions, settings });
	return { adapter, sessions, chat, store };
}

const texts = (messages: readonly ChatMessage[]): string[] => messages.filter((m) => m.role !== "system").map((m) => m.content);
const promptTexts = (adapter: ScriptedAdapter): string[] => (adapter.lastChat?.messages ?? []).filter((m) => m.role !== "system").map((m) => m.content);
const fileText = (store: MemoryFileStore): string => [...store.files.values()].map((v) => (typeof v === "string" ? v : new TextDecoder().decode(v))).join("\n");

describe("regenerate", () => {
	it("gives a new answer to the last message and keeps the old one as an alternative", async () => {
		const { adapter, chat, store } = setup();
		await chat.sendMessage("first question");
		const old = await chat.sendMessage("second question");
		const fresh = await chat.regenerate();
		expect(texts(chat.messages)).toEqual(["first question", "answer 1", "second question", "answer 3"]);
		// The prompt holds the question once, without the answer being replaced.
		expect(promptTexts(adapter)).toEqual(["first question", "answer 1", "second question"]);
		expect(await chat.alternatives(fresh.id)).toEqual({ ids: [old.id, fresh.id], index: 1 });
		// Switching to the old answer shows it again; the reload agrees.
		await chat.switchBranch(old.id);
		expect(texts(chat.messages)).toEqual(["first question", "answer 1", "second question", "answer 2"]);
		expect(texts((await new SessionManager(copyStore(store)).load(chat.sessionId!)).messages)).toEqual(texts(chat.messages));
	});

	it("refuses when there is no message to answer again", async () => {
		const { chat } = setup();
		await chat.newSession();
		expect(chatErrorCode(await chat.regenerate().catch((e: unknown) => e))).toBe("no_such_turn");
	});
});

describe("edit a message", () => {
	it("branches at the message; the earlier branch stays in the file and can be switched back to", async () => {
		const { adapter, chat, store } = setup();
		const first = await chat.sendMessage("one");
		await chat.sendMessage("two");
		await chat.sendMessage("three");
		const twoId = chat.messages.find((m) => m.content === "two")!.id;
		await chat.editMessage(twoId, "two, edited");
		expect(texts(chat.messages)).toEqual(["one", "answer 1", "two, edited", "answer 4"]);
		expect(promptTexts(adapter)).toEqual(["one", "answer 1", "two, edited"]);
		expect(fileText(store)).toContain("three");
		const alternatives = await chat.alternatives(chat.messages[2]!.id);
		expect(alternatives.ids).toEqual([twoId, chat.messages[2]!.id]);
		await chat.switchBranch(twoId);
		expect(texts(chat.messages)).toEqual(["one", "answer 1", "two", "answer 2", "three", "answer 3"]);
		expect(first.content).toBe("answer 1");
	});

	it("editing the first message starts a branch with nothing before it", async () => {
		const { adapter, chat } = setup();
		await chat.sendMessage("one");
		await chat.sendMessage("two");
		await chat.editMessage(chat.messages[0]!.id, "uno");
		expect(texts(chat.messages)).toEqual(["uno", "answer 3"]);
		expect(promptTexts(adapter)).toEqual(["uno"]);
	});

	it("an empty edit is refused before the branch changes", async () => {
		const { chat } = setup();
		await chat.sendMessage("one");
		const before = texts(chat.messages);
		expect(chatErrorCode(await chat.editMessage(chat.messages[0]!.id, "  ").catch((e: unknown) => e))).toBe("empty_message");
		expect(texts(chat.messages)).toEqual(before);
	});
});

describe("continue a stopped answer", () => {
	it("sends the partial answer and an instruction, and appends the continuation to the same answer", async () => {
		const { adapter, chat, store } = setup();
		await chat.sendMessage("tell me a story");
		const stop = new AbortController();
		adapter.stopNext = { partial: "Once upon", stop: () => stop.abort() };
		const stopped = await chat.sendMessage("another one", { signal: stop.signal });
		expect(stopped.cancelled).toBe(true);
		const continued = await chat.continueAnswer();
		expect(adapter.lastChat?.messages.slice(-3)).toEqual([
			{ role: "user", content: "another one" },
			{ role: "assistant", content: "Once upon" },
			{ role: "user", content: CONTINUE_INSTRUCTION },
		]);
		expect(continued.id).toBe(stopped.id);
		expect(continued.content).toBe("Once uponanswer 2");
		expect(continued.cancelled).toBeUndefined();
		expect(texts(chat.messages)).toEqual(["tell me a story", "answer 1", "another one", "Once uponanswer 2"]);
		const reloaded = await new SessionManager(copyStore(store)).load(chat.sessionId!);
		expect(texts(reloaded.messages)).toEqual(texts(chat.messages));
	});

	it("a continuation that fails leaves the answer as it was, in the chat and in the file", async () => {
		const { adapter, chat, store } = setup();
		const stop = new AbortController();
		adapter.stopNext = { partial: "Half an", stop: () => stop.abort() };
		const stopped = await chat.sendMessage("question", { signal: stop.signal });
		adapter.failNext = { error: new LLMError("server", "Stub failure"), partial: " answ" };
		await expect(chat.continueAnswer()).rejects.toThrow("Stub failure");
		expect(chat.messages[chat.messages.length - 1]).toEqual(stopped);
		const reloaded = await new SessionManager(copyStore(store)).load(chat.sessionId!);
		expect(reloaded.messages[reloaded.messages.length - 1]).toEqual(stopped);
	});

	it("continues an answer the app was closed during (interrupted), after a reload", async () => {
		const { adapter, chat, sessions, store } = setup();
		await chat.sendMessage("question");
		const cut: ChatMessage = { id: "cut", role: "assistant", content: "It began", createdAt: new Date().toISOString(), interrupted: true };
		await sessions.appendMessage(chat.sessionId!, cut);
		const reopened = new ChatService({ adapter, sessions: new SessionManager(copyStore(store)), settings: ROOMY });
		await reopened.loadSession(chat.sessionId!);
		const continued = await reopened.continueAnswer();
		expect(continued).toMatchObject({ id: "cut", content: "It beganans" + "wer 2" });
		expect(continued.interrupted).toBeUndefined();
	});

	it("the continuation's thinking is saved as it came, without the answer's text before it", async () => {
		const { adapter, chat } = setup();
		const stop = new AbortController();
		adapter.stopNext = { partial: "First half", stop: () => stop.abort() };
		await chat.sendMessage("question", { signal: stop.signal });
		adapter.thinkNext = "Where was I?";
		const continued = await chat.continueAnswer();
		expect(continued.thinking).toBe("Where was I?");
		expect(continued.content).toBe("First halfanswer 1");
	});

	it("refuses a complete answer", async () => {
		const { chat } = setup();
		await chat.sendMessage("hi");
		expect(chatErrorCode(await chat.continueAnswer().catch((e: unknown) => e))).toBe("no_such_turn");
	});
});

describe("while an answer is being written", () => {
	it("branch changes wait their turn: regenerate, delete and switch are refused as busy", async () => {
		const { adapter, chat } = setup();
		await chat.sendMessage("one");
		let release: () => void = () => undefined;
		adapter.holdNext = new Promise<void>((resolve) => (release = resolve));
		const running = chat.sendMessage("two");
		await new Promise((resolve) => setImmediate(resolve));
		expect(chat.busy).toBe(true);
		expect(chatErrorCode(await chat.regenerate().catch((e: unknown) => e))).toBe("busy");
		expect(chatErrorCode(await chat.deleteTurn(chat.messages[0]!.id).catch((e: unknown) => e))).toBe("busy");
		expect(chatErrorCode(await chat.switchBranch(chat.messages[0]!.id).catch((e: unknown) => e))).toBe("busy");
		release();
		expect((await running).content).toBe("answer 2");
	});
});

describe("regenerate after a failure", () => {
	it("answers the failed message again, without its failure mark, and without a second copy of it", async () => {
		const { adapter, chat } = setup();
		adapter.failNext = { error: new LLMError("server", "down") };
		await chat.sendMessage("please").catch(() => undefined);
		expect(chat.messages[0]?.error).toBeDefined();
		await chat.regenerate();
		expect(texts(chat.messages)).toEqual(["please", "answer 1"]);
		expect(chat.messages[0]?.error).toBeUndefined();
	});
});

describe("delete a turn", () => {
	it("hides the turn from the chat and the prompt, keeps it in the file, and restores it", async () => {
		const { adapter, chat, sessions, store } = setup();
		await chat.sendMessage("keep me");
		await chat.sendMessage("secret plan");
		await chat.sendMessage("keep me too");
		const secret = chat.messages.find((m) => m.content === "secret plan")!;
		await chat.deleteTurn(secret.id);
		expect(texts(chat.messages)).toEqual(["keep me", "answer 1", "keep me too", "answer 3"]);
		await chat.sendMessage("next");
		expect(promptTexts(adapter).join("\n")).not.toContain("secret plan");
		expect(fileText(store)).toContain("secret plan");
		expect((await sessions.hiddenTurns(chat.sessionId!)).map((m) => m.content)).toEqual(["secret plan"]);
		await chat.restoreTurn(secret.id);
		expect(texts(chat.messages)).toContain("secret plan");
	});
});

describe("summaries and branches", () => {
	it("a summary made on one branch is never sent on another", async () => {
		const small: Partial<ChatSettings> = { maxPromptTokens: 600, reservedResponseTokens: 100, recentMessagesToKeep: 2, minRecentMessagesToKeep: 2, systemPrompt: "Be brief." };
		const { adapter, chat, sessions } = setup(small);
		const long = (n: number): string => `message ${n} ` + "lorem ipsum dolor sit amet ".repeat(12);
		await chat.sendMessage(long(1));
		await chat.sendMessage(long(2));
		for (let i = 3; i < 9; i++) await chat.sendMessage(long(i));
		const summary = chat.messages[0];
		expect(summary?.role).toBe("system");
		// Edit the second message: the new branch holds only the first turn, which no summary covers.
		// The summary covers it, so it is found in the file.
		const [hit] = await sessions.search("message 2 ");
		await chat.editMessage(hit!.messageId, "short edit");
		const system = adapter.lastChat?.messages[0]?.content ?? "";
		expect(system).not.toContain(summary!.content);
		expect(chat.messages[0]?.role).not.toBe("system");
	});
});

describe("search and branches", () => {
	it("finds text on every branch, says which branch, and loading the hit opens it", async () => {
		const { chat, sessions } = setup();
		await chat.sendMessage("apples");
		await chat.sendMessage("bananas");
		await chat.editMessage(chat.messages[2]!.id, "cherries");
		const [hit] = await sessions.search("bananas");
		expect(hit?.onActiveBranch).toBe(false);
		const [shown] = await sessions.search("cherries");
		expect(shown?.onActiveBranch).toBe(true);
		const opened = await chat.loadSession(hit!.sessionId, { at: hit!.messageId });
		expect(texts(opened.messages)).toEqual(["apples", "answer 1", "bananas", "answer 2"]);
		expect(opened.messages[opened.messages.length - 1]?.id).toBe(hit!.leafId);
	});
});


describe("a chat switch before the branch opens", () => {
	it("a regenerate asked for just before loading another chat does not write into either", async () => {
		const { chat, sessions } = setup();
		await chat.sendMessage("in the first chat");
		const first = chat.sessionId!;
		const second = (await sessions.create()).id;
		const loading = chat.loadSession(second);
		const regenerating = chat.regenerate();
		await loading;
		expect(chatErrorCode(await regenerating.catch((e: unknown) => e))).toBe("no_such_turn");
		expect(chat.sessionId).toBe(second);
		expect(chat.messages).toEqual([]);
		expect(texts((await sessions.load(first)).messages)).toEqual(["in the first chat", "answer 1"]);
	});
});
