// The real overflow error. Hebrew costs this tokenizer about 3.4× what the estimator (never tuned on
// it) counts, so a Hebrew note fitted to a 512-token window by the estimate is refused by llama.cpp
// with 400 `exceed_context_size_error`; the engine's one smaller retry recovers the turn.
import { describe, expect, it } from "vitest";
import type { ChatEvent } from "../../src/chat/ChatService";
import { fetchTransport } from "../../src/providers/transport";
import { TokenCalibration } from "../../src/chat/calibration";
import { MODEL, realChat, recording, serverTokens } from "./engine";
import { serverUrl } from "./servers";

const HEBREW = "בראשית ברא אלוהים את השמים ואת הארץ והארץ הייתה תוהו ובוהו וחושך על פני תהום ורוח אלוהים מרחפת על פני המים ";
const NOTE = Array.from({ length: 40 }, (_, i) => `${i + 1}. ${HEBREW}`).join("\n");

describe("llama.cpp's overflow error", () => {
	it("the server refuses a prompt over its window with 400 exceed_context_size_error, naming its count and window", async () => {
		const url = serverUrl("small");
		const res = await fetchTransport(`${url}/v1/chat/completions`, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ model: "x", messages: [{ role: "user", content: NOTE }], max_tokens: 8 }),
			signal: AbortSignal.timeout(10_000),
		});
		expect(res.status).toBe(400);
		const body = (await res.json()) as { error: { type: string; message: string; n_ctx?: number; n_prompt_tokens?: number } };
		expect(body.error.type).toBe("exceed_context_size_error");
		expect(body.error.message).toMatch(/request \(\d+ tokens\) exceeds the available context size \(512 tokens\)/);
	});

	it("an under-counted prompt is refused once, the smaller retry answers, and the server's count is learned", async () => {
		const url = serverUrl("small");
		const transport = recording(fetchTransport);
		// A calibration that believes this model counts like the estimator: no count is asked before
		// the send (the model is known), and the Hebrew note is under-counted on purpose.
		const calibration = new TokenCalibration({ data: { version: 1, models: { [MODEL]: [1, 1, 1] } } });
		const { chat, sessions } = realChat(url, transport, { maxPromptTokens: 512, reservedResponseTokens: 64 }, { calibration });
		const answer = await chat.sendMessage("What does the note say?", { context: NOTE, contextName: "Genesis.md" });
		// One 400 (the real error), then the retry's answer.
		expect(transport.statuses).toEqual([400, 200]);
		expect(answer.error).toBeUndefined();
		expect(answer.stats?.refused).toBe(1);
		expect(answer.stats?.reported.prompt).toBe(true);
		expect(answer.stats?.promptTokens).toBeLessThanOrEqual(512 - 64);
		// The server's counts were learned.
		expect(calibration.samples(MODEL)).toBeGreaterThan(3);
		const saved = await sessions.load(chat.sessionId ?? "");
		expect(saved.messages.at(-1)).toMatchObject({ role: "assistant", content: answer.content });
		// The server's count of the note really is far above the estimate (the premise of the test).
		expect(await serverTokens(url, NOTE)).toBeGreaterThan(512);
	});

	it("a window configured larger than the server's: the window named in the error is learned and the turn recovered", async () => {
		const url = serverUrl("small");
		const transport = recording(fetchTransport);
		const events: ChatEvent[] = [];
		const calibration = new TokenCalibration({ data: { version: 1, models: { [MODEL]: [1, 1, 1] } } });
		const { chat } = realChat(url, transport, { maxPromptTokens: 4096, reservedResponseTokens: 64 }, { onEvent: (e) => events.push(e), calibration });
		const answer = await chat.sendMessage("Summarize the note.", { context: NOTE, contextName: "Genesis.md" });
		expect(transport.statuses).toEqual([400, 200]);
		expect(answer.error).toBeUndefined();
		expect(events).toContainEqual({ type: "window", reported: 512, configured: 4096 });
	});
});
