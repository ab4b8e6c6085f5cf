// Each dialect's usage, parsed from its real stream shape, becomes the answer's stats: the
// server's counts when it sent them (Ollama prompt_eval_count/eval_count, OpenAI's include_usage
// chunk, Anthropic's message_start/message_delta), the engine's estimates when it sent none.
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { createAdapter, type ProviderName } from "../../src/providers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { memoryTransport } from "../support/memoryTransport";
import { baseUrlFor, headersFor, streamFor } from "../support/providerStreams";

const DIALECTS: ProviderName[] = ["ollama", "openai", "anthropic"];
const TOKENS = ["The note ", "argues for ", "slow reading."];

/** The stream with every usage field taken out, as some compatible servers send it. */
function withoutUsage(body: string): string {
	return body
		.split("\n")
		.map((line) => {
			const prefix = line.startsWith("data: ") ? "data: " : "";
			const json = line.slice(prefix.length);
			if (!json.startsWith("{")) return line;
			const value = JSON.parse(json) as Record<string, unknown>;
			delete value.usage;
			delete value.prompt_eval_count;
			delete value.eval_count;
			const message = value.message as Record<string, unknown> | undefined;
			if (message !== undefined) delete message.usage;
			return prefix + JSON.stringify(value);
		})
		.join("\n");
}

function chatFor(provider: ProviderName, body: string): ChatService {
	const transport = memoryTransport({ headers: headersFor(provider), chunks: [new TextEncoder().encode(body)] });
	const adapter = createAdapter({ provider, baseUrl: baseUrlFor(provider, "http://127.0.0.1:9"), model: "m-1", apiKey: "sk-test", transport });
	return new ChatService({ adapter, sessions: new SessionManager(new MemoryFileStore(), { onWarning: () => undefined }), model: "m-1", settings: { maxPromptTokens: 4096, reservedResponseTokens: 256 } });
}

describe("answer stats from each dialect's usage", () => {
	for (const provider of DIALECTS) {
		it(`${provider}: the server's counts, marked reported, with the model and provider`, async () => {
			const answer = await chatFor(provider, streamFor(provider, TOKENS, { promptTokens: 812, completionTokens: 37 })).sendMessage("What does the note argue?");
			expect(answer.content).toBe(TOKENS.join(""));
			expect(answer.stats).toMatchObject({ promptTokens: 812, answerTokens: 37, reported: { prompt: true, answer: true }, requests: 1, model: "m-1", provider });
		});

		it(`${provider}: no usage in the stream gives estimates, marked estimated`, async () => {
			const answer = await chatFor(provider, withoutUsage(streamFor(provider, TOKENS))).sendMessage("What does the note argue?");
			expect(answer.content).toBe(TOKENS.join(""));
			expect(answer.stats?.reported).toEqual({ prompt: false, answer: false });
			expect(answer.stats?.answerTokens).toBeGreaterThan(0);
			expect(answer.stats?.promptTokens).toBeGreaterThan(0);
		});
	}
});
