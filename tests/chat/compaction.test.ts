import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { messageTextArb } from "../support/scriptTexts";
import { StubAdapter } from "../support/stubAdapter";
import { promptCost } from "../../src/chat/promptCost";
import { CONDENSED_PREFIX, compactHistory, compactionBudget, type CompactionInput } from "../../src/chat/compaction";
import { buildPrompt } from "../../src/chat/prompt";
import { MAX_COMPACTION_REQUESTS, MAX_SUMMARY_REQUESTS, PREVIOUS_SUMMARY_PREFIX, SUMMARY_INSTRUCTION } from "../../src/chat/summarizer";
import { estimateTokens } from "../../src/chat/tokens";
import type { ChatMessage, PromptMessage } from "../../src/core/types";
import { fixedCost } from "../../src/chat/recentWindow";
import { budgetSettingsArb } from "../support/settingsArb";

function conversation(turns: number, words = 20): ChatMessage[] {
	const out: ChatMessage[] = [];
	for (let i = 0; i < turns; i++) {
		out.push({ id: `u${i}`, role: "user", content: `Question ${i}: ${"word ".repeat(words)}`.trim(), createdAt: "" });
		out.push({ id: `a${i}`, role: "assistant", content: `Answer ${i}: ${"reply ".repeat(words)}`.trim(), createdAt: "" });
	}
	return out;
}

function input(adapter: StubAdapter, history: ChatMessage[], over: Partial<CompactionInput> = {}): CompactionInput {
	return {
		adapter,
		systemPrompt: "Be helpful.",
		history,
		current: "The new question.",
		settings: { recentMessagesToKeep: 6, minRecentMessagesToKeep: 2 },
		budget: compactionBudget({ maxPromptTokens: 2048, reservedResponseTokens: 256 }),
		estimate: estimateTokens,
		...over,
	};
}

/** The prompt the engine would send after compaction, without a document. */
function promptAfter(i: CompactionInput, summary: string | undefined, recent: PromptMessage[]) {
	return buildPrompt({ systemPrompt: i.systemPrompt, summary, history: recent, current: i.current, budget: i.budget.prompt, estimate: i.estimate });
}

function requestFits(i: CompactionInput, r: { purpose: string; messages: { role: string; content: string }[]; maxTokens: number; contextWindow: number }): boolean {
	const messages = r.messages.map((m) => ({ role: m.role as "user", content: m.content }));
	return promptCost(messages, i.estimate) <= i.budget.summaryRequest && r.maxTokens <= i.budget.summaryMaxTokens && r.contextWindow === i.budget.contextWindow;
}

