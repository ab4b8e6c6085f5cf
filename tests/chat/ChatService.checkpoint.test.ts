// The answer being streamed is on disk: checkpoints every 2 s, at once on request,
// superseded by the final answer; after a crash the partial answer is shown as interrupted.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { copyStore, SMALL } from "../support/chatHarness";
import { ManualAdapter } from "../support/manualAdapter";
import { nodeTimers } from "../support/nodeTimers";
import { StubAdapter } from "../support/stubAdapter";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { CHECKPOINT_INTERVAL_MS } from "../../src/chat/answerCheckpoint";
import { ChatService, type ChatEvent } from "../../src/chat/ChatService";
import type { ChatMessage, LLMAdapter } from "../../src/core/types";

const TOKEN_GAP_MS = 100;

/** Lets promise chains (the session store's queue) run to the end. */
async function settle(): Promise<void> {
	for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

function build(adapter: LLMAdapter, store = new MemoryFileStore()) {
	const sessions = new SessionManager(store, { now: () => Date.now(), onWarning: () => undefined });
	const events: ChatEvent[] = [];
	const chat = new ChatService({
		adapter,
		sessions,
		settings: SMALL,
		now: () => Date.now(),
		// Node's timers, which vi.useFakeTimers replaces, injected as the engine's scheduler.
		timers: nodeTimers,
		onEvent: (e) => events.push(e),
	});
	return { chat, sessions, store, events };
}

/** What a fresh start of the app finds in the store. */
async function reopen(store: MemoryFileStore, id: string): Promise<ChatMessage[]> {
	return (await new SessionManager(copyStore(store), { onWarning: () => undefined }).load(id)).messages;
}

/** The checkpoint records in the session's file: assistant records still marked interrupted. */
function checkpointRecords(store: MemoryFileStore, id: string): { at: string; content: string }[] {
	const text = store.files.get(`sessions/${id}.jsonl`) ?? "";
	return text
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line) as { type: string; at?: string; message?: ChatMessage })
		.filter((r) => r.message?.role === "assistant" && r.message.interrupted === true)
		.map((r) => ({ at: r.at ?? "", content: r.message?.content ?? "" }));
}

function assistantRecords(store: MemoryFileStore, id: string): number {
	const text = store.files.get(`sessions/${id}.jsonl`) ?? "";
	return text.split("\n").filter((line) => line.includes('"role":"assistant"')).length;
}

/** Starts a turn and streams `count` tokens, one every TOKEN_GAP_MS; returns the tokens and their times. */
async function stream(adapter: ManualAdapter, count: number, sent: { text: string; at: number }[] = []) {
	for (let i = 0; i < count; i++) {
		await vi.advanceTimersByTimeAsync(TOKEN_GAP_MS);
		const text = `t${sent.length} `;
		adapter.token(text);
		sent.push({ text, at: Date.now() });
	}
	await settle();
	return sent;
}

/** Sends `text` and waits until the model streams; the answer's promise is wrapped so it is not awaited here. */
async function startTurn(adapter: ManualAdapter, chat: ChatService, text = "Question"): Promise<{ answer: Promise<ChatMessage> }> {
	const answer = chat.sendMessage(text);
	for (let i = 0; i < 20 && !adapter.streaming; i++) await settle();
	expect(adapter.streaming).toBe(true);
	return { answer };
}

beforeEach(() => {
	vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
	vi.setSystemTime(Date.parse("2026-03-01T10:00:00Z"));
});
afterEach(() => {
	vi.useRealTimers();
});

