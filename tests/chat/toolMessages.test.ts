// Messages carrying tool calls and results, as the prompt builder and the token estimate see them.
import { describe, expect, it } from "vitest";
import type { ChatMessage, PromptMessage } from "../../src/core/types";
import { estimateMessageTokens, estimatePromptTokens } from "../../src/chat/promptCost";
import { buildPrompt } from "../../src/chat/prompt";
import { transcriptEntry } from "../../src/chat/summarizer";
import { isPromptWorthy } from "../../src/chat/transcript";

const args = { path: "Projects/A very long path to a note about the plan.md", query: "budget and schedule for next quarter" };
const call: PromptMessage = { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "search_notes", arguments: args }] };

describe("tool calls in prompts", () => {
	it("a message's token estimate counts its calls' names and arguments", () => {
		const bare = estimateMessageTokens({ role: "assistant", content: "" });
		expect(estimateMessageTokens(call)).toBeGreaterThanOrEqual(bare + estimateMessageTokens({ role: "user", content: JSON.stringify(args) }) - estimateMessageTokens({ role: "user", content: "" }));
		expect(estimatePromptTokens([call])).toBeGreaterThan(estimatePromptTokens([{ role: "assistant", content: "" }]));
	});

	it("buildPrompt passes calls and results through, and nothing else a stored message holds", () => {
		const stored: ChatMessage[] = [
			{ id: "1", role: "user", content: "Find the plan", createdAt: "t" },
			{ id: "2", role: "assistant", content: "", createdAt: "t", thinking: "secret", toolCalls: call.toolCalls },
			{ id: "3", role: "tool", content: "Plan.md", createdAt: "t", toolCallId: "call_1", name: "search_notes", isError: true },
		];
		const { messages } = buildPrompt({ systemPrompt: "S", history: stored, current: "Thanks", budget: 10_000 });
		expect(messages).toEqual([
			{ role: "system", content: "S" },
			{ role: "user", content: "Find the plan" },
			{ role: "assistant", content: "", toolCalls: call.toolCalls },
			{ role: "tool", content: "Plan.md", toolCallId: "call_1", name: "search_notes", isError: true },
			{ role: "user", content: "Thanks" },
		]);
	});

	it("an answer that only called tools, and a tool result, go to the model", () => {
		expect(isPromptWorthy({ id: "2", role: "assistant", content: "", createdAt: "t", toolCalls: call.toolCalls })).toBe(true);
		expect(isPromptWorthy({ id: "3", role: "tool", content: "", createdAt: "t", toolCallId: "call_1" })).toBe(true);
		expect(isPromptWorthy({ id: "4", role: "assistant", content: "", createdAt: "t" })).toBe(false);
	});

	it("the summarizer's transcript shows calls and names results", () => {
		expect(transcriptEntry(call)).toBe(`Assistant: [called search_notes ${JSON.stringify(args)}]`);
		expect(transcriptEntry({ role: "tool", content: "Plan.md", name: "search_notes" })).toBe("Tool result (search_notes): Plan.md");
	});
});
