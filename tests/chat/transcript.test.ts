import { describe, expect, it } from "vitest";
import { silentPromptCutWarning } from "../../src/chat/silentPromptCut";
import { isPromptWorthy, summaryMessage, uncoveredHistory, uncoveredStart } from "../../src/chat/transcript";
import type { ChatMessage } from "../../src/core/types";

const m = (id: string, role: ChatMessage["role"], content = id, extra: Partial<ChatMessage> = {}): ChatMessage => ({ id, role, content, createdAt: "", ...extra });

describe("transcript", () => {
	const summary = m("s", "system", "Summary", { summaryOf: "a1" });
	const messages = [summary, m("u1", "user"), m("a1", "assistant"), m("u2", "user"), m("a2", "assistant", ""), m("u3", "user", "x", { error: "failed" }), m("u4", "user")];

	it("finds the summary and where its coverage ends", () => {
		expect(summaryMessage(messages)).toBe(summary);
		expect(summaryMessage(messages.slice(1))).toBeUndefined();
		expect(uncoveredStart(messages, messages.length)).toBe(3);
		expect(uncoveredStart(messages.slice(1), 6)).toBe(0);
	});

	it("treats a summary whose last message is missing as covering nothing", () => {
		const damaged = [m("s", "system", "S", { summaryOf: "gone" }), m("u1", "user")];
		expect(uncoveredStart(damaged, 2)).toBe(1);
	});

	it("leaves out empty and failed messages", () => {
		expect(uncoveredHistory(messages, messages.length).map((x) => x.id)).toEqual(["u2", "u4"]);
		expect(isPromptWorthy(m("a", "assistant", "partial", { cancelled: true }))).toBe(true);
	});
});

describe("silentPromptCutWarning", () => {
	it("warns only for a prompt near the window that the server counted far lower", () => {
		expect(silentPromptCutWarning(6000, 2048, 8192)).toContain("2,048");
		expect(silentPromptCutWarning(6000, 5800, 8192)).toBeUndefined();
		expect(silentPromptCutWarning(1000, 300, 8192)).toBeUndefined();
	});
});
