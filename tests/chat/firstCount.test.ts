// Counting with the server before the first send of a model never seen (firstCount.ts), through
// the real engine and OpenAI-compatible adapter against a local server that counts and refuses the
// way llama.cpp does: its tokenizer splits text twice as finely as the estimator expects, its
// `/v1/chat/completions/input_tokens` answers the count, and a prompt over its window gets the 400
// `exceed_context_size_error`.
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { TokenCalibration } from "../../src/chat/calibration";
import { createAdapter } from "../../src/providers";
import { forgetCountFailures } from "../../src/providers/promptCount";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { RecordedRequest, Scenario } from "../support/providerServer";
import { streamScenario } from "../support/providerStreams";
import { TRANSPORTS, useProviderServer } from "../support/transports";

const WINDOW = 2048;
const RESERVED = 256;
const MODEL = "tiny-chat";
const CHAT = "/v1/chat/completions";
const COUNT = "/v1/chat/completions/input_tokens";
const NOTE = Array.from({ length: 80 }, (_, i) => `Entry ${i + 1}: the harbour ledger lists the ship, its cargo, its crew and the weather of the day.`).join("\n\n");

/** The server's tokenizer: a token every two characters, and a few for each message's framing. */
function serverCount(req: RecordedRequest): number {
	const body = req.json as { messages?: { content: unknown }[] };
	return (body.messages ?? []).reduce((n, m) => n + 4 + Math.ceil((typeof m.content === "string" ? m.content.length : 0) / 2), 0);
}

const json = (status: number, body: unknown): Scenario => ({ status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** llama.cpp's answer to a chat request: the 400 over its window, else an answer with the prompt's count. */
function llamaChat(req: RecordedRequest): Scenario {
	const n = serverCount(req);
	if (n > WINDOW) return json(400, { error: { code: 400, message: `request (${n} tokens) exceeds the available context size (${WINDOW} tokens), try increasing it`, type: "exceed_context_size_error", n_prompt_tokens: n, n_ctx: WINDOW } });
	return streamScenario("openai", ["It ", "says so."], { promptTokens: n, completionTokens: 3 });
}

for (const { name, load } of TRANSPORTS) {
	describe(`the first send of a new model over the ${name} transport`, () => {
		const env = useProviderServer(load);

		function chatWith(calibration: TokenCalibration): ChatService {
			forgetCountFailures();
			return new ChatService({
				adapter: createAdapter({ provider: "openai", baseUrl: `${env.server.url}/v1`, model: MODEL, transport: env.transport }),
				sessions: new SessionManager(new MemoryFileStore(), { onWarning: () => undefined }),
				settings: { maxPromptTokens: WINDOW, reservedResponseTokens: RESERVED },
				model: MODEL,
				calibration,
				// The premise is a first prompt that fills the window ("stable" leaves room for the next turns).
				earlierSources: "yield",
			});
		}
		const paths = (): string[] => env.server.requests.map((r) => r.path);

		it("without a count the estimator's first prompt is refused (the premise): one 400, then the retry", async () => {
			env.server.route("POST", CHAT, llamaChat);
			const answer = await chatWith(new TokenCalibration()).sendMessage("What does entry 3 say?", { context: NOTE, contextName: "Ledger.md" });
			expect(answer.error).toBeUndefined();
			expect(answer.stats?.refused).toBe(1);
			// The count was asked, the server has no such endpoint (404): skipped, the send went on.
			expect(paths()).toEqual([COUNT, CHAT, CHAT]);
		});

		it("with the server's count the first prompt fits: not refused, and the count is learned before it is sent", async () => {
			env.server.route("POST", COUNT, (req) => json(200, { input_tokens: serverCount(req), object: "response.input_tokens" }));
			env.server.route("POST", CHAT, llamaChat);
			const calibration = new TokenCalibration();
			const chat = chatWith(calibration);
			const answer = await chat.sendMessage("What does entry 3 say?", { context: NOTE, contextName: "Ledger.md" });
			expect(answer.error).toBeUndefined();
			expect(answer.stats?.refused).toBeUndefined();
			expect(paths()).toEqual([COUNT, CHAT]);
			// What was counted is this turn's prompt: the note and the question.
			expect(JSON.stringify(env.server.requests[0]?.json)).toContain("What does entry 3 say?");
			expect(JSON.stringify(env.server.requests[0]?.json)).toContain("Entry 1:");
			// The count and the answer's usage: two calibration points, and the factor near the server's 2×.
			expect(calibration.samples(MODEL)).toBe(2);
			expect(calibration.factor(MODEL)).toBeGreaterThan(1.5);
			// Later sends, in this chat or another, have counts already: the server is not asked again.
			await chat.sendMessage("And entry 4?", { context: NOTE, contextName: "Ledger.md" });
			await chat.newSession();
			await chat.sendMessage("What does entry 5 say?", { context: NOTE, contextName: "Ledger.md" });
			expect(paths().filter((p) => p === COUNT)).toHaveLength(1);
		});

		it("a model the calibration already knows is never counted first", async () => {
			env.server.route("POST", COUNT, (req) => json(200, { input_tokens: serverCount(req) }));
			env.server.route("POST", CHAT, llamaChat);
			const calibration = new TokenCalibration({ data: { version: 1, models: { [MODEL]: [2, 2, 2] } } });
			const answer = await chatWith(calibration).sendMessage("What does entry 3 say?", { context: NOTE, contextName: "Ledger.md" });
			expect(answer.error).toBeUndefined();
			expect(paths()).toEqual([CHAT]);
		});

		it("a server that counts too slowly is not waited for: the send goes without the count", async () => {
			env.server.route("POST", COUNT, (req) => ({ ...json(200, { input_tokens: serverCount(req) }), firstByteDelayMs: 3000 }));
			env.server.route("POST", CHAT, llamaChat);
			const calibration = new TokenCalibration();
			const started = Date.now();
			const answer = await chatWith(calibration).sendMessage("What does entry 3 say?", { context: NOTE, contextName: "Ledger.md" });
			expect(answer.error).toBeUndefined();
			expect(Date.now() - started).toBeLessThan(2500);
			expect(paths().slice(0, 2)).toEqual([COUNT, CHAT]);
		});
	});
}
