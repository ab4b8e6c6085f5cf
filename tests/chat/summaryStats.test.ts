// What a turn's other requests cost: the summary requests compaction makes before the answer
// (counted on that answer, apart from its own tokens: the server's counts when it reports them,
// estimates when not, and which) and a prompt the server refused as too long before the retry
// (counted, never billed). Saved with the answer, in the chat's totals and the session index.
import { describe, expect, it } from "vitest";
import { SMALL, setup, words } from "../support/chatHarness";
import { StubAdapter } from "../support/stubAdapter";
import { chatUsage } from "../../src/core/answerStats";
import { promptCost } from "../../src/chat/promptCost";
import { estimateTokens } from "../../src/chat/tokens";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { ChatService } from "../../src/chat/ChatService";
import { parseSessionFile } from "../../src/sessions/records";
import type { ChatMessage, GenerateRequest, GenerateResult, LLMAdapter, Usage } from "../../src/core/types";

/** The stub's answers and summaries, with `usage(request, n)` for the n-th request of its purpose. */
function withUsage(stub: StubAdapter, usage: (req: GenerateRequest, n: number) => Usage | undefined): LLMAdapter & { summaries: { req: GenerateRequest; text: string }[] } {
	const counts = { chat: 0, summary: 0 };
	const summaries: { req: GenerateRequest; text: string }[] = [];
	return {
		summaries,
		generate: async (req): Promise<GenerateResult> => {
			const result = await stub.generate(req);
			if (req.purpose === "summary") summaries.push({ req, text: result.text });
			const u = usage(req, counts[req.purpose]++);
			return u === undefined ? result : { ...result, usage: u };
		},
	};
}

/** Sends turns until one makes summary requests; returns every answer and the index of that turn. */
async function untilSummarized(chat: ChatService, adapter: { summaries: unknown[] }): Promise<{ answers: ChatMessage[]; at: number; made: number }> {
	const answers: ChatMessage[] = [];
	for (let i = 0; i < 12; i++) {
		const before = adapter.summaries.length;
		answers.push(await chat.sendMessage(`Question ${i}: ${words(40)}`));
		if (adapter.summaries.length > before) return { answers, at: i, made: adapter.summaries.length - before };
	}
	throw new Error("no turn summarized");
}

