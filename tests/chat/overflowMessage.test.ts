// The overflow message uses the server's count when the server names it, through the real adapters
// and each server's exact error body: llama.cpp's `exceed_context_size_error` (n_prompt_tokens,
// n_ctx), OpenAI's "maximum context length is X tokens. However, your messages resulted in Y
// tokens", Anthropic's "prompt is too long: Y tokens > X maximum". Discover's own estimate of that
// prompt is far lower (the tokenizer differs): saying it understated the problem (issue: "about
// 1,344 tokens" for a prompt the server counted at 3,682).
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { createAdapter, type ProviderName } from "../../src/providers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { Scenario } from "../support/providerServer";
import { baseUrlFor, CHAT_PATHS } from "../support/providerStreams";
import { TRANSPORTS, useProviderServer } from "../support/transports";

const json = (body: unknown): Scenario => ({ status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** Each server's body for a prompt it counted at 9,000 tokens, in a window of 1,024. */
const BODIES: { name: string; provider: ProviderName; reply: Scenario }[] = [
	{
		name: "llama.cpp",
		provider: "openai",
		reply: json({ error: { code: 400, message: "request (9000 tokens) exceeds the available context size (1024 tokens), try increasing it", type: "exceed_context_size_error", n_prompt_tokens: 9000, n_ctx: 1024 } }),
	},
	{
		name: "OpenAI",
		provider: "openai",
		reply: json({ error: { message: "This model's maximum context length is 1024 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } }),
	},
	{
		name: "Anthropic",
		provider: "anthropic",
		reply: json({ type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 9000 tokens > 1024 maximum" }, request_id: "req_011CV5J4YZo4J3KLTDZgDN7S" }),
	},
];

describe("the overflow message, with each server's own error body", () => {
	const env = useProviderServer(TRANSPORTS[0]?.load ?? (() => Promise.reject(new Error("no transport"))));

	for (const { name, provider, reply } of BODIES) {
		it(`${name}: gives the server's count of the refused prompt and its window, not the engine's estimate`, async () => {
			env.server.route("POST", CHAT_PATHS[provider], reply);
			const chat = new ChatService({
				adapter: createAdapter({ provider, baseUrl: baseUrlFor(provider, env.server.url), model: "m", transport: env.transport }),
				sessions: new SessionManager(new MemoryFileStore(), { onWarning: () => undefined }),
				settings: { maxPromptTokens: 8192, reservedResponseTokens: 512 },
			});
			// About 2,000 tokens by the engine's estimate: over the server's 1,024 even at its shortest.
			const text = "Please consider every word of this. ".repeat(250);
			const err = await chat.sendMessage(text).catch((e: unknown) => e);
			expect(err).toMatchObject({ kind: "context_overflow" });
			const message = (err as Error).message;
			expect(message).toContain("The server counted the prompt at 9,000 tokens");
			expect(message).toContain("the server's window of 1,024 tokens (512 of them kept for the answer) leaves room for 512");
			// The shortest retry, in the server's tokens: the engine's estimate scaled by how far it was off.
			const about = Number(/it is about ([\d,]+) of the server's tokens/.exec(message)?.[1]?.replace(/,/g, ""));
			expect(about).toBeGreaterThan(1024);
			// Refused once, not sent again: nothing shorter fits.
			expect(env.server.requests).toHaveLength(1);
		});
	}
});
