import { describe, expect, it } from "vitest";
import { setup, SMALL } from "../support/chatHarness";
import { StubAdapter } from "../support/stubAdapter";
import { compactionBudget } from "../../src/chat/compaction";
import { ChatError } from "../../src/chat/errors";
import { estimateTokens } from "../../src/chat/tokens";

function diskFull(): Error {
	return Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
}

describe("ChatService: clear errors instead of raw ones", () => {
	it("a full disk on the first send of a new chat is a storage ChatError that keeps the text, and nothing is sent", async () => {
		const adapter = new StubAdapter();
		const { chat, sessions } = setup(adapter);
		const create = sessions.create.bind(sessions);
		sessions.create = () => Promise.reject(diskFull());
		const err = await chat.sendMessage("My careful question").catch((e: unknown) => e);
		expect(err).toBeInstanceOf(ChatError);
		expect(err).toMatchObject({ code: "storage", text: "My careful question" });
		expect((err as Error).message).toContain("no space left");
		expect(adapter.requests).toHaveLength(0);
		expect(chat.busy).toBe(false);
		// Space freed: the same text goes through.
		sessions.create = create;
		await expect(chat.sendMessage("My careful question")).resolves.toMatchObject({ role: "assistant" });
	});

	it("a 400,000-character system prompt is named as what is too big, with both sizes, and nothing is saved", async () => {
		const adapter = new StubAdapter();
		const systemPrompt = "Follow these rules carefully. ".repeat(13_334).slice(0, 400_000);
		const { chat, store } = setup(adapter, { maxPromptTokens: 8192, reservedResponseTokens: 512, systemPrompt });
		const err = await chat.sendMessage("Hi").catch((e: unknown) => e);
		expect(err).toMatchObject({ code: "system_prompt_too_long", text: "Hi" });
		const message = (err as Error).message;
		expect(message).toMatch(/^The system prompt is about [\d,]+ tokens, more than the [\d,]+ a prompt may have/);
		expect(message).toContain("Settings → Discover");
		const [prompt, budget] = (message.match(/[\d,]{3,}/g) ?? []).map((n) => Number(n.replace(/,/g, "")));
		expect(prompt).toBeGreaterThan(50_000);
		expect(budget).toBeGreaterThan(0);
		expect(budget).toBeLessThan(8192);
		expect(adapter.requests).toHaveLength(0);
		expect(store.files.size).toBe(0);
	});

	it("a message too long because the system prompt takes most of the room says so", async () => {
		// A system prompt of about 60% of the prompt budget, whatever the estimator's current fit.
		const budget = compactionBudget({ maxPromptTokens: SMALL.maxPromptTokens!, reservedResponseTokens: SMALL.reservedResponseTokens! }).prompt;
		let systemPrompt = "";
		while (estimateTokens(systemPrompt) < budget * 0.6) systemPrompt += "Follow these rules carefully. ";
		const { chat } = setup(new StubAdapter(), { ...SMALL, systemPrompt });
		const err = await chat.sendMessage("word ".repeat(300)).catch((e: unknown) => e);
		expect(err).toMatchObject({ code: "message_too_long" });
		expect((err as Error).message).toMatch(/because the system prompt takes about [\d,]+/);
	});
});
