import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BUDGET_LIMITS } from "../../src/chat/chatSettings";
import { lineArb, messageTextArb } from "../support/scriptTexts";
import { StubAdapter, type RecordedRequest } from "../support/stubAdapter";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { promptCost } from "../../src/chat/promptCost";
import { TokenCalibration, calibratedTokens } from "../../src/chat/calibration";
import { modelTokens } from "../../src/chat/tokenFast";
import { ChatService } from "../../src/chat/ChatService";
import { CONDENSED_PREFIX, compactionBudget } from "../../src/chat/compaction";
import { chatErrorCode } from "../../src/chat/errors";
import { buildPrompt, promptSources } from "../../src/chat/prompt";
import { historyAsSent } from "../../src/chat/promptSentSources";
import { SOURCES_PREAMBLE } from "../../src/chat/sourceBlock";
import { estimateTokens } from "../../src/chat/tokens";
import { isPromptWorthy, summaryMessage, uncoveredHistory } from "../../src/chat/transcript";
import type { ChatMessage, PromptMessage } from "../../src/core/types";
import { budgetSettingsArb } from "../support/settingsArb";

const settingsArb = budgetSettingsArb({ maxPromptTokens: [512, 8192], reservedShare: [0.05, 0.45], keep: [0, 10], min: [0, 4], leastReserved: BUDGET_LIMITS.reservedResponseTokens.min }).map(
	(s) => ({ ...s, systemPrompt: "Answer as briefly as you can." }),
);

/** No calibration, or one learned from a model that counts fewer or more tokens than the estimator. */
const factorArb = fc.option(fc.constantFrom(0.6, 1.3, 2), { nil: undefined });

const turnArb = fc.record({
	text: messageTextArb,
	repeat: fc.integer({ min: 1, max: 30 }),
	// Never empty: a stopped answer is stopped from its first token.
	reply: fc.array(lineArb, { minLength: 1, maxLength: 30 }).map((lines) => `Answer: ${lines.join("\n")}`),
	includeHistory: fc.boolean(),
	context: fc.option(fc.array(lineArb, { maxLength: 200 }).map((lines) => lines.join("\n")), { nil: undefined }),
	mode: fc.constantFrom("ok", "ok", "ok", "fail", "overflow-once", "overflow-twice", "stop"),
});

type Turn = typeof turnArb extends fc.Arbitrary<infer T> ? T : never;

function asPrompt(r: RecordedRequest): PromptMessage[] {
	return r.messages.map((m) => ({ role: m.role as PromptMessage["role"], content: m.content }));
}

function adapterFor(turn: Turn, failSummaries: boolean): StubAdapter {
	return new StubAdapter({
		reply: turn.reply,
		failSummaries,
		failChatWith: turn.mode === "fail" ? "server" : undefined,
		overflowTimes: turn.mode === "overflow-once" ? 1 : turn.mode === "overflow-twice" ? 2 : 0,
		hangAfter: turn.mode === "stop" ? turn.reply : undefined,
	});
}