describe("checkpoints of the answer being streamed", () => {
	it("checkpoints every 2 s while the answer streams, and never more often", async () => {
		const adapter = new ManualAdapter();
		const { chat, store } = build(adapter);
		const { answer: pending } = await startTurn(adapter, chat);
		const id = chat.sessionId ?? "";
		await stream(adapter, 90); // 9 s of tokens
		const checkpoints = checkpointRecords(store, id);
		expect(checkpoints).toHaveLength(4);
		const times = checkpoints.map((c) => Date.parse(c.at));
		for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(CHECKPOINT_INTERVAL_MS);
		// Each checkpoint holds the whole answer so far, growing.
		for (let i = 1; i < checkpoints.length; i++) expect(checkpoints[i]!.content.startsWith(checkpoints[i - 1]!.content)).toBe(true);
		adapter.finish();
		await pending;
	});

	it("writes no checkpoint for an answer shorter than 2 s", async () => {
		const adapter = new ManualAdapter();
		const { chat, store } = build(adapter);
		const { answer: pending } = await startTurn(adapter, chat);
		await stream(adapter, 15);
		adapter.finish();
		await pending;
		const id = chat.sessionId ?? "";
		expect(checkpointRecords(store, id)).toHaveLength(0);
		expect(assistantRecords(store, id)).toBe(1);
	});

	it("writes nothing while the model is quiet, and resumes 2 s after text comes again", async () => {
		const adapter = new ManualAdapter();
		const { chat, store } = build(adapter);
		const { answer: pending } = await startTurn(adapter, chat);
		const id = chat.sessionId ?? "";
		await stream(adapter, 25);
		expect(checkpointRecords(store, id)).toHaveLength(1);
		await vi.advanceTimersByTimeAsync(20_000);
		expect(checkpointRecords(store, id)).toHaveLength(2);
		await stream(adapter, 1);
		await vi.advanceTimersByTimeAsync(CHECKPOINT_INTERVAL_MS - 1);
		expect(checkpointRecords(store, id)).toHaveLength(2);
		await vi.advanceTimersByTimeAsync(1);
		expect(checkpointRecords(store, id)).toHaveLength(3);
		adapter.finish();
		await pending;
	});

	it("checkpoints at once when asked (the app is hidden), without waiting for the 2 s", async () => {
		const adapter = new ManualAdapter();
		const { chat, store } = build(adapter);
		const { answer: pending } = await startTurn(adapter, chat);
		const id = chat.sessionId ?? "";
		const sent = await stream(adapter, 3);
		await chat.checkpointNow();
		const saved = await reopen(store, id);
		expect(saved[saved.length - 1]).toMatchObject({ role: "assistant", content: sent.map((s) => s.text).join(""), interrupted: true });
		adapter.finish();
		await pending;
		await expect(chat.checkpointNow()).resolves.toBeUndefined();
	});
});

describe("a crash mid-answer", () => {
	it("keeps the thinking streamed so far with the checkpoint, before the answer's first word", async () => {
		const adapter = new ManualAdapter();
		const { chat, store } = build(adapter);
		void (await startTurn(adapter, chat)).answer.catch(() => undefined);
		const id = chat.sessionId ?? "";
		for (let i = 0; i < 30; i++) {
			await vi.advanceTimersByTimeAsync(TOKEN_GAP_MS);
			adapter.think(`step ${i}. `);
		}
		const saved = await reopen(store, id);
		expect(saved.at(-1)).toMatchObject({ role: "assistant", content: "", interrupted: true });
		expect(saved.at(-1)?.thinking?.startsWith("step 0. step 1.")).toBe(true);
	});

	it.each([2_500, 5_050, 7_999])("keeps the partial answer, marked interrupted, missing at most its last 2 s (crash at %i ms)", async (crashAt) => {
		const adapter = new ManualAdapter();
		const { chat, store } = build(adapter);
		void (await startTurn(adapter, chat)).answer.catch(() => undefined);
		const started = Date.now();
		const id = chat.sessionId ?? "";
		const sent = await stream(adapter, Math.floor(crashAt / TOKEN_GAP_MS));
		// The crash: the turn never completes; a fresh start of the app reads what is on disk.
		const crashTime = started + crashAt;
		const saved = await reopen(store, id);
		const answer = saved[saved.length - 1];
		expect(answer).toMatchObject({ role: "assistant", interrupted: true });
		const full = sent.map((s) => s.text).join("");
		expect(full.startsWith(answer?.content ?? "?")).toBe(true);
		const mustHave = sent.filter((s) => s.at <= crashTime - CHECKPOINT_INTERVAL_MS).map((s) => s.text).join("");
		expect(answer?.content.length).toBeGreaterThanOrEqual(mustHave.length);
		expect(saved.filter((m) => m.role === "assistant")).toHaveLength(1);
	});

	it("treats the interrupted answer like a stopped one in later prompts", async () => {
		const adapter = new ManualAdapter();
		const { chat, store } = build(adapter);
		void (await startTurn(adapter, chat, "Tell me about Alpha")).answer.catch(() => undefined);
		const id = chat.sessionId ?? "";
		await stream(adapter, 30);
		const partial = (await reopen(store, id)).at(-1)?.content ?? "";
		expect(partial).not.toBe("");

		// After the crash: the app starts again on what the disk holds, and the chat goes on.
		const stub = new StubAdapter({ reply: "Go on." });
		const after = build(stub, copyStore(store));
		const session = await after.chat.loadSession(id);
		expect(session.messages.at(-1)).toMatchObject({ role: "assistant", content: partial, interrupted: true });
		await after.chat.sendMessage("Continue");
		expect(stub.chatRequests[0]?.messages.map((m) => [m.role, m.content])).toEqual([
			["system", "Be brief."],
			["user", "Tell me about Alpha"],
			["assistant", partial],
			["user", "Continue"],
		]);
		// A stopped answer with the same text would have been sent the same way.
		const saved = await reopen(after.store, id);
		expect(saved.map((m) => [m.role, m.interrupted === true])).toEqual([
			["user", false],
			["assistant", true],
			["user", false],
			["assistant", false],
		]);
	});
});

