// An answer that runs into its token limit (llama.cpp's `finish_reason: "length"`, as at the end of
// the context) is shown and saved as cut, and says so. The 512-token server. The tiny model's answers
// are about 10 tokens, under the setting's minimum room (16), so the wire's `max_tokens` is lowered
// to 4 on the way out (the recording transport); a model that ends its turn within 4 tokens is
// tried with another seed, at most 3.
import { expect, it } from "vitest";
import { fetchTransport } from "../../src/providers/transport";
import { figure, realChat, recording } from "./engine";
import { serverUrl } from "./servers";

const LIMIT = 4;

it("an answer that hits the token limit is kept, saved as cut, and says so", async () => {
	for (const seed of [3, 17, 99]) {
		const transport = recording(fetchTransport, { seed, max_tokens: LIMIT });
		const { chat, sessions } = realChat(serverUrl("small"), transport, { maxPromptTokens: 512, reservedResponseTokens: 16 });
		const deltas: string[] = [];
		const answer = await chat.sendMessage("Write a long story about a ship, a storm and a lighthouse, with many chapters.", { onToken: (t) => deltas.push(t) });
		// The count before the first send (skipped when the server takes over 300 ms, as on a loaded
		// machine), then the answer: one request answered, nothing refused.
		expect(transport.statuses.filter((s) => s !== 200)).toEqual([]);
		expect(transport.statuses.length).toBeGreaterThanOrEqual(1);
		expect(transport.statuses.length).toBeLessThanOrEqual(2);
		if (answer.error === undefined) {
			figure(`cut test: the model ended its turn within ${LIMIT} tokens with seed ${seed}`, answer.stats?.answerTokens);
			continue;
		}
		figure("cut test: seed", seed);
		// Shown as streamed, whole, and saved with why.
		expect(answer.content).toBe(deltas.join(""));
		expect(answer.content.length).toBeGreaterThan(0);
		expect(answer.error).toMatch(/cut off/);
		expect(answer.stats?.answerTokens).toBe(LIMIT);
		const saved = (await sessions.load(chat.sessionId ?? "")).messages.at(-1);
		expect(saved).toMatchObject({ role: "assistant", content: answer.content, error: answer.error });
		return;
	}
	throw new Error(`the model ended its turn within ${LIMIT} tokens with every seed`);
});