describe("ChatService properties", () => {
	it("every prompt fits, carries the turn once and last, keeps order, survives failures, and the session survives reload", async () => {
		await fc.assert(
			fc.asyncProperty(settingsArb, fc.array(turnArb, { minLength: 1, maxLength: 10 }), fc.boolean(), factorArb, async (settings, turns, failSummaries, factor) => {
				const store = new MemoryFileStore();
				const sessions = new SessionManager(store, { onWarning: () => undefined });
				// The engine's own estimate: calibrated for the model when a factor was learned.
				const calibration = factor === undefined ? undefined : new TokenCalibration({ data: { version: 1, models: { m: [factor] } } });
				const estimate = factor === undefined ? estimateTokens : (t: string): number => (t === "" ? 0 : calibratedTokens(modelTokens(t), factor));
				const chat = new ChatService({ adapter: new StubAdapter(), sessions, settings, calibration, model: "m" });
				let answered = 0;
				let failed = 0;
				let covered = -1;

				for (const [k, turn] of turns.entries()) {
					const text = `${k}: ${Array.from({ length: turn.repeat }, () => turn.text).join(" ")}`;
					// The model's margin as the turn starts (a refusal before widens it for the turns after).
					const budget = compactionBudget(settings, calibration?.margin("m").keep);
					const before = chat.messages.slice();
					// Earlier user messages go as sent (their sources first) while they fit, else as written.
					// (only those whose sources are still this turn's, unchanged)
					const current = promptSources({ context: turn.context === undefined || turn.context === "" ? undefined : { text: turn.context } });
					const sentBefore = new Map(before.map((m) => [m.id, historyAsSent([m], Infinity, estimate, current)?.[0]?.content ?? m.content]));
					const asSent = (m: ChatMessage): string => sentBefore.get(m.id) ?? m.content;
					const adapter = adapterFor(turn, failSummaries);
					chat.setAdapter(adapter);
					const onToken = turn.mode === "stop" ? () => chat.cancel() : undefined;
					let outcome: "answered" | "failed" | "refused";
					let retryRefused = false;
					try {
						const answer = await chat.sendMessage(text, { includeHistory: turn.includeHistory, context: turn.context, onToken });
						outcome = "answered";
						expect(answer.cancelled === true).toBe(turn.mode === "stop");
					} catch (err) {
						if (chatErrorCode(err) === "message_too_long") {
							expect(chat.messages).toEqual(before);
							expect(adapter.requests).toHaveLength(0);
							continue;
						}
						outcome = "failed";
						expect((err as { kind?: string }).kind).toBe(turn.mode === "fail" ? "server" : "context_overflow");
						// An overflow whose retry cannot be made clearly smaller fails at once, and says why.
						retryRefused = turn.mode.startsWith("overflow") && adapter.chatRequests.length === 1;
						if (retryRefused) expect((err as Error).message).toContain("Even shortened");
						else expect(turn.mode === "fail" || turn.mode === "overflow-twice").toBe(true);
					}
					if (outcome === "answered") answered++;
					else failed++;
					// A summary only ever moves forward: what it covered stays covered.
					const summaryOf = summaryMessage(chat.messages)?.summaryOf;
					const coveredNow = summaryOf === undefined ? -1 : chat.messages.findIndex((m) => m.id === summaryOf);
					expect(coveredNow).toBeGreaterThanOrEqual(covered);
					covered = coveredNow;
					const last = chat.messages[chat.messages.length - 1];
					if (outcome === "failed") expect(last).toMatchObject({ role: "user", content: text });
					else expect(last?.role).toBe("assistant");

					for (const r of adapter.summaryRequests) {
						expect(promptCost(asPrompt(r), estimate)).toBeLessThanOrEqual(budget.summaryRequest);
						expect(r.maxTokens).toBeLessThanOrEqual(budget.summaryMaxTokens);
					}
					const chatRequests = adapter.chatRequests;
					expect(chatRequests).toHaveLength(turn.mode.startsWith("overflow") && !retryRefused ? 2 : 1);
					for (const request of chatRequests) {
						const messages = asPrompt(request);
						expect(request.maxTokens).toBeLessThanOrEqual(settings.reservedResponseTokens);
						expect(request.contextWindow).toBe(settings.maxPromptTokens);
						expect(promptCost(messages, estimate)).toBeLessThanOrEqual(budget.prompt);
						// The turn goes last, once: alone, or after this turn's sources (framed as data).
						const current = messages[messages.length - 1]!;
						expect(current.role).toBe("user");
						if (current.content !== text) expect(current.content.startsWith(SOURCES_PREAMBLE) && current.content.endsWith(`\n\n${text}`)).toBe(true);
						expect(messages.filter((m) => m.content === text || m.content.endsWith(`\n\n${text}`))).toHaveLength(1);
						expect(messages.slice(1).every((m) => m.role !== "system")).toBe(true);
					}
					const [first, retry] = chatRequests;
					if (first !== undefined && retry !== undefined) {
						// The retry after "too long" is never the same prompt again: at most 0.7× its estimate.
						expect(promptCost(asPrompt(retry), estimate)).toBeLessThanOrEqual(Math.floor(promptCost(asPrompt(first), estimate) * 0.7));
					}

					// History goes out in transcript order; when everything fits, all of it does.
					const messages = first === undefined ? [] : asPrompt(first);
					const body = messages.slice(messages[0]?.role === "system" ? 1 : 0, -1);
					const transcript = before.filter(isPromptWorthy);
					let cursor = 0;
					for (const m of body) {
						if (m.content.startsWith(CONDENSED_PREFIX)) continue;
						while (cursor < transcript.length && transcript[cursor]?.content !== m.content && asSent(transcript[cursor]!) !== m.content) cursor++;
						expect(cursor).toBeLessThan(transcript.length);
						cursor++;
					}
					if (turn.includeHistory) {
						const uncovered = uncoveredHistory(before, before.length);
						const all = buildPrompt({ systemPrompt: settings.systemPrompt, summary: summaryMessage(before)?.content, history: uncovered, current: text, budget: budget.prompt, estimate });
						if (all.estimatedTokens <= budget.prompt) {
							expect(body.map((m) => m.role)).toEqual(uncovered.map((m) => m.role));
							for (const [i, m] of uncovered.entries()) expect([m.content, asSent(m)]).toContain(body[i]?.content);
						}
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
				// The visible transcript is never deleted: every sent turn left its message, and an answer unless it failed.
				const transcript = live.filter((m) => m.role !== "system");
				expect(transcript.filter((m) => m.role === "user")).toHaveLength(answered + failed);
				expect(transcript.filter((m) => m.role === "user" && m.error !== undefined)).toHaveLength(failed);
				expect(transcript.filter((m) => m.role === "assistant")).toHaveLength(answered);
			}),
			{ numRuns: 200 },
		);
	});
});
