// The model answers in the person's language, and a summary keeps the conversation's language: the
// UI is translated, the words that reach the model are English instructions about language.
import { describe, expect, it } from "vitest";
import { DEFAULT_CHAT_SETTINGS, RETIRED_DEFAULT_SYSTEM_PROMPTS } from "../../src/core/types";
import { migrateSettings } from "../../src/settings/migration";
import { DEFAULT_SETTINGS } from "../../src/settings/settings";
import { setup, SMALL, words } from "../support/chatHarness";
import { StubAdapter } from "../support/stubAdapter";

describe("the language the model writes in", () => {
	it("the default system prompt, sent with every turn, asks for an answer in the language of the person's message, whatever the note's", async () => {
		expect(DEFAULT_SETTINGS.systemPrompt).toBe(DEFAULT_CHAT_SETTINGS.systemPrompt);
		const adapter = new StubAdapter();
		const { chat } = setup(adapter, { ...DEFAULT_CHAT_SETTINGS });
		await chat.sendMessage("Qu'est-ce que ce document dit des chats ?");
		const system = adapter.chatRequests[0]?.messages[0];
		expect(system?.role).toBe("system");
		expect(system?.content).toMatch(/Answer in the language of the person's latest message, even when the document is in another language\./);
	});

	it("a summary of the conversation is asked for in the conversation's language", async () => {
		const adapter = new StubAdapter();
		const { chat } = setup(adapter, SMALL);
		for (let i = 0; i < 30 && adapter.summaryRequests.length === 0; i++) await chat.sendMessage(`Frage ${i}: ${words(120, "Wort")}`);
		const instruction = adapter.summaryRequests[0]?.messages[0];
		expect(instruction?.role).toBe("system");
		expect(instruction?.content).toMatch(/Write the summary in the language the conversation is held in\./);
	});
});

describe("saved settings and the new default system prompt", () => {
	const oldDefault = RETIRED_DEFAULT_SYSTEM_PROMPTS[0] ?? "";

	it("a person who never changed the old default gets the new one", () => {
		expect(oldDefault).not.toBe("");
		const { settings, warnings } = migrateSettings({ settingsVersion: 1, systemPrompt: oldDefault, model: "llama3.2" });
		expect(settings.systemPrompt).toBe(DEFAULT_SETTINGS.systemPrompt);
		expect(settings.model).toBe("llama3.2");
		expect(warnings).toEqual([]);
	});

	it("a person who edited it keeps theirs", () => {
		const edited = `${oldDefault} Always answer in French.`;
		expect(migrateSettings({ settingsVersion: 1, systemPrompt: edited }).settings.systemPrompt).toBe(edited);
		expect(migrateSettings({ settingsVersion: 1, systemPrompt: "" }).settings.systemPrompt).toBe("");
	});
});
