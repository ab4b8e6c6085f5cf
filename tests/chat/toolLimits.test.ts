// Unbounded calls, on the engine: the review's 2,000 read_note calls a round for 8 rounds, and
// the limits that bound a turn: at most 16 calls a round run (the others get an error result that
// says so), more calls in one answer than any model makes is a runaway server (the turn fails with
// nothing run, as the dialects' own cap does), and at most 2 MB of results are saved a turn.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ChatService, type ChatEvent } from "../../src/chat/ChatService";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { MAX_CALLS_A_ROUND, TOO_MANY_CALLS } from "../../src/chat/toolRound";
import { MAX_TURN_RESULT_BYTES, TURN_RESULTS_CUT_NOTE, TurnResultBytes } from "../../src/chat/turnResultBytes";
import { MAX_TOOL_CALLS } from "../../src/providers/toolCalls";
import type { ChatSettings } from "../../src/core/types";
import type { ToolCard } from "../../src/chat/toolCard";
import { ScriptedToolAdapter, call, ownIds, recordingTool } from "../support/toolScript";

const SETTINGS: Partial<ChatSettings> = { maxPromptTokens: 100_000, reservedResponseTokens: 256, recentMessagesToKeep: 6, minRecentMessagesToKeep: 2, systemPrompt: "Be brief.", maxToolRounds: 8 };
const bytes = (text: string): number => new TextEncoder().encode(text).length;

function chatWith(callsAnAnswer: number) {
	const read = recordingTool("read_note", "read", (a) => `text of ${String(a.path)}`);
	const adapter = new ScriptedToolAdapter((req) => (req.tools === undefined ? { text: "Done." } : { calls: Array.from({ length: callsAnAnswer }, (_, i) => call("read_note", { path: `N${i}.md` })) }));
	const store = new MemoryFileStore();
	const events: ChatEvent[] = [];
	const chat = new ChatService({ adapter, sessions: new SessionManager(store, { onWarning: () => undefined }), settings: SETTINGS, tools: [read], onEvent: (e) => events.push(e), callIds: ownIds() });
	const fileBytes = (): number => [...store.files.values()].reduce((n, f) => n + bytes(f), 0);
	return { chat, read, adapter, fileBytes, events };
}

describe("calls a round", () => {
	it("the review's 2,000 calls an answer: a runaway server, the turn fails with nothing run and a small chat file", async () => {
		const { chat, read, adapter, fileBytes } = chatWith(2000);
		await expect(chat.sendMessage("Read everything")).rejects.toMatchObject({ kind: "protocol", message: expect.stringMatching(/more than 128 tool calls/) as unknown });
		expect(read.runs).toHaveLength(0);
		expect(adapter.chatRequests).toHaveLength(1);
		expect(fileBytes()).toBeLessThan(10_000);
	});

	it(`${MAX_TOOL_CALLS} calls an answer for 8 rounds: 16 run a round, each other call gets an error result that says so`, async () => {
		const { chat, read, events } = chatWith(MAX_TOOL_CALLS);
		expect((await chat.sendMessage("Read everything")).content).toBe("Done.");
		expect(read.runs).toHaveLength(MAX_CALLS_A_ROUND * 8);
		const results = chat.messages.filter((m) => m.role === "tool");
		expect(results).toHaveLength(MAX_TOOL_CALLS * 8);
		expect(results.filter((m) => m.content === TOO_MANY_CALLS && m.isError === true)).toHaveLength((MAX_TOOL_CALLS - MAX_CALLS_A_ROUND) * 8);
		// The first 16 of each answer ran, in order.
		expect(read.runs.slice(0, MAX_CALLS_A_ROUND).map((a) => a.path)).toEqual(Array.from({ length: MAX_CALLS_A_ROUND }, (_, i) => `N${i}.md`));
		// Their cards say so too, and were never put to the person or run.
		const cards = events.flatMap((e) => (e.type === "tool" ? [e.card] : [])).filter((c: ToolCard) => c.error === TOO_MANY_CALLS);
		expect(new Set(cards.map((c) => c.id)).size).toBe((MAX_TOOL_CALLS - MAX_CALLS_A_ROUND) * 8);
		expect(TOO_MANY_CALLS).toBe("Not run: at most 16 tool calls a round; ask for fewer at once.");
	});
});

describe("a turn's results in bytes", () => {
	it("whole while within the limit; the result that would pass it is cut at a character with the note; later ones are the note", () => {
		const budget = new TurnResultBytes(1000);
		expect(budget.take("a".repeat(600))).toBe("a".repeat(600));
		// 400 bytes left: 200 of the two-byte é, then the note.
		const cut = budget.take("é".repeat(400));
		expect(cut).toBe(`${"é".repeat(200)}\n${TURN_RESULTS_CUT_NOTE}`);
		// A short result (a "not run" error, a denial) stays whole: the note would be no shorter.
		expect(budget.take(TOO_MANY_CALLS)).toBe(TOO_MANY_CALLS);
		expect(budget.take("x".repeat(500))).toBe(TURN_RESULTS_CUT_NOTE);
		expect(MAX_TURN_RESULT_BYTES).toBe(2 * 1024 * 1024);
	});

	it("property: at most the limit plus one note a result is kept, each result is its text or a prefix of it with the note, and nothing is cut inside a character", () => {
		const note = bytes(TURN_RESULTS_CUT_NOTE) + 1;
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 2000 }), fc.array(fc.string({ unit: "grapheme", maxLength: 400 }), { maxLength: 12 }), (limit, texts) => {
				const budget = new TurnResultBytes(limit);
				let kept = 0;
				for (const text of texts) {
					const out = budget.take(text);
					kept += bytes(out);
					if (out === text) continue;
					expect(out.endsWith(TURN_RESULTS_CUT_NOTE)).toBe(true);
					const head = out === TURN_RESULTS_CUT_NOTE ? "" : out.slice(0, -TURN_RESULTS_CUT_NOTE.length - 1);
					expect(text.startsWith(head)).toBe(true);
					// No lone surrogate at the cut.
					expect(head).toBe(new TextDecoder().decode(new TextEncoder().encode(head)));
				}
				expect(kept).toBeLessThanOrEqual(limit + texts.length * note);
			}),
		);
	});
});
