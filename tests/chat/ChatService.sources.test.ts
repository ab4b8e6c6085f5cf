import { describe, expect, it } from "vitest";
import { setup, words } from "../support/chatHarness";
import { StubAdapter } from "../support/stubAdapter";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { ChatService, type ChatEvent } from "../../src/chat/ChatService";
import type { SourceFitter } from "../../src/chat/sourceFitter";
import { topCutFitter } from "../../src/chat/topCutFitter";
import { TokenCalibration } from "../../src/chat/calibration";
import type { ContextSource, SourceFit } from "../../src/core/types";

const WIDE = { maxPromptTokens: 8192, reservedResponseTokens: 512, recentMessagesToKeep: 6, minRecentMessagesToKeep: 2, systemPrompt: "Be brief." };

const longNote = (lines: number, topic = "harbour"): string => Array.from({ length: lines }, (_, i) => `Line ${i}: the ${topic} opens at six and closes at nine.`).join("\n");

const SOURCES: ContextSource[] = [
	{ id: "Harbour/Log.md", name: "Log", text: longNote(3000) },
	{ id: "Harbour/Key.md", name: "Key", text: "The key is under the mat." },
	{ id: "selection", name: "Selection", text: "opens at six", kind: "selection" },
];

const promptEvents = (events: ChatEvent[]): Extract<ChatEvent, { type: "prompt" }>[] => events.flatMap((e) => (e.type === "prompt" ? [e] : []));
const sentTokens = (fits: readonly SourceFit[]): number => fits.reduce((sum, f) => sum + f.sentTokens, 0);

