// Each dialect's usage, parsed from its real stream shape, becomes the answer's stats: the
// server's counts when it sent them (Ollama prompt_eval_count/eval_count, OpenAI's include_usage
// chunk, Anthropic's message_start/message_delta), the engine's estimates when it sent none; for
// summary requests as for chat requests.
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { createAdapter, type ProviderName } from "../../src/providers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { memoryTransport } from "../support/memoryTransport";
import { baseUrlFor, headersFor, streamFor } from "../support/providerStreams";
import { SUMMARY_INSTRUCTION } from "../../src/chat/summarizer";
import type { ChatMessage } from "../../src/core/types";

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

describe("summary requests' usage from each dialect", () => {
	for (const provider of DIALECTS) {
		it(`${provider}: a summary request asks for usage like a chat request and its counts reach the answer's stats`, async () => {
			const bodies: string[] = [];
			const transport = memoryTransport((_url, init) => {
				const body = init.body ?? "";
				bodies.push(body);
				const summary = body.includes(SUMMARY_INSTRUCTION.slice(0, 40));
				const stream = summary ? streamFor(provider, ["The person asked ", "about harbours."], { promptTokens: 1500, completionTokens: 90 }) : streamFor(provider, TOKENS, { promptTokens: 812, completionTokens: 37 });
				return { headers: headersFor(provider), chunks: [new TextEncoder().encode(stream)] };
			});
			const adapter = createAdapter({ provider, baseUrl: baseUrlFor(provider, "http://127.0.0.1:9"), model: "m-1", apiKey: "sk-test", transport });
			const settings = { maxPromptTokens: 1024, reservedResponseTokens: 128, recentMessagesToKeep: 4, minRecentMessagesToKeep: 2, systemPrompt: "Be brief." };
			const chat = new ChatService({ adapter, sessions: new SessionManager(new MemoryFileStore(), { onWarning: () => undefined }), model: "m-1", settings });
			let answer: ChatMessage | undefined;
			for (let i = 0; i < 12 && answer?.stats?.summary === undefined; i++) answer = await chat.sendMessage(`Question ${i}: ${"harbour ".repeat(60)}`);
			const summaries = bodies.filter((b) => b.includes(SUMMARY_INSTRUCTION.slice(0, 40)));
			expect(summaries.length).toBeGreaterThan(0);
			// OpenAI-compatible servers send usage only when asked: summary requests ask too.
			if (provider === "openai") for (const body of summaries) expect(JSON.parse(body)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
			const n = answer?.stats?.summary?.requests ?? 0;
			expect(n).toBeGreaterThan(0);
			expect(answer?.stats).toMatchObject({ promptTokens: 812, answerTokens: 37, summary: { promptTokens: 1500 * n, answerTokens: 90 * n, reported: { prompt: true, answer: true } } });
		});
	}
});
