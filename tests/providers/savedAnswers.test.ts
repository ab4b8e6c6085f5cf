// What the engine keeps of an answer: an answer cut off at the size cap is
// saved with why, and a key the server echoes inside an answer — streamed, split across chunks —
// reaches neither the saved session file nor the exported note, whether the answer completes, is
// stopped or is cut off.
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import type { ChatMessage, ChatSettings } from "../../src/core/types";
import { createAdapter, type ProviderName } from "../../src/providers";
import { BUDGET_LIMITS } from "../../src/chat/chatSettings";
import { answerCharLimit } from "../../src/providers/limits";
import { sessionToMarkdown } from "../../src/sessions/markdown";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { baseUrlFor, CHAT_PATHS, endlessChunk, headersFor, streamFor, streamScenario } from "../support/providerStreams";
import { TRANSPORTS, useProviderServer } from "../support/transports";

const KEY = "sk-proj-EcHoEdKeY9x8w7v6u5t4s3r2q1p0ZZ";
/** The key split mid-way across two tokens, each of which the server also splits into byte chunks. */
const ECHO_TOKENS = ["Your key is ", KEY.slice(0, 17), KEY.slice(17), " and that is all."];
/** The smallest answer allowance the engine keeps, so the size cap comes soon. */
const SETTINGS: Partial<ChatSettings> = { maxPromptTokens: 2048, reservedResponseTokens: BUDGET_LIMITS.reservedResponseTokens.min };

function expectNoKey(text: string): void {
	for (let i = 0; i + 8 <= KEY.length; i++) expect(text).not.toContain(KEY.slice(i, i + 8));
}

for (const { name, load } of TRANSPORTS) {
	describe(`saved answers over the ${name} transport`, () => {
		const env = useProviderServer(load);

		function setup(provider: ProviderName): { chat: ChatService; store: MemoryFileStore; sessions: SessionManager } {
			const store = new MemoryFileStore();
			const sessions = new SessionManager(store, { onWarning: () => undefined });
			const adapter = createAdapter({ provider, baseUrl: baseUrlFor(provider, env.server.url), model: "m", apiKey: KEY, transport: env.transport });
			return { chat: new ChatService({ adapter, sessions, settings: SETTINGS }), store, sessions };
		}

		async function savedAndExported(chat: ChatService, store: MemoryFileStore, sessions: SessionManager): Promise<string> {
			const id = chat.sessionId;
			if (id === undefined) throw new Error("no session");
			return [...store.files.values()].join("\n") + sessionToMarkdown(await sessions.load(id));
		}

		for (const provider of ["ollama", "openai", "anthropic"] as ProviderName[]) {
			it(`${provider}: a key echoed in a complete answer is in neither the session file nor the export`, async () => {
				env.server.route("POST", CHAT_PATHS[provider], streamScenario(provider, ECHO_TOKENS, {}, { chunkMin: 1, chunkMax: 5 }));
				const { chat, store, sessions } = setup(provider);
				const answer = await chat.sendMessage("What is my key?");
				expect(answer.content).toBe("Your key is [redacted] and that is all.");
				const saved = await savedAndExported(chat, store, sessions);
				expect(saved).toContain("and that is all.");
				expectNoKey(saved);
			});

			it(`${provider}: a key echoed in a stopped answer is not saved either`, async () => {
				const opening = streamFor(provider, ECHO_TOKENS, { noTerminator: true });
				env.server.route("POST", CHAT_PATHS[provider], { headers: headersFor(provider), body: opening, endless: { repeat: endlessChunk(provider), intervalMs: 5 } });
				const { chat, store, sessions } = setup(provider);
				const seen: string[] = [];
				const answer = await chat.sendMessage("What is my key?", {
					onToken: (t) => {
						seen.push(t);
						if (seen.length === ECHO_TOKENS.length + 2) chat.cancel();
					},
				});
				expect(answer.cancelled).toBe(true);
				expect(answer.content.startsWith("Your key is [redacted] and that is all. more")).toBe(true);
				expectNoKey(await savedAndExported(chat, store, sessions));
			});

			it(`${provider}: an answer cut off at the size cap is saved, marked, without the key, and the error reported`, async () => {
				const opening = streamFor(provider, ECHO_TOKENS, { noTerminator: true });
				env.server.route("POST", CHAT_PATHS[provider], { headers: headersFor(provider), body: opening, endless: { repeat: endlessChunk(provider).repeat(100), intervalMs: 0 } });
				const { chat, store, sessions } = setup(provider);
				await expect(chat.sendMessage("Tell me a story with my key.")).rejects.toMatchObject({ kind: "protocol" });
				const last = chat.messages[chat.messages.length - 1] as ChatMessage;
				expect(last).toMatchObject({ role: "assistant", cancelled: true });
				expect(last.error).toContain("cut off");
				expect(last.content.startsWith("Your key is [redacted] and that is all. more more")).toBe(true);
				expect(last.content.length).toBeLessThanOrEqual(answerCharLimit(BUDGET_LIMITS.reservedResponseTokens.min));
				const saved = await savedAndExported(chat, store, sessions);
				expect(saved).toContain("and that is all. more more");
				expectNoKey(saved);
			});
		}
	});
}