describe("compactHistory", () => {
	it("changes nothing and asks nothing within the budget", async () => {
		const adapter = new StubAdapter();
		const history = conversation(3);
		const result = await compactHistory(input(adapter, history, { previousSummary: "Old summary." }));
		expect(adapter.requests).toHaveLength(0);
		expect(result.summary).toBe("Old summary.");
		expect(result.summaryOf).toBeUndefined();
		expect(result.recent).toEqual(history.map((m) => ({ role: m.role, content: m.content })));
	});

	it("summarizes the older block with the instruction and the previous summary, keeping the last N verbatim", async () => {
		const adapter = new StubAdapter();
		const history = conversation(20, 30);
		const i = input(adapter, history, { previousSummary: "They met." });
		const result = await compactHistory(i);
		expect(result.recent).toEqual(history.slice(-6).map((m) => ({ role: m.role, content: m.content })));
		expect(result.summaryOf).toBe(history[history.length - 7]?.id);
		expect(history[history.length - 7]?.role).toBe("assistant");
		expect(result.summarizedCount).toBe(history.length - 6);
		const first = adapter.summaryRequests[0];
		expect(first?.messages[0]).toEqual({ role: "system", content: SUMMARY_INSTRUCTION });
		expect(first?.messages[1]?.content.startsWith(`${PREVIOUS_SUMMARY_PREFIX}They met.`)).toBe(true);
		expect(first?.messages[1]?.content).toContain("User: Question 0:");
		expect(adapter.summaryRequests.every((r) => requestFits(i, r))).toBe(true);
		expect(promptAfter(i, result.summary, result.recent).estimatedTokens).toBeLessThanOrEqual(i.budget.prompt);
	});

	it("moves the split so the older block ends on an assistant turn", async () => {
		const adapter = new StubAdapter();
		const history = conversation(20, 30);
		const result = await compactHistory(input(adapter, history, { settings: { recentMessagesToKeep: 5, minRecentMessagesToKeep: 2 } }));
		expect(result.recent[0]?.role).toBe("user");
		expect(history.find((m) => m.id === result.summaryOf)?.role).toBe("assistant");
	});

	it("summarizes a huge older block in pieces that each fit, in a bounded number of requests", async () => {
		const adapter = new StubAdapter();
		const history = conversation(400, 40);
		const i = input(adapter, history);
		const result = await compactHistory(i);
		expect(adapter.summaryRequests.length).toBeGreaterThan(1);
		expect(adapter.summaryRequests.length).toBeLessThanOrEqual(MAX_SUMMARY_REQUESTS);
		expect(adapter.summaryRequests.every((r) => requestFits(i, r))).toBe(true);
		// Each later piece carries the summary so far.
		expect(adapter.summaryRequests[1]?.messages[1]?.content.startsWith(PREVIOUS_SUMMARY_PREFIX)).toBe(true);
		expect(result.recent).toHaveLength(6);
	});

	it("shrinks the window toward the minimum when the last N are too big", async () => {
		const adapter = new StubAdapter();
		const history = conversation(10, 260);
		const i = input(adapter, history);
		const result = await compactHistory(i);
		expect(result.recent.length).toBeLessThan(6);
		expect(result.recent.length).toBeGreaterThanOrEqual(2);
		expect(result.condensedCount).toBe(0);
		expect(result.recent).toEqual(history.slice(-result.recent.length).map((m) => ({ role: m.role, content: m.content })));
		expect(promptAfter(i, result.summary, result.recent).estimatedTokens).toBeLessThanOrEqual(i.budget.prompt);
	});

	it("condenses the earliest recent messages when even the minimum window is too big, keeping the minimum", async () => {
		const adapter = new StubAdapter();
		const history = conversation(4, 30);
		const last = history[history.length - 1];
		if (last) last.content = "Long answer. ".repeat(900);
		const i = input(adapter, history);
		const result = await compactHistory(i);
		expect(result.recent).toHaveLength(2);
		expect(result.condensedCount).toBeGreaterThan(0);
		expect(result.recent[1]?.content.startsWith(CONDENSED_PREFIX)).toBe(true);
		expect(result.recent[0]?.content).toBe(history[history.length - 2]?.content);
		expect(adapter.summaryRequests.every((r) => requestFits(i, r))).toBe(true);
		expect(promptAfter(i, result.summary, result.recent).estimatedTokens).toBeLessThanOrEqual(i.budget.prompt);
	});

	it("summarizes a single message bigger than the whole window instead of dropping it", async () => {
		const adapter = new StubAdapter();
		const history = conversation(1, 10);
		const last = history[1];
		if (last) last.content = "Paragraph of a very long answer.\n".repeat(3000);
		const i = input(adapter, history, { settings: { recentMessagesToKeep: 6, minRecentMessagesToKeep: 2 } });
		const result = await compactHistory(i);
		expect(result.recent).toHaveLength(2);
		expect(result.recent[1]?.content.startsWith(CONDENSED_PREFIX)).toBe(true);
		expect(adapter.summaryRequests.length).toBeGreaterThan(1);
		expect(adapter.summaryRequests.every((r) => requestFits(i, r))).toBe(true);
		expect(promptAfter(i, result.summary, result.recent).estimatedTokens).toBeLessThanOrEqual(i.budget.prompt);
	});

	it("sends a bounded number of summary requests in all, however many messages must be condensed", async () => {
		const adapter = new StubAdapter();
		const history = conversation(8, 10).map((m) => ({ ...m, content: `${m.content}\n${"A long paragraph of detail.\n".repeat(900)}` }));
		const i = input(adapter, history, { settings: { recentMessagesToKeep: 16, minRecentMessagesToKeep: 16 } });
		const result = await compactHistory(i);
		expect(adapter.summaryRequests.length).toBeGreaterThan(MAX_SUMMARY_REQUESTS);
		expect(adapter.summaryRequests.length).toBeLessThanOrEqual(MAX_COMPACTION_REQUESTS);
		expect(adapter.summaryRequests.every((r) => requestFits(i, r))).toBe(true);
		expect(promptAfter(i, result.summary, result.recent).estimatedTokens).toBeLessThanOrEqual(i.budget.prompt);
	});

	it("falls back to a concise summary of the whole chat when the current message leaves little room", async () => {
		const adapter = new StubAdapter();
		const history = conversation(6, 40);
		const base = input(adapter, history);
		// The longest message that leaves about 40 tokens beside the instructions.
		let repeat = 1;
		while (fixedCost(base.systemPrompt, undefined, "Please read this. ".repeat(repeat + 1), estimateTokens) <= base.budget.prompt - 40) repeat++;
		const i = { ...base, current: "Please read this. ".repeat(repeat) };
		const result = await compactHistory(i);
		expect(result.lastResort).toBe(true);
		expect(result.recent).toHaveLength(0);
		expect(result.summaryOf).toBe(history[history.length - 1]?.id);
		expect(promptAfter(i, result.summary, result.recent).estimatedTokens).toBeLessThanOrEqual(i.budget.prompt);
	});

	it("falls back to a naive summary when the summarizer fails, and still fits", async () => {
		const adapter = new StubAdapter({ failSummaries: true });
		const history = conversation(20, 30);
		const i = input(adapter, history);
		const result = await compactHistory(i);
		expect(result.fallback).toBe(true);
		expect(result.summary).toContain("summarizer was unavailable");
		expect(result.summaryOf).toBeDefined();
		// Offline: one attempt, not one per piece.
		expect(adapter.summaryRequests).toHaveLength(1);
		expect(promptAfter(i, result.summary, result.recent).estimatedTokens).toBeLessThanOrEqual(i.budget.prompt);
	});

	it("cuts a previous summary written for a larger window when nothing else can give way", async () => {
		const adapter = new StubAdapter();
		const i = input(adapter, conversation(1, 5), { previousSummary: "A long summary sentence. ".repeat(600) });
		const result = await compactHistory(i);
		expect(result.summaryOf).toBeUndefined();
		expect(result.recent).toHaveLength(2);
		expect(estimateTokens(result.summary ?? "")).toBeLessThanOrEqual(i.budget.summaryMaxTokens);
		expect(promptAfter(i, result.summary, result.recent).estimatedTokens).toBeLessThanOrEqual(i.budget.prompt);
	});

	it("reports progress once before summarizing", async () => {
		const statuses: string[] = [];
		await compactHistory(input(new StubAdapter(), conversation(20, 30), { onStatus: (s) => statuses.push(s) }));
		expect(statuses).toEqual(["Summarizing earlier messages…"]);
	});

	it("rejects when aborted while summarizing", async () => {
		const controller = new AbortController();
		controller.abort();
		await expect(compactHistory(input(new StubAdapter(), conversation(20, 30), { signal: controller.signal }))).rejects.toMatchObject({ kind: "aborted" });
	});
});

