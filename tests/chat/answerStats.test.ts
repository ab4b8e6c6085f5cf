// What each answer cost, as the engine records it: tokens (reported or estimated, and which), time
// to the first token and streaming time on the injected clock, the model; a tool loop's requests
// summed on the answer that ends the turn; and all of it saved with the answer.
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { tokensPerSecond, chatUsage } from "../../src/core/answerStats";
import { parseSessionFile } from "../../src/sessions/records";
import { ScriptedToolAdapter, call, recordingTool } from "../support/toolScript";
import type { ChatSettings, GenerateRequest, GenerateResult, LLMAdapter, Usage } from "../../src/core/types";

const SETTINGS: Partial<ChatSettings> = { maxPromptTokens: 4096, reservedResponseTokens: 256, recentMessagesToKeep: 6, minRecentMessagesToKeep: 2, systemPrompt: "Be brief." };

/** A model on a manual clock: `latency` ms before the first token, then `gap` ms before each next one. */
function clockedAdapter(clock: { t: number }, pieces: readonly string[], usage: Usage | undefined, latency = 400, gap = 100): LLMAdapter {
	return {
		generate: async (req: GenerateRequest): Promise<GenerateResult> => {
			await Promise.resolve();
			pieces.forEach((piece, i) => {
				clock.t += i === 0 ? latency : gap;
				req.onToken?.(piece);
			});
			return { text: pieces.join(""), ...(usage ? { usage } : {}) };
		},
	};
}

function chatOn(adapter: LLMAdapter, clock: { t: number }, store = new MemoryFileStore(), model = "llama3.2") {
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	const chat = new ChatService({ adapter, sessions, settings: SETTINGS, model, now: () => clock.t });
	return { chat, sessions, store };
}

describe("answer stats", () => {
	it("times the first token and the streaming after it on the injected clock, and keeps the server's counts", async () => {
		const clock = { t: 1_000_000 };
		const { chat } = chatOn(clockedAdapter(clock, ["One", " two", " three", " four", " five"], { promptTokens: 321, completionTokens: 40 }), clock);
		const answer = await chat.sendMessage("Count to five");
		expect(answer.stats).toEqual({
			promptTokens: 321,
			answerTokens: 40,
			reported: { prompt: true, answer: true },
			firstTokenMs: 400,
			streamMs: 400,
			durationMs: 800,
			requests: 1,
			model: "llama3.2",
		});
		// 40 tokens over the 0.4 s after the first token.
		expect(tokensPerSecond(answer.stats!)).toBe(100);
	});

	it("estimates both counts, and says so, when the server reports none", async () => {
		const clock = { t: 0 };
		const { chat } = chatOn(clockedAdapter(clock, ["A fairly long answer ", "with several words in it."], undefined), clock);
		const answer = await chat.sendMessage("Say something");
		expect(answer.stats?.reported).toEqual({ prompt: false, answer: false });
		expect(answer.stats?.answerTokens).toBeGreaterThan(3);
		expect(answer.stats?.promptTokens).toBeGreaterThan(answer.stats?.answerTokens ?? 0);
	});

	it("estimates only the count the server left out", async () => {
		const clock = { t: 0 };
		const { chat } = chatOn(clockedAdapter(clock, ["Short."], { completionTokens: 2 }), clock);
		const answer = await chat.sendMessage("Say something");
		expect(answer.stats?.reported).toEqual({ prompt: false, answer: true });
		expect(answer.stats?.answerTokens).toBe(2);
	});

	it("sums a tool loop's requests on the answer that ends the turn, and only there", async () => {
		const read = recordingTool("read_note", "read", (a) => `Contents of ${String(a.path)}`);
		const adapter = new ScriptedToolAdapter((_req, i) => (i < 2 ? { text: "Looking.", calls: [call("read_note", { path: `N${i}.md` })] } : { text: "Done." }));
		const counts = [{ promptTokens: 100, completionTokens: 10 }, { promptTokens: 200, completionTokens: 20 }, { promptTokens: 300, completionTokens: 30 }];
		let n = 0;
		const withUsage: LLMAdapter = { generate: async (req) => ({ ...(await adapter.generate(req)), ...(req.purpose === "chat" ? { usage: counts[n++] } : {}) }) };
		const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
		const chat = new ChatService({ adapter: withUsage, sessions, settings: SETTINGS, model: "qwen3", tools: [read] });
		const answer = await chat.sendMessage("Read two notes");
		expect(answer.stats).toMatchObject({ promptTokens: 600, answerTokens: 60, requests: 3, reported: { prompt: true, answer: true }, model: "qwen3" });
		// The answers that made calls carry none, so a chat's total counts each request once.
		expect(chat.messages.filter((m) => m.stats !== undefined)).toEqual([answer]);
		expect(chatUsage(chat.messages)).toMatchObject({ promptTokens: 600, answerTokens: 60, answers: 1, requests: 3 });
	});

	it("keeps a stopped answer's cost, estimated", async () => {
		const clock = { t: 0 };
		const controller = new AbortController();
		const adapter: LLMAdapter = {
			generate: (req) =>
				new Promise((_resolve, reject) => {
					clock.t += 250;
					req.onToken?.("Partial answer");
					controller.abort();
					req.signal?.addEventListener("abort", () => reject(new Error("aborted")));
					if (req.signal?.aborted === true) reject(new Error("aborted"));
				}),
		};
		const { chat } = chatOn(adapter, clock);
		const answer = await chat.sendMessage("Go on", { signal: controller.signal });
		expect(answer.cancelled).toBe(true);
		expect(answer.stats).toMatchObject({ requests: 1, firstTokenMs: 250, reported: { prompt: false, answer: false } });
		expect(answer.stats?.answerTokens).toBeGreaterThan(0);
	});

	it("saves the stats with the answer: a reload shows them again", async () => {
		const clock = { t: 5_000 };
		const store = new MemoryFileStore();
		const { chat } = chatOn(clockedAdapter(clock, ["Hello", " there"], { promptTokens: 50, completionTokens: 3 }), clock, store);
		const answer = await chat.sendMessage("Hi");
		const reloaded = await new SessionManager(store, { onWarning: () => undefined }).load(chat.sessionId ?? "");
		expect(answer.stats).toMatchObject({ promptTokens: 50, answerTokens: 3 });
		expect(reloaded.messages.find((m) => m.id === answer.id)?.stats).toEqual(answer.stats);
	});

	it("drops damaged stats on load, never the answer", () => {
		const base = { id: "a1", role: "assistant", content: "Kept.", createdAt: "2026-01-01T00:00:00.000Z" };
		const lines = [
			{ type: "session", v: 1, id: "s", createdAt: base.createdAt, title: "T" },
			{ type: "message", message: { ...base, stats: { promptTokens: -3, answerTokens: "x", model: 7 } } },
			{ type: "message", message: { ...base, id: "a2", stats: { promptTokens: 10, answerTokens: 2, reported: true, model: "m", firstTokenMs: "soon" } } },
		];
		const parsed = parseSessionFile(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
		const [, first, second] = parsed.records;
		expect(first?.type === "message" && first.message.content).toBe("Kept.");
		expect(first?.type === "message" && first.message.stats).toBeUndefined();
		// One flag for both counts reads as both; an unreadable time is dropped alone.
		expect(second?.type === "message" && second.message.stats).toEqual({ promptTokens: 10, answerTokens: 2, reported: { prompt: true, answer: true }, requests: 1, model: "m" });
	});
});
