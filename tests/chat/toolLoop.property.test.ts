// Invariants of the tool loop over random tool scripts: calls, parallel calls, failures, denials,
// unknown tools, bad arguments and large results, in windows from tiny to roomy.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { ChatService } from "../../src/chat/ChatService";
import { compactionBudget } from "../../src/chat/compaction";
import { normalizeChatSettings } from "../../src/chat/chatSettings";
import { promptCost } from "../../src/chat/promptCost";
import { estimateTokens } from "../../src/chat/tokens";
import { ScriptedToolAdapter, recordingTool, type ScriptStep } from "../support/toolScript";
import type { ChatSettings, PromptMessage, ToolCall } from "../../src/core/types";
import { words } from "../support/chatHarness";
import { fitToolResult, resultStub } from "../../src/chat/toolResults";

const callArb = fc.record({
	tool: fc.constantFrom("read_note", "read_note", "search_notes", "edit_note", "missing_tool"),
	size: fc.constantFrom(0, 5, 80, 400, 3000),
	fails: fc.constantFrom(false, false, false, true),
	invalid: fc.constantFrom(false, false, false, true),
	deny: fc.boolean(),
});

const stepArb = fc.record({
	text: fc.constantFrom("", "Looking.", words(30, "thinking")),
	calls: fc.array(callArb, { minLength: 0, maxLength: 3 }),
});

const scenarioArb = fc.record({
	maxPromptTokens: fc.integer({ min: 600, max: 4096 }),
	maxToolRounds: fc.integer({ min: 1, max: 5 }),
	recentMessagesToKeep: fc.integer({ min: 2, max: 8 }),
	turns: fc.array(fc.array(stepArb, { minLength: 1, maxLength: 7 }), { minLength: 1, maxLength: 3 }),
});

/** Each assistant message with calls is followed at once by exactly its results, in order; no result stands alone. */
function callsKeptWithResults(messages: readonly PromptMessage[]): boolean {
	for (let i = 0; i < messages.length; i++) {
		const m = messages[i] as PromptMessage;
		const calls = m.toolCalls ?? [];
		if (calls.length > 0) {
			for (const [k, c] of calls.entries()) {
				const result = messages[i + 1 + k];
				if (result?.role !== "tool" || result.toolCallId !== c.id) return false;
			}
			i += calls.length;
		} else if (m.role === "tool") return false;
	}
	return true;
}

