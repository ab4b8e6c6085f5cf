// ChatService end to end against the protocol servers, over both transports: a provider overflow
// leads to exactly one smaller retry; Stop keeps the partial answer and closes the connection.
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import type { ChatSettings } from "../../src/core/types";
import { createAdapter, type ProviderName } from "../../src/providers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { type RecordedRequest } from "../support/providerServer";
import { errorScenario, OVERFLOW_BODIES } from "../support/providerErrors";
import { baseUrlFor, CHAT_PATHS, endlessScenario, streamScenario } from "../support/providerStreams";
import { TRANSPORTS, useProviderServer } from "../support/transports";

const SETTINGS: Partial<ChatSettings> = { maxPromptTokens: 2048, reservedResponseTokens: 256, recentMessagesToKeep: 6, minRecentMessagesToKeep: 2 };
const FINAL = "And what does the last paragraph say?";
const LONG_ANSWER = Array.from({ length: 60 }, (_, i) => ` sentence ${i} about the note's argument and its evidence.`);
const OVERFLOW_FOR: Record<ProviderName, string> = { ollama: "ollama", openai: "openai", anthropic: "anthropic" };

/** The person's words in the last user message: this turn's sources go before them, in the same message. */
function lastUserText(r: RecordedRequest): string | undefined {
	type Text = string | { type?: string; text?: string }[];
	const body = r.json as { messages?: { role: string; content: Text }[] } | undefined;
	const users = (body?.messages ?? []).filter((m) => m.role === "user");
	const last = users[users.length - 1]?.content;
	const text = last === undefined ? undefined : typeof last === "string" ? last : last.map((b) => b.text ?? "").join("\n");
	return text?.split("\n").pop();
}

function promptChars(r: RecordedRequest): number {
	// Anthropic's system text and a turn with a cache breakpoint come as text blocks.
	type Text = string | { text?: string }[];
	const chars = (c: Text | undefined): number => (c === undefined ? 0 : typeof c === "string" ? c.length : c.reduce((n, b) => n + (b.text ?? "").length, 0));
	const body = r.json as { system?: Text; messages?: { content: Text }[] };
	return chars(body.system) + (body.messages ?? []).reduce((n, m) => n + chars(m.content), 0);
}

for (const { name, load } of TRANSPORTS) {
	describe(`ChatService over the ${name} transport`, () => {
		const env = useProviderServer(load);

		const service = (provider: ProviderName): ChatService =>
			new ChatService({
				adapter: createAdapter({ provider, baseUrl: baseUrlFor(provider, env.server.url), model: "llama3.2", transport: env.transport }),
				sessions: new SessionManager(new MemoryFileStore(), { onWarning: () => undefined }),
				settings: SETTINGS,
			});

		for (const provider of ["ollama", "openai", "anthropic"] as ProviderName[]) {
			it(`${provider}: a provider overflow leads to one smaller retry, then the answer`, async () => {
				let overflowed = false;
				env.server.route("POST", CHAT_PATHS[provider], (req) => {
					if (lastUserText(req) === FINAL && !overflowed) {
						overflowed = true;
						const overflow = OVERFLOW_BODIES[OVERFLOW_FOR[provider]];
						if (!overflow) throw new Error("no overflow body");
						return errorScenario(overflow.reply);
					}
					return streamScenario(provider, lastUserText(req) === FINAL ? ["It says ", "goodbye."] : LONG_ANSWER, {}, { chunkMin: 64, chunkMax: 256 });
				});
				const chat = service(provider);
				for (let turn = 0; turn < 4; turn++) await chat.sendMessage(`Question ${turn} about the note?`);
				const answer = await chat.sendMessage(FINAL);
				expect(answer.content).toBe("It says goodbye.");
				// Summary requests carry other text; these are the chat turn and its retry.
				const chatCalls = env.server.requests.filter((r) => lastUserText(r) === FINAL);
				expect(chatCalls).toHaveLength(2);
				const [first, retry] = chatCalls;
				if (!first || !retry) throw new Error("expected two chat calls");
				expect(promptChars(retry)).toBeLessThan(promptChars(first));
			});

			it(`${provider}: a second overflow is not retried again, and surfaces as context_overflow`, async () => {
				const overflow = OVERFLOW_BODIES[OVERFLOW_FOR[provider]];
				if (!overflow) throw new Error("no overflow body");
				env.server.route("POST", CHAT_PATHS[provider], errorScenario(overflow.reply));
				const chat = service(provider);
				// A note to shorten: a retry of the same size would be pointless, so one must be possible.
				await expect(chat.sendMessage("Hello?", { context: "A line of the note.\n".repeat(400) })).rejects.toMatchObject({ kind: "context_overflow" });
				expect(env.server.requests.filter((r) => lastUserText(r) === "Hello?")).toHaveLength(2);
				// The person's words are kept.
				expect(chat.messages.some((m) => m.role === "user" && m.content === "Hello?")).toBe(true);
			});

			it(`${provider}: Stop keeps the partial answer and closes the connection`, async () => {
				env.server.route("POST", CHAT_PATHS[provider], endlessScenario(provider));
				const chat = service(provider);
				const seen: string[] = [];
				const answer = await chat.sendMessage("Tell me a long story.", {
					onToken: (t) => {
						seen.push(t);
						if (seen.length === 5) chat.cancel();
					},
				});
				expect(answer.cancelled).toBe(true);
				expect(answer.content.startsWith("Once upon a time")).toBe(true);
				expect(answer.content).toBe(seen.join(""));
				await env.server.waitForClientClose();
				const saved = chat.messages[chat.messages.length - 1];
				expect(saved).toMatchObject({ role: "assistant", cancelled: true, content: answer.content });
			});
		}
	});
}
