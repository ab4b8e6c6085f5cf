import { describe, expect, it } from "vitest";
import { setup } from "../support/chatHarness";
import { StubAdapter, type RecordedRequest } from "../support/stubAdapter";
import { LLMError } from "../../src/providers/errors";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { TokenCalibration } from "../../src/chat/calibration";
import { ChatService, type ChatEvent } from "../../src/chat/ChatService";
import { promptCost } from "../../src/chat/promptCost";
import { estimateTokens } from "../../src/chat/tokens";
import type { GenerateRequest, LLMAdapter, PromptMessage } from "../../src/core/types";

const WIDE = { maxPromptTokens: 8192, reservedResponseTokens: 512, recentMessagesToKeep: 6, minRecentMessagesToKeep: 2, systemPrompt: "Be brief." };

const cost = (r: { messages: { role: string; content: string }[] }): number => promptCost(r.messages as PromptMessage[], estimateTokens);

/** A note of about `tokens` estimated tokens. */
const note = (tokens: number): string => "The harbour opens at six and closes at nine.\n".repeat(Math.ceil(tokens / 11));

/** Refuses the first chat request with `error(request)`, then answers like the stub. */
function refusingOnce(error: (req: GenerateRequest) => Error): { adapter: LLMAdapter } {
	const stub = new StubAdapter();
	let refused = false;
	const adapter: LLMAdapter = {
		generate: (req) => {
			if (req.purpose !== "chat" || refused) return stub.generate(req);
			refused = true;
			return Promise.reject(error(req));
		},
	};
	return { adapter };
}

/** The chat requests `adapter` receives from now on. */
function recorded(adapter: LLMAdapter): RecordedRequest[] {
	const requests: RecordedRequest[] = [];
	const original = adapter.generate.bind(adapter);
	adapter.generate = (req) => {
		if (req.purpose === "chat") requests.push({ purpose: req.purpose, messages: req.messages.map((m) => ({ ...m })), maxTokens: req.maxTokens, contextWindow: req.contextWindow });
		return original(req);
	};
	return requests;
}

describe("ChatService: a prompt the server says is too long", () => {
	it("retries with at most 0.7× the prompt that failed, also when that prompt was far below the budget", async () => {
		const { adapter } = refusingOnce(() => new LLMError("context_overflow", "the prompt is longer than the context length"));
		const requests = recorded(adapter);
		const { chat } = setup(adapter, WIDE);
		await expect(chat.sendMessage("What time does the harbour open?", { context: note(3000) })).resolves.toMatchObject({ role: "assistant" });
		const [failed, retry] = requests;
		expect(requests).toHaveLength(2);
		expect(cost(failed!)).toBeGreaterThan(2500);
		expect(cost(retry!)).toBeLessThanOrEqual(Math.floor(cost(failed!) * 0.7));
	});

	it("fits the retry into the window the server names, tells the panel, and learns from its count", async () => {
		// The server counts 20% more than we estimate and has only 4,096 tokens loaded, not 8,192.
		const { adapter } = refusingOnce((req) => {
			const counted = Math.round(promptCost(req.messages, estimateTokens) * 1.2);
			return new LLMError("context_overflow", `request (${counted} tokens) exceeds the available context size (4096 tokens), try increasing it`, {
				overflow: { window: 4096, promptTokens: counted },
			});
		});
		const requests = recorded(adapter);
		const calibration = new TokenCalibration();
		const events: ChatEvent[] = [];
		const chat = new ChatService({ adapter, sessions: new SessionManager(new MemoryFileStore()), settings: WIDE, calibration, model: "m", onEvent: (e) => events.push(e), earlierSources: "yield" });
		await chat.sendMessage("What time does the harbour open?", { context: note(6000) });
		const [failed, retry] = requests;
		expect(requests).toHaveLength(2);
		expect(cost(failed!) * 1.2).toBeGreaterThan(4096);
		// In the server's tokens the retry and its answer fit the window it reported.
		expect(cost(retry!) * 1.2 + WIDE.reservedResponseTokens).toBeLessThanOrEqual(4096);
		expect(retry!.contextWindow).toBe(4096);
		expect(events).toContainEqual({ type: "window", reported: 4096, configured: 8192 });
		expect(calibration.samples("m")).toBe(1);
		expect(calibration.factor("m")).toBeGreaterThan(1.1);
	});

	it("reads the numbers from the message when the error carries only words (OpenAI's wording)", async () => {
		const { adapter } = refusingOnce(
			() => new LLMError("context_overflow", "This model's maximum context length is 4096 tokens. However, your messages resulted in 7000 tokens. Please reduce the length of the messages."),
		);
		const requests = recorded(adapter);
		const { chat, events } = setup(adapter, WIDE);
		await chat.sendMessage("Open when?", { context: note(6000) });
		expect(events).toContainEqual({ type: "window", reported: 4096, configured: 8192 });
		expect(cost(requests[1]!) + WIDE.reservedResponseTokens).toBeLessThanOrEqual(4096);
	});

	it("fails with a clear message, sending nothing more, when even the shortest retry cannot fit", async () => {
		const { adapter } = refusingOnce(() => new LLMError("context_overflow", "prompt too long", { overflow: { window: 1024 } }));
		const requests = recorded(adapter);
		const { chat, events } = setup(adapter, WIDE);
		const text = "Please consider every word of this. ".repeat(250);
		const err = await chat.sendMessage(text).catch((e: unknown) => e);
		expect(err).toMatchObject({ kind: "context_overflow" });
		expect((err as Error).message).toMatch(/Even shortened .* about [\d,]+ tokens, and the server's window of 1,024 tokens/);
		expect(requests).toHaveLength(1);
		expect(chat.messages[0]).toMatchObject({ content: text, role: "user" });
		expect(events).toContainEqual({ type: "window", reported: 1024, configured: 8192 });
	});

	it("says the server's count, not the engine's estimate, when the server named it", async () => {
		// llama.cpp names both: "request (9000 tokens) exceeds the available context size (1024 tokens)".
		const { adapter } = refusingOnce(() => new LLMError("context_overflow", "request (9000 tokens) exceeds the available context size (1024 tokens), try increasing it", { overflow: { window: 1024, promptTokens: 9000 } }));
		const requests = recorded(adapter);
		const { chat } = setup(adapter, WIDE);
		const text = "Please consider every word of this. ".repeat(250);
		const err = await chat.sendMessage(text).catch((e: unknown) => e);
		expect(err).toMatchObject({ kind: "context_overflow" });
		const message = (err as Error).message;
		expect(message).toContain("The server counted the prompt at 9,000 tokens");
		// The shortest retry in the server's tokens: the engine's estimate scaled by how far it was off.
		const about = Number(/Even shortened .* it is about ([\d,]+) of the server's tokens/.exec(message)?.[1]?.replace(/,/g, ""));
		expect(about).toBeGreaterThan(1024);
		expect(message).toContain("the server's window of 1,024 tokens (512 of them kept for the answer) leaves room for 512");
		expect(requests).toHaveLength(1);
	});
});
