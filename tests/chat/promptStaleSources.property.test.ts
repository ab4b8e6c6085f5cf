// Earlier turns go as sent, their sources too, so a server's cache can reuse the prompt; but a
// note's old text is never sent again once the person has edited, deleted or left out that note:
// such a turn's sources are shed (the prefix breaks there, as the person's own edit breaks it).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import type { EarlierSources } from "../../src/chat/promptSentSources";
import type { ContextSource } from "../../src/core/types";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { StubAdapter } from "../support/stubAdapter";

const chatWith = (earlierSources?: EarlierSources, maxPromptTokens = 8192): { chat: ChatService; adapter: StubAdapter } => {
	const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
	const adapter = new StubAdapter({ reply: "Noted." });
	const settings = { maxPromptTokens, reservedResponseTokens: 512, recentMessagesToKeep: 40, minRecentMessagesToKeep: 2 };
	return { chat: new ChatService({ adapter, sessions, settings, model: "m", earlierSources }), adapter };
};

const lastChatText = (adapter: StubAdapter): string => adapter.chatRequests[adapter.chatRequests.length - 1]!.messages.map((m) => m.content).join("\n");

describe("earlier sources after the person's edits", () => {
	it("an edited active note's old text is not sent again; an unchanged one is repeated as sent", async () => {
		const { chat, adapter } = chatWith("keep");
		await chat.sendMessage("When does it open?", { context: "The café opens on Sundays at nine.", contextName: "Hours" });
		await chat.sendMessage("And on Mondays?", { context: "The café opens on Sundays at nine.", contextName: "Hours" });
		// Unchanged: the first turn's sources go again, as sent (a cache's prefix).
		expect(lastChatText(adapter).split("Sundays at nine").length - 1).toBe(2);
		await chat.sendMessage("And now?", { context: "The café opens on Sundays at ten, from May.", contextName: "Hours" });
		const third = lastChatText(adapter);
		expect(third).toContain("Sundays at ten, from May");
		expect(third).not.toContain("Sundays at nine");
	});

	it("a deleted or excluded source's text is not sent again", async () => {
		const { chat, adapter } = chatWith();
		const hours: ContextSource = { id: "Hours.md", name: "Hours", text: "The café opens on Sundays at nine." };
		const prices: ContextSource = { id: "Prices.md", name: "Prices", text: "Coffee costs three euros." };
		await chat.sendMessage("When does it open?", { sources: [hours, prices] });
		await chat.sendMessage("What does coffee cost?", { sources: [hours] });
		const second = lastChatText(adapter);
		expect(second).toContain("Sundays at nine");
		expect(second).not.toContain("three euros");
		await chat.sendMessage("Anything else?", {});
		expect(lastChatText(adapter)).not.toContain("Sundays at nine");
	});

	it("property: no request carries a version of a note other than the one given with it", async () => {
		// Each turn gives the note in one of a few versions, or not at all (deleted, excluded).
		const versionArb = fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined });
		await fc.assert(
			fc.asyncProperty(fc.array(versionArb, { minLength: 2, maxLength: 7 }), fc.boolean(), async (versions, asSource) => {
				const { chat, adapter } = chatWith();
				const text = (v: number): string => `The note, version marker${v}x: some words about it.`;
				for (const [k, v] of versions.entries()) {
					const given = v === undefined ? {} : asSource ? { sources: [{ id: "Note.md", name: "Note", text: text(v) }] } : { context: text(v), contextName: "Note" };
					await chat.sendMessage(`Question ${k}?`, given);
					const sent = lastChatText(adapter);
					for (let other = 0; other <= 3; other++) {
						if (other !== v) expect(sent).not.toContain(`marker${other}x`);
					}
				}
			}),
			{ numRuns: 60 },
		);
	});

	it("yield: earlier sources repeat while this turn's fit whole beside them, and never squeeze them", async () => {
		const small = "The café opens on Sundays at nine.";
		const { chat, adapter } = chatWith("yield");
		await chat.sendMessage("When does it open?", { context: small, contextName: "Hours" });
		await chat.sendMessage("And on Mondays?", { context: small, contextName: "Hours" });
		expect(lastChatText(adapter).split("Sundays at nine").length - 1).toBe(2);
		// A note that fits whole alone but not twice: repeating its first copy would cut this turn's.
		const big = Array.from({ length: 270 }, (_, i) => `Line ${i} of the long note, about the harbour and its boats.`).join("\n") + "\nThe spare key hangs behind the barometer.";
		const long = chatWith("yield");
		await long.chat.sendMessage("What is line 3 about?", { context: big, contextName: "Long" });
		await long.chat.sendMessage("Where is the spare key?", { context: big, contextName: "Long" });
		const second = lastChatText(long.adapter);
		expect(second.split("Line 0 of").length - 1).toBe(1);
		expect(second.split("behind the barometer").length - 1).toBe(1);
		expect(second).toContain("Line 269 of");
	});
});
