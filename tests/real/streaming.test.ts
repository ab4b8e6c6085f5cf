// Streaming against llama.cpp: the count before the first send of a new model (the same number as
// the answer's usage), the usage chunk (`stream_options.include_usage`) is read, and Stop
// mid-answer keeps and saves the partial while the server frees its slot within 500 ms. Over both
// transports, with the OpenAI-compatible and the Anthropic (`/v1/messages`) dialects.
import { beforeAll, describe, expect, it } from "vitest";
import type { ProviderName } from "../../src/providers";
import { figure, realChat, recording, slotsIdleWithin, TRANSPORTS } from "./engine";
import { serverUrl } from "./servers";

const SETTINGS = { maxPromptTokens: 2048, reservedResponseTokens: 256 };
const PROVIDERS: ProviderName[] = ["openai", "anthropic"];

for (const { name, load } of TRANSPORTS) {
	// The first request of a worker loads the transport (undici for fetch, 300 ms and more on a
	// loaded machine): not what the count's time limit is about.
	beforeAll(async () => {
		const transport = await load();
		await (await transport(`${serverUrl("chat")}/health`, { method: "GET", headers: {} })).text();
	});
	for (const provider of PROVIDERS) {
		describe(`${provider} dialect over the ${name} transport`, () => {
			it("streams an answer and reads the server's usage", async () => {
				const url = serverUrl("chat");
				const transport = recording(await load());
				const { chat, sessions } = realChat(url, transport, SETTINGS, { provider });
				const deltas: string[] = [];
				const answer = await chat.sendMessage("Hello! What is the capital of France?", { onToken: (t) => deltas.push(t) });
				// A new model: the server counts the prompt first, at the chat request's address, then answers it.
				expect(transport.urls.map((u) => new URL(u).pathname)).toEqual(provider === "openai" ? ["/v1/chat/completions/input_tokens", "/v1/chat/completions"] : ["/v1/messages/count_tokens", "/v1/messages"]);
				expect(transport.statuses).toEqual([200, 200]);
				if (provider === "openai") expect(transport.bodies[1]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
				else expect(transport.bodies[1]).toMatchObject({ stream: true });
				expect(deltas.length).toBeGreaterThan(0);
				expect(answer.content).toBe(deltas.join(""));
				expect(answer.cancelled).toBeUndefined();
				expect(answer.error).toBeUndefined();
				// The server's counts, not the engine's estimates.
				expect(answer.stats?.reported).toEqual({ prompt: true, answer: true });
				expect(answer.stats?.promptTokens).toBeGreaterThan(10);
				expect(answer.stats?.answerTokens).toBeGreaterThan(0);
				expect(answer.stats?.firstTokenMs).toBeGreaterThanOrEqual(0);
				figure(`time to first token, ${provider} over ${name} (ms)`, answer.stats?.firstTokenMs);
				// The count before the send is the usage the answer reported: the same prompt, counted the same way.
				expect(transport.counts.map((c) => c.tokens)).toEqual([answer.stats?.promptTokens]);
				figure(`count before the first send, ${provider} over ${name} (ms)`, transport.counts[0]?.ms);
				const saved = await sessions.load(chat.sessionId ?? "");
				expect(saved.messages.at(-1)).toMatchObject({ role: "assistant", content: answer.content });
			});

			it("Stop mid-answer keeps and saves the partial, and the server's slot is idle within 500 ms", async () => {
				const url = serverUrl("chat");
				const { chat, sessions } = realChat(url, await load(), SETTINGS, { provider });
				const seen: string[] = [];
				const answer = await chat.sendMessage("Write a long story about a ship, a storm and a lighthouse, with many chapters.", {
					onToken: (t) => {
						seen.push(t);
						if (seen.length === 2) chat.cancel();
					},
				});
				const stoppedAt = Date.now();
				expect(answer.cancelled).toBe(true);
				expect(answer.content).toBe(seen.join(""));
				expect(answer.content.length).toBeGreaterThan(0);
				const idleMs = await slotsIdleWithin(url, 500);
				figure(`slot idle after Stop, ${provider} over ${name} (ms)`, Date.now() - stoppedAt);
				expect(idleMs).toBeLessThanOrEqual(500);
				const saved = await sessions.load(chat.sessionId ?? "");
				expect(saved.messages.at(-1)).toMatchObject({ role: "assistant", cancelled: true, content: answer.content });
				// The next turn is served as usual (the slot was freed, not wedged).
				const next = await chat.sendMessage("Thanks. Say hello.");
				expect(next.stats?.reported.prompt).toBe(true);
			});
		});
	}
}
