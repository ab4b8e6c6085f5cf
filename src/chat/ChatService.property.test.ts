import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineArb, messageTextArb } from "../../tests/support/scriptTexts";
import { StubAdapter, type RecordedRequest } from "../../tests/support/stubAdapter";
import { MemoryFileStore } from "../sessions/memoryStore";
import { SessionManager } from "../sessions/SessionManager";
import { promptCost } from "./budget";
import { ChatService } from "./ChatService";
import { CONDENSED_PREFIX, compactionBudget } from "./compaction";
import { chatErrorCode } from "./errors";
import { buildPrompt } from "./prompt";
import { estimateTokens } from "./tokens";
import { isPromptWorthy, summaryMessage, uncoveredHistory } from "./transcript";
import type { ChatMessage, PromptMessage } from "./types";

const settingsArb = fc
	.record({
		maxPromptTokens: fc.integer({ min: 512, max: 8192 }),
		reservedShare: fc.double({ min: 0.05, max: 0.45, noNaN: true }),
		keep: fc.integer({ min: 0, max: 10 }),
		min: fc.integer({ min: 0, max: 4 }),
	})
	.map((s) => ({
		maxPromptTokens: s.maxPromptTokens,
		reservedResponseTokens: Math.max(16, Math.floor(s.maxPromptTokens * s.reservedShare)),
		recentMessagesToKeep: Math.max(s.keep, s.min),
		minRecentMessagesToKeep: Math.min(s.keep, s.min),
		systemPrompt: "Answer as briefly as you can.",
	}));

const turnArb = fc.record({
	text: messageTextArb,
	repeat: fc.integer({ min: 1, max: 30 }),
	reply: fc.array(lineArb, { minLength: 1, maxLength: 30 }).map((lines) => lines.join("\n")),
	includeHistory: fc.boolean(),
	context: fc.option(fc.array(lineArb, { maxLength: 200 }).map((lines) => lines.join("\n")), { nil: undefined }),
});

function asPrompt(r: RecordedRequest): PromptMessage[] {
	return r.messages.map((m) => ({ role: m.role as PromptMessage["role"], content: m.content }));
}

describe("ChatService properties", () => {
	it("every prompt fits, carries the turn once and last, keeps order, and the session survives reload", async () => {
		await fc.assert(
			fc.asyncProperty(settingsArb, fc.array(turnArb, { minLength: 1, maxLength: 10 }), fc.boolean(), async (settings, turns, failSummaries) => {
				const replies = turns.map((t) => t.reply);
				const adapter = new StubAdapter({ reply: (_req, i) => replies[i] ?? "ok", failSummaries });
				const store = new MemoryFileStore();
				const sessions = new SessionManager(store, { onWarning: () => undefined });
				const chat = new ChatService({ adapter, sessions, settings });
				const budget = compactionBudget(settings);

				for (const [k, turn] of turns.entries()) {
					const text = `${k}: ${Array.from({ length: turn.repeat }, () => turn.text).join(" ")}`;
					const before = chat.messages.slice();
					const requestsBefore = adapter.requests.length;
					try {
						await chat.sendMessage(text, { includeHistory: turn.includeHistory, context: turn.context });
					} catch (err) {
						expect(chatErrorCode(err)).toBe("message_too_long");
						expect(chat.messages).toEqual(before);
						expect(adapter.requests.length).toBe(requestsBefore);
						continue;
					}
					const sent = adapter.requests.slice(requestsBefore);
					for (const r of sent.filter((x) => x.purpose === "summary")) {
						expect(promptCost(asPrompt(r), estimateTokens)).toBeLessThanOrEqual(budget.summaryRequest);
						expect(r.maxTokens).toBeLessThanOrEqual(budget.summaryMaxTokens);
					}
					const chatRequests = sent.filter((x) => x.purpose === "chat");
					expect(chatRequests).toHaveLength(1);
					const request = chatRequests[0];
					if (request === undefined) continue;
					const messages = asPrompt(request);
					expect(request.maxTokens).toBeLessThanOrEqual(settings.reservedResponseTokens);
					expect(request.contextWindow).toBe(settings.maxPromptTokens);
					expect(promptCost(messages, estimateTokens)).toBeLessThanOrEqual(budget.prompt);
					expect(messages[messages.length - 1]).toEqual({ role: "user", content: text });
					expect(messages.filter((m) => m.content === text)).toHaveLength(1);
					expect(messages.slice(1).every((m) => m.role !== "system")).toBe(true);

					// History goes out in transcript order; when everything fits, all of it does.
					const body = messages.slice(messages[0]?.role === "system" ? 1 : 0, -1);
					const transcript = before.filter(isPromptWorthy);
					let cursor = 0;
					for (const m of body) {
						if (m.content.startsWith(CONDENSED_PREFIX)) continue;
						while (cursor < transcript.length && transcript[cursor]?.content !== m.content) cursor++;
						expect(cursor).toBeLessThan(transcript.length);
						cursor++;
					}
					if (turn.includeHistory) {
						const uncovered = uncoveredHistory(before, before.length);
						const all = buildPrompt({ systemPrompt: settings.systemPrompt, summary: summaryMessage(before)?.content, history: uncovered, current: text, budget: budget.prompt });
						if (all.estimatedTokens <= budget.prompt) expect(body).toEqual(uncovered.map((m) => ({ role: m.role, content: m.content })));
					} else {
						expect(body).toEqual([]);
					}
				}

				const reloaded = chat.sessionId === undefined ? undefined : await new SessionManager(store).load(chat.sessionId);
				const live: readonly ChatMessage[] = chat.messages;
				expect(reloaded?.messages ?? []).toEqual(live);
				expect(live.slice(1).every((m) => m.role !== "system")).toBe(true);
				const summary = summaryMessage(live);
				if (summary !== undefined) expect(live.some((m) => m.id === summary.summaryOf)).toBe(true);
				// The visible transcript is never deleted: one user and one answer per accepted turn.
				const transcript = live.filter((m) => m.role !== "system");
				expect(transcript.filter((m) => m.role === "user").length).toBe(transcript.filter((m) => m.role === "assistant").length);
			}),
			{ numRuns: 60 },
		);
	});
});
