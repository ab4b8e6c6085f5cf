// A prompt a server's prefix cache can reuse. With no compaction, no setting change and
// no edit, each chat request repeats the previous one plus its answer as an exact prefix: the
// instructions and summary lead, earlier turns go exactly as they were sent (their sources too),
// and only this turn's sources and message are new. And the prompt never goes over its budget.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { compactionBudget } from "../../src/chat/compaction";
import { promptCost } from "../../src/chat/promptCost";
import { estimateTokens } from "../../src/chat/tokens";
import type { PromptMessage } from "../../src/core/types";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { lineArb, messageTextArb } from "../support/scriptTexts";
import { StubAdapter, type RecordedRequest } from "../support/stubAdapter";

const asPrompt = (r: RecordedRequest): PromptMessage[] => r.messages.map((m) => ({ role: m.role as PromptMessage["role"], content: m.content }));

const turnArb = fc.record({
	text: messageTextArb,
	reply: fc.array(lineArb, { minLength: 1, maxLength: 6 }).map((lines) => `Answer: ${lines.join("\n")}`),
});
// The chat's note (or none), given with every turn: it is not edited in between (an edit sheds the
// earlier sources, which breaks the prefix there: promptStaleSources.property.test.ts).
const noteArb = fc.option(fc.array(lineArb, { minLength: 1, maxLength: 12 }).map((lines) => lines.join("\n")), { nil: undefined });

describe("prompt prefix properties", () => {
	it("with no compaction, each request begins with the previous request plus its answer, and fits its budget", async () => {
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(8192, 16384, 32768), fc.string({ maxLength: 80 }), fc.array(turnArb, { minLength: 2, maxLength: 6 }), noteArb, async (window, instructions, turns, note) => {
				const settings = { maxPromptTokens: window, reservedResponseTokens: 512, recentMessagesToKeep: 40, minRecentMessagesToKeep: 2, systemPrompt: instructions };
				const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
				const replies = turns.map((t) => t.reply);
				const adapter = new StubAdapter({ reply: (_req, i) => replies[i] ?? "Answer." });
				const chat = new ChatService({ adapter, sessions, settings, model: "m" });
				const budget = compactionBudget(settings);
				let previous: PromptMessage[] | undefined;
				for (const [k, turn] of turns.entries()) {
					await chat.sendMessage(`${k}: ${turn.text}`, { context: note, contextName: "Note" });
					const request = adapter.chatRequests[adapter.chatRequests.length - 1]!;
					const sent = asPrompt(request);
					expect(promptCost(sent, estimateTokens)).toBeLessThanOrEqual(budget.prompt);
					if (previous !== undefined) expect(sent.slice(0, previous.length)).toEqual(previous);
					previous = [...sent, { role: "assistant", content: turn.reply }];
				}
				// The chats are short beside the window: nothing was compacted, so nothing excused a break.
				expect(adapter.summaryRequests).toHaveLength(0);
			}),
			{ numRuns: 60 },
		);
	});
});