describe("tool loop properties", () => {
	it("the budget is never exceeded, no call is separated from its result, the loop ends within maxToolRounds, and a reload gives the identical prompt", async () => {
		await fc.assert(
			fc.asyncProperty(scenarioArb, async (scenario) => {
				const settings: Partial<ChatSettings> = {
					maxPromptTokens: scenario.maxPromptTokens,
					reservedResponseTokens: 128,
					recentMessagesToKeep: scenario.recentMessagesToKeep,
					minRecentMessagesToKeep: 2,
					maxToolRounds: scenario.maxToolRounds,
					systemPrompt: "Be brief.",
				};
				const budget = compactionBudget(normalizeChatSettings(settings)).prompt;
				let seq = 0;
				const specs = new Map<string, { size: number; fails: boolean; deny: boolean }>();
				let turn = 0;
				let stepInTurn = 0;
				const adapter = new ScriptedToolAdapter(() => {
					const step = scenario.turns[turn]?.[stepInTurn++];
					if (step === undefined) return { text: "Final answer." };
					const calls: ToolCall[] = step.calls.map((c) => {
						const id = `c${++seq}`;
						specs.set(id, { size: c.size, fails: c.fails, deny: c.deny });
						const extra = c.invalid ? { invalidArguments: "Unexpected token } in JSON" } : {};
						return { id, name: c.tool, arguments: c.invalid ? {} : { path: `Notes/N${seq}.md` }, ...extra };
					});
					const out: ScriptStep = { text: step.text };
					if (calls.length > 0) out.calls = calls;
					return out;
				});
				const spec = (args: Record<string, unknown>) => specs.get(`c${String(args.path).replace(/\D/g, "")}`);
				const body = (args: Record<string, unknown>): string | Error => {
					const s = spec(args);
					if (s?.fails === true) return new Error("failed on purpose");
					return Array.from({ length: Math.ceil((s?.size ?? 0) / 40) }, (_, i) => `## Section ${i}\n${words(40, i % 3 === 0 ? "plan" : "text")}`).join("\n\n");
				};
				const tools = [recordingTool("read_note", "read", body), recordingTool("search_notes", "read", body), recordingTool("edit_note", "write", body)];
				const store = new MemoryFileStore();
				const sessions = new SessionManager(store, { onWarning: () => undefined });
				const chat = new ChatService({
					adapter,
					sessions,
					settings,
					tools,
					approve: (c) => Promise.resolve(specs.get(c.id)?.deny === true ? { deny: "no" } : "allow"),
				});
				for (let t = 0; t < scenario.turns.length; t++) {
					turn = t;
					stepInTurn = 0;
					const before = adapter.chatRequests.length;
					await chat.sendMessage(`Question ${t} about the plan`);
					const requests = adapter.chatRequests.slice(before);
					expect(requests.length).toBeLessThanOrEqual(scenario.maxToolRounds + 1);
					expect(requests.filter((r) => r.tools !== undefined).length).toBeLessThanOrEqual(scenario.maxToolRounds);
				}
				for (const r of adapter.requests) {
					if (r.purpose !== "chat") continue;
					expect(promptCost(r.messages, estimateTokens)).toBeLessThanOrEqual(budget);
					expect(callsKeptWithResults(r.messages)).toBe(true);
				}
				expect(callsKeptWithResults(chat.messages.filter((m) => m.role !== "system" && (m.role !== "assistant" || m.content !== "" || m.toolCalls !== undefined)))).toBe(true);

				// The next prompt: from the live chat, and from the chat reloaded from its file.
				await chat.flush();
				const live = new ScriptedToolAdapter(() => ({ text: "x" }));
				chat.setAdapter(live);
				const reloadedAdapter = new ScriptedToolAdapter(() => ({ text: "x" }));
				const copy = new MemoryFileStore();
				for (const [k, v] of store.files) copy.files.set(k, v);
				const reloaded = new ChatService({ adapter: reloadedAdapter, sessions: new SessionManager(copy, { onWarning: () => undefined }), settings, tools });
				await reloaded.loadSession(chat.sessionId ?? "");
				await chat.sendMessage("Next");
				await reloaded.sendMessage("Next");
				expect(reloadedAdapter.chatRequests[0]?.messages).toEqual(live.chatRequests[0]?.messages);
			}),
			{ numRuns: 60 },
		);
	});
});

describe("a tool result fitted to its share", () => {
	it("never exceeds the share, for read results (relevance passages) and others (cut with a note)", () => {
		fc.assert(
			fc.property(fc.array(fc.constantFrom("plan", "budget", "the", "## Heading", "\n", "数据", "🙂", "x".repeat(30)), { maxLength: 600 }), fc.integer({ min: 0, max: 400 }), fc.constantFrom<"read" | "write">("read", "write"), (parts, share, access) => {
				const text = parts.join(" ");
				const fitted = fitToolResult(text, share, access, "what is the budget plan", "id", estimateTokens);
				expect(estimateTokens(fitted)).toBeLessThanOrEqual(Math.max(share, 0));
				if (estimateTokens(text) <= share) expect(fitted).toBe(text);
			}),
			{ numRuns: 200 },
		);
	});

	it("stubs name the tool, its main argument and the result's size", () => {
		expect(resultStub("read_note", { id: "1", name: "read_note", arguments: { path: "Projects/Plan.md" } }, 2340)).toBe("read_note Projects/Plan.md (2,340 tokens), omitted");
		expect(resultStub("list_notes", undefined, 12)).toBe("list_notes (12 tokens), omitted");
	});
});