describe("summary requests in the answer's stats", () => {
	it("the answer whose turn summarized carries the summary requests' reported counts apart from its own; the chat's totals include them", async () => {
		const adapter = withUsage(new StubAdapter({ reply: () => words(60, "answer") }), (req, n) =>
			// The chat's count comes with its cached part (0): a whole count, which no guard sets aside (cacheCounts.ts).
			req.purpose === "summary" ? { promptTokens: 1000 + n, completionTokens: 50 } : { promptTokens: 300, completionTokens: 60, cachedPromptTokens: 0 },
		);
		const store = new MemoryFileStore();
		const { chat, sessions } = setup(adapter, SMALL, store);
		const { answers, at, made } = await untilSummarized(chat, adapter);
		const answer = answers[at]!;
		// Its own counts are the chat request's, as before; the summary requests are apart.
		expect(answer.stats).toMatchObject({ promptTokens: 300, answerTokens: 60, requests: 1, reported: { prompt: true, answer: true } });
		const summaryPrompt = Array.from({ length: made }, (_, i) => 1000 + i).reduce((a, b) => a + b, 0);
		expect(answer.stats?.summary).toEqual({ promptTokens: summaryPrompt, answerTokens: 50 * made, reported: { prompt: true, answer: true }, requests: made });
		// The turns before it summarized nothing, and say nothing about it.
		for (const earlier of answers.slice(0, at)) expect(earlier.stats?.summary).toBeUndefined();
		// The chat's totals (what the history and the popover show) include them, once.
		const expected = { promptTokens: 300 * answers.length + summaryPrompt, answerTokens: 60 * answers.length + 50 * made, answers: answers.length, requests: answers.length + made, reported: true };
		expect(chatUsage(chat.messages)).toMatchObject(expected);
		expect(chatUsage(chat.messages)?.models).toEqual([{ model: expect.any(String) as string, promptTokens: expected.promptTokens, answerTokens: expected.answerTokens, cachedPromptTokens: 0 }]);
		// Saved in the JSONL: a reload shows them again, and the index's totals include them.
		const reloaded = await new SessionManager(store, { onWarning: () => undefined }).load(chat.sessionId ?? "");
		expect(reloaded.messages.find((m) => m.id === answer.id)?.stats).toEqual(answer.stats);
		expect((await sessions.list())[0]?.usage).toMatchObject(expected);
	});

	it("estimates a summary request's counts when the server reports none, and says so", async () => {
		// The chat requests are counted by the server; the summary requests are not.
		const adapter = withUsage(new StubAdapter({ reply: () => words(60, "answer") }), (req) => (req.purpose === "chat" ? { promptTokens: 300, completionTokens: 60 } : undefined));
		const { chat } = setup(adapter, SMALL);
		const { answers, at, made } = await untilSummarized(chat, adapter);
		const stats = answers[at]!.stats;
		expect(stats?.reported).toEqual({ prompt: true, answer: true });
		const sent = adapter.summaries.slice(-made);
		// The engine's estimates of what it sent and what came back (no calibration yet: the raw estimator).
		const prompt = sent.reduce((sum, s) => sum + promptCost(s.req.messages, estimateTokens), 0);
		const written = sent.reduce((sum, s) => sum + estimateTokens(s.text), 0);
		expect(prompt).toBeGreaterThan(0);
		expect(stats?.summary).toEqual({ promptTokens: prompt, answerTokens: written, reported: { prompt: false, answer: false }, requests: made });
		expect(chatUsage(chat.messages)?.reported).toBe(false);
	});

	it("estimates only the summary count the server left out", async () => {
		const adapter = withUsage(new StubAdapter({ reply: () => words(60, "answer") }), (req) => (req.purpose === "summary" ? { promptTokens: 900 } : { promptTokens: 300, completionTokens: 60 }));
		const { chat } = setup(adapter, SMALL);
		const { answers, at, made } = await untilSummarized(chat, adapter);
		expect(answers[at]!.stats?.summary).toMatchObject({ promptTokens: 900 * made, reported: { prompt: true, answer: false }, requests: made });
		expect(answers[at]!.stats?.summary?.answerTokens).toBeGreaterThan(0);
	});

	it("a summary request that failed (the naive shortening stood in) is not counted", async () => {
		const adapter = withUsage(new StubAdapter({ reply: () => words(60, "answer"), failSummaries: true }), () => ({ promptTokens: 300, completionTokens: 60 }));
		const { chat, events } = setup(adapter, SMALL);
		const answers: ChatMessage[] = [];
		for (let i = 0; i < 8; i++) answers.push(await chat.sendMessage(`Question ${i}: ${words(40)}`));
		expect(events.some((e) => e.type === "compacted")).toBe(true);
		expect(answers.every((a) => a.stats !== undefined && a.stats.summary === undefined)).toBe(true);
	});
});

