// A model's thinking, from each provider's wire format to the saved message, and never back to a model.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import type { ChatMessage, GenerateRequest } from "../../src/core/types";
import { createAdapter, type ProviderName } from "../../src/providers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { memoryTransport, splitAt, type MemoryTransport } from "../support/memoryTransport";
import { headersFor, streamFor, type StreamOptions } from "../support/providerStreams";

const encoder = new TextEncoder();
const PROVIDERS: ProviderName[] = ["ollama", "openai", "anthropic"];

interface Heard {
	tokens: string;
	thinking: string;
	retracts: number;
}

function listen(): { heard: Heard; listeners: Pick<GenerateRequest, "onToken" | "onThinking" | "onTextRetracted"> } {
	const heard: Heard = { tokens: "", thinking: "", retracts: 0 };
	return {
		heard,
		listeners: {
			onToken: (d) => (heard.tokens += d),
			onThinking: (d) => (heard.thinking += d),
			onTextRetracted: () => {
				heard.retracts++;
				heard.tokens = "";
			},
		},
	};
}

async function generate(provider: ProviderName, tokens: string[], opts: StreamOptions = {}, cuts: number[] = []) {
	const bytes = encoder.encode(streamFor(provider, tokens, opts));
	const transport = memoryTransport({ headers: headersFor(provider), chunks: splitAt(bytes, cuts) });
	const adapter = createAdapter({ provider, baseUrl: "http://127.0.0.1:9", model: "m", transport });
	const { heard, listeners } = listen();
	const result = await adapter.generate({ purpose: "chat", messages: [{ role: "user", content: "Hi" }], maxTokens: 64, contextWindow: 4096, ...listeners });
	return { result, heard };
}

describe("provider thinking reaches onThinking and the result", () => {
	for (const provider of PROVIDERS) {
		it(`${provider}: the server's own thinking field streams to onThinking, apart from the answer`, async () => {
			const { result, heard } = await generate(provider, ["The ", "answer."], { thinking: ["Let me ", "think."] });
			expect(heard).toEqual({ tokens: "The answer.", thinking: "Let me think.", retracts: 0 });
			expect(result).toMatchObject({ text: "The answer.", thinking: "Let me think." });
		});

		it(`${provider}: <think> in the answer text is thinking, at any byte split`, async () => {
			await fc.assert(
				fc.asyncProperty(fc.array(fc.nat({ max: 3000 }), { maxLength: 30 }), fc.boolean(), async (cuts, templateOpened) => {
					// With templateOpened, the server's chat template emitted <think> itself: only </think> arrives.
					const tokens = [...(templateOpened ? [] : ["<th", "ink>\n"]), "Okay, the user ", "says hi.</", "think>\n\n", "Hello", " there!"];
					const { result, heard } = await generate(provider, tokens, {}, cuts);
					expect(result).toMatchObject({ text: "Hello there!", thinking: "Okay, the user says hi." });
					expect(heard.tokens).toBe("Hello there!");
					expect(heard.thinking).toBe("Okay, the user says hi.");
				}),
				{ numRuns: 40 },
			);
		});

		it(`${provider}: an answer that mentions <think> later keeps it as written`, async () => {
			const { result, heard } = await generate(provider, ["Reasoning models write ", "<think> first.", " Then </think>."]);
			expect(result.text).toBe("Reasoning models write <think> first. Then </think>.");
			expect(result.thinking).toBeUndefined();
			expect(heard).toEqual({ tokens: result.text, thinking: "", retracts: 0 });
		});
	}
});

/** Request bodies the model received, as sent on the wire. */
function sentBodies(transport: MemoryTransport): string[] {
	return transport.calls.map((c) => String(c.init.body));
}

describe("thinking in a chat", () => {
	for (const provider of PROVIDERS) {
		it(`${provider}: is saved on the answer (ChatMessage.thinking, with how long), streamed to onThinking, and never sent back`, async () => {
			const replies = [
				streamFor(provider, ["First answer."], { thinking: ["SECRET-REASONING ", "about the question."] }),
				streamFor(provider, ["<think>MORE-REASONING</think>", "Second answer."]),
				streamFor(provider, ["Third answer."]),
			];
			let call = 0;
			const transport = memoryTransport(() => ({ headers: headersFor(provider), chunks: [encoder.encode(replies[call++] ?? "")] }));
			const adapter = createAdapter({ provider, baseUrl: "http://127.0.0.1:9", model: "m", transport });
			let clock = 0;
			const store = new MemoryFileStore();
			const sessions = new SessionManager(store);
			const chat = new ChatService({ adapter, sessions, now: () => (clock += 250) });
			const { heard, listeners } = listen();
			const first = await chat.sendMessage("One?", listeners);
			expect(heard.thinking).toBe("SECRET-REASONING about the question.");
			expect(first).toMatchObject({ content: "First answer.", thinking: "SECRET-REASONING about the question." });
			expect(first.thinkingMs).toBeGreaterThan(0);
			const second = await chat.sendMessage("Two?");
			expect(second).toMatchObject({ content: "Second answer.", thinking: "MORE-REASONING" });
			await chat.sendMessage("Three?");

			// Saved: a fresh load has it.
			const loaded = await new SessionManager(store).load(chat.sessionId!);
			const answers = loaded.messages.filter((m) => m.role === "assistant");
			expect(answers.map((m) => m.thinking)).toEqual(["SECRET-REASONING about the question.", "MORE-REASONING", undefined]);

			// The later requests carry the earlier answers, never their thinking.
			const bodies = sentBodies(transport);
			expect(bodies).toHaveLength(3);
			expect(bodies[2]).toContain("First answer.");
			expect(bodies[2]).toContain("Second answer.");
			for (const body of bodies) {
				expect(body).not.toContain("SECRET-REASONING");
				expect(body).not.toContain("MORE-REASONING");
			}
		});
	}

	it("a stopped answer keeps what it thought so far", async () => {
		const controller = new AbortController();
		const adapter = {
			generate(req: GenerateRequest) {
				req.onThinking?.("Half a thought");
				controller.abort();
				return Promise.reject(Object.assign(new Error("Stopped."), { kind: "aborted" }));
			},
		};
		const chat = new ChatService({ adapter, sessions: new SessionManager(new MemoryFileStore()) });
		const answer = await chat.sendMessage("Hi", { signal: controller.signal });
		expect(answer).toMatchObject({ cancelled: true, content: "", thinking: "Half a thought" });
	});

	it("is not counted in the history budget: the estimate is the same with or without it", async () => {
		const withThinking = await previewAfter("x ".repeat(5000));
		const without = await previewAfter(undefined);
		expect(withThinking.estimatedTokens).toBe(without.estimatedTokens);
	});
});

/** The budget preview of a chat whose one answer thought `thinking`. */
async function previewAfter(thinking: string | undefined) {
	const adapter = {
		generate(req: GenerateRequest) {
			if (thinking !== undefined) req.onThinking?.(thinking);
			return Promise.resolve({ text: "The answer.", ...(thinking !== undefined ? { thinking } : {}) });
		},
	};
	const chat = new ChatService({ adapter, sessions: new SessionManager(new MemoryFileStore()) });
	const answer: ChatMessage = await chat.sendMessage("Question?");
	expect(answer.thinking).toBe(thinking);
	return chat.previewPrompt("Next?");
}
