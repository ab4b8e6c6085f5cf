// The "stable" policy (the "Answer faster" prompt layout) on chats about a note larger than the
// window: each request repeats the previous one plus its answer as an exact prefix unless a
// compaction came between (a summary request, or the earlier turns' sources shed: ChatEvent
// "sourcesShed"); when the earlier sources are shed, every one of them goes (no earlier user message
// carries a sources section again); the prompt never goes over its budget; and each turn carries the
// passage its question is about.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import type { ChatEvent } from "../../src/chat/ChatService";
import { compactionBudget } from "../../src/chat/compaction";
import { promptCost } from "../../src/chat/promptCost";
import { estimateTokens } from "../../src/chat/tokens";
import type { PromptMessage } from "../../src/core/types";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { lineArb } from "../support/scriptTexts";
import { StubAdapter, type RecordedRequest } from "../support/stubAdapter";

const asPrompt = (r: RecordedRequest): PromptMessage[] => r.messages.map((m) => ({ role: m.role as PromptMessage["role"], content: m.content }));

// Each entry holds one fact whose code word appears nowhere else in the note: a question naming
// the code word is about that entry alone.
const letters = (n: number): string => (n < 26 ? "" : letters(Math.floor(n / 26) - 1)) + String.fromCharCode(97 + (n % 26));
const codeWord = (i: number): string => `zorb${letters(i)}ix`;
const entryFact = (i: number): string => `The ledger code ${codeWord(i)} marks cargo entry ${i}.`;

const noteArb = fc.array(lineArb, { minLength: 1, maxLength: 4 }).chain((filler) =>
	fc.integer({ min: 60, max: 140 }).map((entries) =>
		Array.from({ length: entries }, (_, i) => `## Entry ${i}\n\n${entryFact(i)} ${filler[i % filler.length] ?? ""}\n\n${filler[(i + 1) % filler.length] ?? ""}`).join("\n\n"),
	),
);

const SOURCES_SECTION = /⟦SOURCE \d+⟧/;

/** One chat about `note` under the "stable" policy, checking every request; counts its sheds and the turns that kept the prefix. */
async function stableChat(window: number, note: string, picks: readonly number[], replies: readonly string[][], counts: { sheds: number; repeats: number }): Promise<void> {
	const entries = note.split("## Entry ").length - 1;
	const settings = { maxPromptTokens: window, reservedResponseTokens: 512, recentMessagesToKeep: 40, minRecentMessagesToKeep: 2, systemPrompt: "Answer from the note." };
	const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
	const answers = replies.map((lines) => `Answer: ${lines.join("\n")}`);
	const adapter = new StubAdapter({ reply: (_req, i) => answers[i % answers.length] ?? "Answer." });
	let events: ChatEvent["type"][] = [];
	const chat = new ChatService({ adapter, sessions, settings, model: "m", earlierSources: "stable", onEvent: (e) => events.push(e.type) });
	const budget = compactionBudget(settings);
	let previous: PromptMessage[] | undefined;
	let questions: string[] = [];
	for (const pick of picks) {
		events = [];
		const entry = pick % entries;
		const question = `What does ${codeWord(entry)} mark?`;
		const chatsBefore = adapter.chatRequests.length;
		await chat.sendMessage(question, { context: note, contextName: "Ledger" });
		const request = adapter.chatRequests[adapter.chatRequests.length - 1]!;
		expect(adapter.chatRequests.length).toBe(chatsBefore + 1);
		const sent = asPrompt(request);
		expect(promptCost(sent, estimateTokens)).toBeLessThanOrEqual(budget.prompt);
		const compacted = events.includes("compacted") || events.includes("sourcesShed");
		if (previous !== undefined && !compacted) {
			expect(sent.slice(0, previous.length)).toEqual(previous);
			counts.repeats++;
		}
		if (events.includes("sourcesShed")) {
			counts.sheds++;
			// Every earlier user message goes as written: no sources section repeated.
			const earlier = sent.filter((m) => m.role === "user").slice(0, -1);
			for (const m of earlier) expect(questions.includes(m.content) || !SOURCES_SECTION.test(m.content)).toBe(true);
		}
		// The entry the question is about goes with it (this turn's, or an earlier turn's kept as sent).
		expect(sent.some((m) => m.content.includes(entryFact(entry)))).toBe(true);
		previous = [...sent, { role: "assistant", content: answers[(adapter.chatRequests.length - 1) % answers.length] ?? "" }];
		questions = [...questions, question];
	}
}

describe("stable prompt layout properties", () => {
	it("prefix kept unless compacted, a shed sheds every earlier source, never over budget, each question's entry carried", async () => {
		// Random chats may or may not shed: the cases below make sure both branches are checked.
		const counts = { sheds: 0, repeats: 0 };
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom(4096, 8192),
				noteArb,
				fc.array(fc.nat(), { minLength: 3, maxLength: 9 }),
				fc.array(fc.array(lineArb, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
				(window, note, picks, replies) => stableChat(window, note, picks, replies, counts),
			),
			{ numRuns: 25 },
		);
		expect(counts.repeats).toBeGreaterThan(0);
	}, 120_000);

	it("a long chat about a note four times the window sheds its earlier sources, and keeps the prefix between sheds", async () => {
		const filler = "the ledger lists the cargo the ship carried between the ports that summer and what each crate held";
		const note = Array.from({ length: 140 }, (_, i) => `## Entry ${i}\n\n${entryFact(i)} ${filler}\n\n${filler}`).join("\n\n");
		const counts = { sheds: 0, repeats: 0 };
		await stableChat(4096, note, [3, 97, 41, 128, 7, 66, 112, 25, 88, 54, 131, 12], [["Noted."], ["The entry says so."]], counts);
		expect(counts.sheds).toBeGreaterThan(0);
		expect(counts.repeats).toBeGreaterThan(counts.sheds);
	}, 120_000);
});