describe("the final answer supersedes its checkpoints", () => {
	it("a finished answer leaves exactly one answer, not the checkpoint beside it", async () => {
		const adapter = new ManualAdapter();
		const { chat, store } = build(adapter);
		const { answer: pending } = await startTurn(adapter, chat);
		const id = chat.sessionId ?? "";
		const sent = await stream(adapter, 50);
		expect(checkpointRecords(store, id).length).toBeGreaterThan(0);
		adapter.finish();
		const answer = await pending;
		expect(answer.content).toBe(sent.map((s) => s.text).join(""));
		expect(answer.interrupted).toBeUndefined();
		const saved = await reopen(store, id);
		expect(saved).toEqual(chat.messages);
		expect(saved.filter((m) => m.role === "assistant")).toHaveLength(1);
	});

	it("a stopped answer leaves exactly one answer, marked stopped and not interrupted", async () => {
		const adapter = new ManualAdapter();
		const { chat, store } = build(adapter);
		const { answer: pending } = await startTurn(adapter, chat);
		const id = chat.sessionId ?? "";
		await stream(adapter, 50);
		chat.cancel();
		const answer = await pending;
		expect(answer).toMatchObject({ cancelled: true });
		expect(answer.interrupted).toBeUndefined();
		const saved = await reopen(store, id);
		expect(saved).toEqual(chat.messages);
		expect(saved.filter((m) => m.role === "assistant")).toHaveLength(1);
	});

	it("a failed turn leaves no answer on disk, as it leaves none on screen", async () => {
		const adapter = new ManualAdapter();
		const { chat, store } = build(adapter);
		const { answer: pending } = await startTurn(adapter, chat);
		const id = chat.sessionId ?? "";
		await stream(adapter, 50);
		adapter.fail();
		await expect(pending).rejects.toMatchObject({ kind: "network" });
		const saved = await reopen(store, id);
		expect(saved).toEqual(chat.messages);
		expect(saved.map((m) => m.role)).toEqual(["user"]);
		expect(saved[0]?.error).toBeDefined();
	});

	it("over random token, pause, hide and stop schedules, a finished or stopped answer is the one answer on disk", async () => {
		type Step = { kind: "token"; gap: number } | { kind: "hide"; gap: number };
		const step = fc.oneof(
			{ weight: 5, arbitrary: fc.record({ kind: fc.constant("token" as const), gap: fc.integer({ min: 0, max: 3_000 }) }) },
			{ weight: 1, arbitrary: fc.record({ kind: fc.constant("hide" as const), gap: fc.integer({ min: 0, max: 3_000 }) }) },
		);
		const turn = fc.record({ steps: fc.array(step, { maxLength: 40 }), end: fc.constantFrom("finish", "finishWithText", "stop", "fail") });
		await fc.assert(
			fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 3 }), async (turns) => {
				const adapter = new ManualAdapter();
				const { chat, store } = build(adapter);
				let answered = 0;
				for (const [n, t] of turns.entries()) {
					const pending = chat.sendMessage(`Question ${n}`).catch((err: unknown) => err);
					for (let i = 0; i < 20 && !adapter.streaming; i++) await settle();
					const steps: Step[] = t.steps;
					let text = "";
					for (const s of steps) {
						await vi.advanceTimersByTimeAsync(s.gap);
						if (s.kind === "token") {
							const piece = `w${text.length} `;
							text += piece;
							adapter.token(piece);
						} else await chat.checkpointNow();
					}
					if (t.end === "stop") chat.cancel();
					else if (t.end === "fail") adapter.fail();
					else adapter.finish(t.end === "finishWithText" ? "Whole answer." : "");
					await pending;
					const expected = t.end === "finishWithText" ? "Whole answer." : text;
					const id = chat.sessionId ?? "";
					const saved = await reopen(store, id);
					expect(saved).toEqual(chat.messages);
					expect(saved.some((m) => m.interrupted === true)).toBe(false);
					const answers = saved.filter((m) => m.role === "assistant");
					if (t.end !== "fail") answered++;
					expect(answers).toHaveLength(answered);
					if (t.end !== "fail") expect(answers.at(-1)?.content).toBe(expected);
					// Timers of the ended turn write nothing more.
					const before = store.files.get(`sessions/${id}.jsonl`);
					await vi.advanceTimersByTimeAsync(10_000);
					expect(store.files.get(`sessions/${id}.jsonl`)).toBe(before);
				}
				const saved = await reopen(store, chat.sessionId ?? "");
				expect(saved.filter((m) => m.role === "assistant")).toHaveLength(answered);
				expect(saved.filter((m) => m.role === "user")).toHaveLength(turns.length);
			}),
			{ numRuns: 60 },
		);
	});
});
