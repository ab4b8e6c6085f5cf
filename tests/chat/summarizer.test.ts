import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textArb } from "../support/scriptTexts";
import { StubAdapter } from "../support/stubAdapter";
import { promptCost } from "../../src/chat/promptCost";
import { MAX_SUMMARY_REQUESTS, Summarizer, naiveSummary, packPieces, transcriptEntry } from "../../src/chat/summarizer";
import { estimateTokens } from "../../src/chat/tokens";

describe("packPieces", () => {
	it("keeps entries whole and in order when they fit", () => {
		const pieces = packPieces(["User: a", "Assistant: b", "User: c"], 100, estimateTokens);
		expect(pieces).toEqual(["User: a\n\nAssistant: b\n\nUser: c"]);
	});

	it("cuts only an entry that is alone too big, and loses no text", () => {
		fc.assert(
			fc.property(fc.array(textArb, { minLength: 1, maxLength: 8 }), fc.integer({ min: 8, max: 200 }), (entries, limit) => {
				const pieces = packPieces(entries, limit, estimateTokens);
				for (const p of pieces) expect(estimateTokens(p)).toBeLessThanOrEqual(limit);
				expect(pieces.join("").replace(/\n\n/g, "")).toBe(entries.join("").replace(/\n\n/g, ""));
			}),
		);
	});
});

describe("Summarizer", () => {
	it("labels roles in the transcript", () => {
		expect(transcriptEntry({ role: "assistant", content: "Hi" })).toBe("Assistant: Hi");
		expect(transcriptEntry({ role: "user", content: "Yo" })).toBe("User: Yo");
	});

	it("shortens without the model when the window is too small for a request", async () => {
		const adapter = new StubAdapter();
		const s = new Summarizer({ adapter, estimate: estimateTokens, contextWindow: 100, requestBudget: 60 });
		const out = await s.summarize("Before.", ["User: a question", "Assistant: an answer"], 40);
		expect(adapter.requests).toHaveLength(0);
		expect(out.fallback).toBe(true);
		expect(estimateTokens(out.text)).toBeLessThanOrEqual(40);
	});

	it("rolls a block through at most the bounded number of requests, each within the budget", async () => {
		const adapter = new StubAdapter();
		const s = new Summarizer({ adapter, estimate: estimateTokens, contextWindow: 1024, requestBudget: 700 });
		const entries = Array.from({ length: 300 }, (_, i) => `User: message ${i} ${"text ".repeat(40)}`);
		const out = await s.summarize(undefined, entries, 100);
		expect(out.fallback).toBe(false);
		expect(adapter.requests.length).toBe(MAX_SUMMARY_REQUESTS);
		for (const r of adapter.requests) expect(promptCost(r.messages as never, estimateTokens)).toBeLessThanOrEqual(700);
		// The oldest pieces, beyond the bound, were shortened without the model and carried along.
		expect(adapter.requests[0]?.messages[1]?.content).toContain("Automatic shortening of the oldest part");
	});

	it("sends at most its total number of requests across summaries, then shortens without the model", async () => {
		const adapter = new StubAdapter();
		const s = new Summarizer({ adapter, estimate: estimateTokens, contextWindow: 1024, requestBudget: 700, maxRequests: 10 });
		const entries = Array.from({ length: 300 }, (_, i) => `User: message ${i} ${"text ".repeat(40)}`);
		await s.summarize(undefined, entries, 100);
		expect(adapter.requests).toHaveLength(MAX_SUMMARY_REQUESTS);
		await s.summarize(undefined, entries, 100);
		expect(adapter.requests).toHaveLength(10);
		const last = await s.summarize(undefined, entries, 100);
		expect(adapter.requests).toHaveLength(10);
		expect(last.text).toContain("Automatic shortening of the oldest part");
		expect(estimateTokens(last.text)).toBeLessThanOrEqual(100);
	});

	it("keeps the newest part of the transcript in a naive summary", () => {
		const text = naiveSummary("Old summary.", "User: first\n\nAssistant: middle\n\nUser: the newest question", 30, estimateTokens);
		expect(text).toContain("Old summary.");
		expect(text).toContain("newest question");
		expect(estimateTokens(text)).toBeLessThanOrEqual(30);
	});
});
