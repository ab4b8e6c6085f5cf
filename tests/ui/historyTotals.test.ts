// @vitest-environment happy-dom
// The history browser shows each chat's total (tokens, and cost when its models are priced),
// computed from the answers' saved stats (their turns' summary requests included) and kept in the
// session index, so the list stays fast.
import { afterEach, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, flush } from "../obsidian/harness";
import { HistoryModal } from "../../src/ui/history/HistoryModal";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { fakeWorld, message, testSettings } from "./fakes";
import type { AnswerStats } from "../../src/core/types";

afterEach(() => {
	document.body.empty();
});

const stats = (model: string, promptTokens: number, answerTokens: number): AnswerStats => ({ promptTokens, answerTokens, reported: { prompt: true, answer: true }, requests: 1, model });

describe("history totals", () => {
	it("each chat shows its tokens, and its cost when priced; a chat without stats shows none", async () => {
		const app = await createTestApp();
		const world = fakeWorld(asObsidianApp(app), testSettings({ modelPrices: [{ model: "gpt-4o-mini", input: 0.15, output: 0.6 }] }));
		const s = world.sessions;
		s.add("Priced", [message("user", "q"), message("assistant", "a", { stats: stats("gpt-4o-mini", 1_000_000, 100_000) }), message("user", "q2"), message("assistant", "b", { stats: stats("gpt-4o-mini", 500_000, 0) })], "2026-01-03T10:00:00.000Z");
		s.add("Local", [message("user", "q"), message("assistant", "a", { stats: stats("llama3.2", 3_000, 500) })], "2026-01-02T10:00:00.000Z");
		s.add("Old", [message("user", "q"), message("assistant", "a")], "2026-01-01T10:00:00.000Z");
		new HistoryModal(asObsidianApp(app), world.host, s, { activeSessionId: undefined, onLoad: () => undefined, onToPrompt: () => undefined }).open();
		await flush();
		await flush();
		const totals = Array.from(document.body.querySelectorAll<HTMLElement>(".discover-chat-history-item")).map((i) => i.querySelector(".discover-chat-history-item-total")?.textContent ?? null);
		// 1.5M × 0.15 + 0.1M × 0.6 per million = $0.285.
		expect(totals).toEqual(["2M tokens · $0.285", "3.5K tokens", null]);
	});

	it("a chat's total includes the summaries of earlier messages its answers' turns made, in the list and in the index", async () => {
		const summary = { promptTokens: 400_000, answerTokens: 20_000, reported: { prompt: true, answer: true }, requests: 2 };
		const app = await createTestApp();
		const world = fakeWorld(asObsidianApp(app), testSettings({ modelPrices: [{ model: "gpt-4o-mini", input: 0.15, output: 0.6 }] }));
		world.sessions.add("Summarized", [message("user", "q"), message("assistant", "a", { stats: { ...stats("gpt-4o-mini", 1_000_000, 100_000), summary } })], "2026-01-03T10:00:00.000Z");
		new HistoryModal(asObsidianApp(app), world.host, world.sessions, { activeSessionId: undefined, onLoad: () => undefined, onToPrompt: () => undefined }).open();
		await flush();
		await flush();
		// 1.4M × 0.15 + 0.12M × 0.6 per million = $0.282, over 1.52M tokens (without the summary: 1.1M, $0.21).
		expect(document.body.querySelector(".discover-chat-history-item-total")?.textContent).toBe("2M tokens · $0.282");

		const store = new MemoryFileStore();
		const sessions = new SessionManager(store, { onWarning: () => undefined });
		const session = await sessions.create();
		await sessions.appendMessage(session.id, message("user", "q"));
		await sessions.appendMessage(session.id, message("assistant", "a", { stats: { ...stats("m1", 100, 10), summary: { promptTokens: 50, answerTokens: 5, reported: { prompt: false, answer: true }, requests: 1 } } }));
		const expected = { promptTokens: 150, answerTokens: 15, answers: 1, requests: 2, reported: false, models: [{ model: "m1", promptTokens: 150, answerTokens: 15 }] };
		expect((await sessions.list())[0]?.usage).toEqual(expected);
		expect((await new SessionManager(store, { onWarning: () => undefined }).list())[0]?.usage).toEqual(expected);
	});

	it("the session list carries each chat's totals from the saved stats, through the index and a rebuild of a damaged one", async () => {
		const store = new MemoryFileStore();
		const sessions = new SessionManager(store, { onWarning: () => undefined });
		const session = await sessions.create();
		await sessions.appendMessage(session.id, message("user", "q"));
		await sessions.appendMessage(session.id, message("assistant", "a", { stats: stats("m1", 100, 10) }));
		await sessions.appendMessage(session.id, message("assistant", "b", { stats: stats("m2", 200, 20) }));
		const expected = { promptTokens: 300, answerTokens: 30, answers: 2, requests: 2, reported: true, models: [{ model: "m1", promptTokens: 100, answerTokens: 10 }, { model: "m2", promptTokens: 200, answerTokens: 20 }] };
		expect((await sessions.list())[0]?.usage).toEqual(expected);
		// A new manager reads the index file: the totals come from it.
		expect((await new SessionManager(store, { onWarning: () => undefined }).list())[0]?.usage).toEqual(expected);
		// A damaged total in the index is not shown: the chat is summarized again from its file.
		const [indexPath, indexText] = [...store.files].find(([path]) => path.endsWith("index.json")) ?? [];
		expect(indexPath).toBeDefined();
		const index = JSON.parse(indexText ?? "") as { sessions: { usage: unknown }[] };
		index.sessions[0]!.usage = { promptTokens: "lots" };
		store.files.set(indexPath!, JSON.stringify(index));
		expect((await new SessionManager(store, { onWarning: () => undefined }).list())[0]?.usage).toEqual(expected);
	});
});
