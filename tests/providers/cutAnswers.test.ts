// An answer that ran into the token limit (OpenAI-compatible `finish_reason: "length"`: the
// answer's max_tokens or, on llama.cpp, the end of the context window) is shown and saved as cut,
// and says so; before, it was saved as if the model had finished.
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { createAdapter } from "../../src/providers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { baseUrlFor, CHAT_PATHS, streamScenario } from "../support/providerStreams";
import { TRANSPORTS, useProviderServer } from "../support/transports";

const chunk = (delta: object, finish: string | null): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

for (const { name, load } of TRANSPORTS) {
	describe(`an answer cut at the token limit, over the ${name} transport`, () => {
		const env = useProviderServer(load);

		for (const [finish, cut] of [
			["length", true],
			["stop", false],
		] as const) {
			it(`finish_reason "${finish}": ${cut ? "kept, saved as cut, and says so" : "a whole answer, not marked"}`, async () => {
				const body = chunk({ role: "assistant", content: "The ledger lists" }, null) + chunk({ content: " four ships and" }, null) + chunk({}, finish) + "data: [DONE]\n\n";
				env.server.route("POST", CHAT_PATHS.openai, streamScenario("openai", [], {}, { body }));
				const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
				const chat = new ChatService({ adapter: createAdapter({ provider: "openai", baseUrl: baseUrlFor("openai", env.server.url), model: "m", transport: env.transport }), sessions, settings: { maxPromptTokens: 2048, reservedResponseTokens: 256 } });
				const answer = await chat.sendMessage("What does the ledger list?");
				expect(answer.content).toBe("The ledger lists four ships and");
				const saved = (await sessions.load(chat.sessionId ?? "")).messages.at(-1);
				expect(saved).toMatchObject({ role: "assistant", content: answer.content });
				if (cut) {
					expect(answer.error).toMatch(/cut off/);
					expect(saved?.error).toBe(answer.error);
				} else {
					expect(answer.error).toBeUndefined();
					expect(saved?.error).toBeUndefined();
				}
			});
		}
	});
}

describe("an answer cut at the token limit, Anthropic's dialect", () => {
	const env = useProviderServer(TRANSPORTS[0]!.load);

	for (const [stop, cut] of [
		["max_tokens", true],
		["end_turn", false],
	] as const) {
		it(`stop_reason "${stop}": ${cut ? "saved as cut, and says so" : "not marked"}`, async () => {
			const sse = (event: string, data: object): string => `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;
			const body =
				sse("message_start", { message: { id: "m1", type: "message", role: "assistant", content: [], usage: { input_tokens: 20, output_tokens: 0 } } }) +
				sse("content_block_start", { index: 0, content_block: { type: "text", text: "" } }) +
				sse("content_block_delta", { index: 0, delta: { type: "text_delta", text: "The ledger lists" } }) +
				sse("content_block_stop", { index: 0 }) +
				sse("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 4 } }) +
				sse("message_stop", {});
			env.server.route("POST", CHAT_PATHS.anthropic, streamScenario("anthropic", [], {}, { body }));
			const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
			const chat = new ChatService({ adapter: createAdapter({ provider: "anthropic", baseUrl: baseUrlFor("anthropic", env.server.url), model: "m", transport: env.transport }), sessions });
			const answer = await chat.sendMessage("What does the ledger list?");
			expect(answer.content).toBe("The ledger lists");
			if (cut) expect(answer.error).toMatch(/cut off/);
			else expect(answer.error).toBeUndefined();
		});
	}
});