describe("ChatService: context sources", () => {
	it("the preview, the prompt event and the answer report the same fits, one per source, in prompt order", async () => {
		const adapter = new StubAdapter();
		const { chat, events } = setup(adapter, WIDE);
		const preview = chat.previewPrompt("When does it open?", { sources: SOURCES });
		const answer = await chat.sendMessage("When does it open?", { sources: SOURCES });
		expect(preview.sources.map((f) => [f.id, f.fit])).toEqual([
			["selection", "whole"],
			["Harbour/Log.md", "excerpts"],
			["Harbour/Key.md", "whole"],
		]);
		expect(promptEvents(events)[0]?.sources).toEqual(preview.sources);
		expect(answer.sources).toEqual(preview.sources);
		// The active note's chip still reads `context`: there is none here.
		expect(promptEvents(events)[0]?.context).toEqual({ included: "none", fraction: 0 });
		const sent = adapter.chatRequests[0]?.messages;
		// This turn's sources ride with the latest message, not in the system message.
		const system = sent?.[sent.length - 1]?.content ?? "";
		expect(sent?.[0]?.content ?? "").not.toContain("⟦SOURCE");
		expect(system).toContain("⟦SOURCE 2⟧ Log · path: Harbour/Log.md · excerpts");
		expect(system).toContain("⟦SOURCE 3⟧ Key · path: Harbour/Key.md · whole\nThe key is under the mat.\n⟦END OF SOURCE 3⟧");
	});

	it("an answer's sources, with the ranges that were sent, survive a reload; a stopped answer keeps them too", async () => {
		const store = new MemoryFileStore();
		const { chat } = setup(new StubAdapter(), WIDE, store);
		const answered = await chat.sendMessage("When does it open?", { sources: SOURCES });
		// The excerpts sent: ordered, disjoint ranges inside the note.
		const sent = answered.sources?.[1]?.passages ?? [];
		expect(sent.length).toBeGreaterThan(0);
		for (const [i, p] of sent.entries()) {
			expect(p.start).toBeLessThan(p.end);
			if (i > 0) expect(p.start).toBeGreaterThanOrEqual(sent[i - 1]!.end);
		}
		chat.setAdapter(new StubAdapter({ hangAfter: "It opens" }));
		const stopped = await chat.sendMessage("And closes?", { sources: SOURCES, onToken: () => chat.cancel() });
		expect(stopped.cancelled).toBe(true);
		expect(stopped.sources?.map((f) => f.id)).toEqual(["selection", "Harbour/Log.md", "Harbour/Key.md"]);
		const reloaded = await new SessionManager(store, { onWarning: () => undefined }).load(chat.sessionId ?? "");
		const answers = reloaded.messages.filter((m) => m.role === "assistant");
		expect(answers.map((m) => m.sources)).toEqual([answered.sources, stopped.sources]);
	});

	it("an answer without sources records none, as before", async () => {
		const { chat } = setup(new StubAdapter(), WIDE);
		const answer = await chat.sendMessage("Hello");
		expect("sources" in answer).toBe(false);
	});

	it("calls the injected fitter with the source's share and a query of the message (twice) and the last turns", async () => {
		const calls: { id: string; budget: number; query: string }[] = [];
		const fitter: SourceFitter = (source, budget, query, estimate) => {
			calls.push({ id: source.id, budget, query });
			return topCutFitter(source, budget, query, estimate);
		};
		const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
		const chat = new ChatService({ adapter: new StubAdapter(), sessions, settings: WIDE, sourceFitter: fitter, earlierSources: "yield" });
		await chat.sendMessage("First question");
		await chat.sendMessage("When does it open?", { sources: SOURCES });
		expect(calls.map((c) => c.id)).toEqual(["Harbour/Log.md"]);
		expect(calls[0]?.query).toBe("When does it open?\nWhen does it open?\nAnswer 1.\nFirst question");
		expect(calls[0]?.budget).toBeGreaterThan(6000);
	});

	it("the fitter gets one estimator across previews and sends, the one sourceEstimator() names, so notes priced ahead of a send stay priced", async () => {
		const given: unknown[] = [];
		const fitter: SourceFitter = (source, budget, query, estimate) => {
			given.push(estimate);
			return topCutFitter(source, budget, query, estimate);
		};
		const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
		const chat = new ChatService({ adapter: new StubAdapter(), sessions, settings: WIDE, sourceFitter: fitter, earlierSources: "yield" });
		chat.previewPrompt("When does it open?", { sources: SOURCES });
		await chat.sendMessage("When does it open?", { sources: SOURCES });
		await chat.sendMessage("And closes?", { sources: SOURCES });
		expect(given.length).toBeGreaterThanOrEqual(3);
		for (const estimate of given) expect(estimate).toBe(chat.sourceEstimator());
	});

	it("a recalibrated model gets a new estimator: prices made with the old factor are not reused", async () => {
		const calibration = new TokenCalibration();
		const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
		const chat = new ChatService({ adapter: new StubAdapter(), sessions, settings: WIDE, model: "m", calibration });
		const before = chat.sourceEstimator();
		expect(chat.sourceEstimator()).toBe(before);
		calibration.observe("m", 1000, 1500);
		const after = chat.sourceEstimator();
		expect(after).not.toBe(before);
		expect(chat.sourceEstimator()).toBe(after);
	});

	it("the retry after 'prompt too long' shrinks the sources too, not only the history", async () => {
		// Long earlier turns fill the first prompt; the retry compacts them, and the room they give up
		// must not go to the sources: the server refused what they were.
		const adapter = new StubAdapter({ overflowTimes: 0, reply: (_req, i) => `Answer ${i}: ${words(600, "detail")}` });
		const { chat, events } = setup(adapter, WIDE);
		for (let i = 0; i < 4; i++) await chat.sendMessage(`Question ${i}: ${words(300)}`);
		chat.setAdapter(new StubAdapter({ overflowTimes: 1 }));
		await chat.sendMessage("When does it open?", { sources: SOURCES });
		const [failed, retry] = promptEvents(events).slice(-2);
		expect(sentTokens(failed?.sources ?? [])).toBeGreaterThan(500);
		expect(sentTokens(retry?.sources ?? [])).toBeLessThanOrEqual(Math.floor(sentTokens(failed?.sources ?? []) * 0.7));
		expect(retry?.estimatedTokens).toBeLessThan(failed?.estimatedTokens ?? 0);
	});
});