describe("a prompt refused as too long, then retried", () => {
	const WIDE = { maxPromptTokens: 8192, reservedResponseTokens: 512, recentMessagesToKeep: 6, minRecentMessagesToKeep: 2, systemPrompt: "Be brief." };
	const note = "The harbour opens at six and closes at nine.\n".repeat(300);

	it("counts the refused request and its wait, but no tokens for it", async () => {
		const clock = { t: 10_000 };
		const stub = new StubAdapter({ overflowTimes: 1 });
		// The refusal takes 300 ms; the retry answers 200 ms after it is sent.
		const adapter: LLMAdapter = {
			generate: async (req) => {
				if (req.purpose !== "chat") return stub.generate(req);
				clock.t += 100;
				const before = stub.chatRequests.length;
				try {
					const result = await stub.generate(req);
					req.onToken?.(result.text);
					clock.t += 100;
					return { ...result, usage: { promptTokens: 2000, completionTokens: 20 } };
				} catch (err) {
					if (stub.chatRequests.length > before) clock.t += 200;
					throw err;
				}
			},
		};
		const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
		const chat = new ChatService({ adapter, sessions, settings: WIDE, now: () => clock.t });
		const answer = await chat.sendMessage("When does the harbour open?", { context: note });
		expect(stub.chatRequests).toHaveLength(2);
		// Only the retry's tokens: the refused prompt was not billed, and the server gave no count for it.
		expect(answer.stats).toMatchObject({ promptTokens: 2000, answerTokens: 20, requests: 1, refused: 1, reported: { prompt: true, answer: true } });
		// The time to the first token is the retry's; the duration runs from the refused request.
		expect(answer.stats?.firstTokenMs).toBe(100);
		expect(answer.stats?.durationMs).toBe(500);
		expect(chatUsage(chat.messages)).toMatchObject({ promptTokens: 2000, answerTokens: 20, requests: 1 });
	});

	it("a turn that was not refused says nothing about refusals", async () => {
		const { chat } = setup(new StubAdapter(), WIDE);
		const answer = await chat.sendMessage("When does the harbour open?", { context: note });
		expect(answer.stats?.refused).toBeUndefined();
	});

	it("the retry's summary of earlier messages is counted with the refusal", async () => {
		const stub = new StubAdapter({ reply: () => words(60, "answer") });
		const adapter = withUsage(stub, (req) => (req.purpose === "summary" ? { promptTokens: 700, completionTokens: 40 } : { promptTokens: 300, completionTokens: 60 }));
		const { chat } = setup(adapter, WIDE);
		for (let i = 0; i < 4; i++) await chat.sendMessage(`Question ${i}: ${words(40)}`);
		expect(adapter.summaries).toHaveLength(0);
		// The server refuses the next prompt: the retry is forced down to the minimum window, summarizing the rest.
		let refuse = true;
		const original = stub.generate.bind(stub);
		stub.generate = (req) => {
			if (req.purpose === "chat" && refuse) {
				refuse = false;
				return Promise.reject(Object.assign(new Error("the prompt is longer than the context length"), { kind: "context_overflow" }));
			}
			return original(req);
		};
		const answer = await chat.sendMessage(`Question 4: ${words(40)}`);
		expect(adapter.summaries.length).toBeGreaterThan(0);
		expect(answer.stats).toMatchObject({ refused: 1, requests: 1, promptTokens: 300, summary: { promptTokens: 700 * adapter.summaries.length, answerTokens: 40 * adapter.summaries.length, requests: adapter.summaries.length } });
	});
});

describe("saved summary and refusal counts", () => {
	const base = { id: "a1", role: "assistant", content: "Kept.", createdAt: "2026-01-01T00:00:00.000Z" };
	const own = { promptTokens: 10, answerTokens: 2, reported: { prompt: true, answer: true }, requests: 1, model: "m" };
	const load = (...stats: unknown[]): (ChatMessage["stats"] | null)[] => {
		const lines = [{ type: "session", v: 1, id: "s", createdAt: base.createdAt, title: "T" }, ...stats.map((s, i) => ({ type: "message", message: { ...base, id: `a${i}`, stats: s } }))];
		return parseSessionFile(lines.map((l) => JSON.stringify(l)).join("\n") + "\n").records.slice(1).map((r) => (r.type === "message" ? r.message.stats : null));
	};

	it("older answers without them load as before; saved ones load as saved", () => {
		const summary = { promptTokens: 1540, answerTokens: 212, reported: { prompt: true, answer: false }, requests: 2 };
		expect(load(own, { ...own, summary, refused: 1 })).toEqual([own, { ...own, summary, refused: 1 }]);
	});

	it("a damaged summary or refusal count is dropped alone; the answer keeps its own stats", () => {
		const [noSummary, badRefused, oneFlag] = load({ ...own, summary: { promptTokens: "lots" } }, { ...own, refused: -1 }, { ...own, summary: { promptTokens: 5, answerTokens: 1, reported: false } });
		expect(noSummary).toEqual(own);
		expect(badRefused).toEqual(own);
		// One flag for both counts reads as both (as on the answer's own); missing requests read as one.
		expect(oneFlag).toEqual({ ...own, summary: { promptTokens: 5, answerTokens: 1, reported: { prompt: false, answer: false }, requests: 1 } });
	});
});