describe("compactHistory properties", () => {
	const historyArb = fc
		.array(fc.tuple(messageTextArb, fc.integer({ min: 1, max: 40 }), fc.boolean()), { maxLength: 24 })
		.map((items) =>
			items.map(([text, repeat, odd], k): ChatMessage => ({
				id: `m${k}`,
				role: (k % 2 === 0) !== odd && k % 5 !== 3 ? "user" : "assistant",
				content: Array.from({ length: repeat }, () => text).join(" "),
				createdAt: "",
			})),
		);
	const settingsArb = budgetSettingsArb({ maxPromptTokens: [512, 16384], reservedShare: [0.05, 0.5], keep: [1, 12], min: [0, 6], leastReserved: 1 });

	it("always fits the budget, keeps order and the minimum window, and sends no oversized summary request", async () => {
		await fc.assert(
			fc.asyncProperty(
				historyArb,
				settingsArb,
				messageTextArb,
				fc.option(fc.tuple(messageTextArb, fc.integer({ min: 1, max: 80 })).map(([t, n]) => Array.from({ length: n }, () => t).join(" ")), { nil: undefined }),
				fc.boolean(),
				// A calibrated estimate, as the engine passes for a model that counts more or fewer tokens.
				fc.constantFrom(1, 0.6, 2),
				async (history, settings, current, previousSummary, failing, factor) => {
					const adapter = new StubAdapter({ failSummaries: failing });
					const i = input(adapter, history, {
						current,
						previousSummary,
						estimate: (t) => Math.ceil(estimateTokens(t) * factor),
						budget: compactionBudget(settings),
						settings: { recentMessagesToKeep: settings.recentMessagesToKeep, minRecentMessagesToKeep: settings.minRecentMessagesToKeep },
					});
					const alone = buildPrompt({ systemPrompt: i.systemPrompt, history: [], current, budget: i.budget.prompt, estimate: i.estimate });
					if (alone.estimatedTokens > i.budget.prompt) return; // the engine refuses such a message before compacting
					const result = await compactHistory(i);
					const prompt = promptAfter(i, result.summary, result.recent);
					expect(prompt.estimatedTokens).toBeLessThanOrEqual(i.budget.prompt);
					expect(adapter.summaryRequests.every((r) => requestFits(i, r))).toBe(true);
					// Recent messages are the newest ones, in order, roles intact.
					const tail = history.slice(history.length - result.recent.length);
					expect(result.recent.map((m) => m.role)).toEqual(tail.map((m) => m.role));
					result.recent.forEach((m, k) => {
						if (!m.content.startsWith(CONDENSED_PREFIX)) expect(m.content).toBe(tail[k]?.content);
					});
					if (!result.lastResort) expect(result.recent.length).toBeGreaterThanOrEqual(Math.min(settings.minRecentMessagesToKeep, history.length));
					if (result.summaryOf !== undefined) {
						const covered = history.findIndex((m) => m.id === result.summaryOf);
						expect(covered).toBe(history.length - result.recent.length - 1);
						// The older block ends on an assistant turn whenever one is near the cut.
						if (!result.lastResort && history[covered]?.role !== "assistant") {
							expect(history.slice(Math.max(0, covered - 8), covered + 1).some((m) => m.role === "assistant")).toBe(false);
						}
					}
					const everything = buildPrompt({ systemPrompt: i.systemPrompt, summary: previousSummary, history, current, budget: i.budget.prompt, estimate: i.estimate });
					if (everything.estimatedTokens <= i.budget.prompt) {
						expect(adapter.requests).toHaveLength(0);
						expect(result.recent).toHaveLength(history.length);
					}
				},
			),
			{ numRuns: 150 },
		);
	});
});
