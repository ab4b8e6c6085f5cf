// What the panel does after a failed turn, for an answer cut off at the size cap: the
// question and the partial answer are both saved, so the question does not go back into the input,
// and Retry is offered.
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/core/types";
import { LLMError } from "../../src/providers/errors";
import type { Composer } from "../../src/ui/panel/Composer";
import type { MessageList } from "../../src/ui/panel/MessageList";
import { showTurnFailure } from "../../src/ui/panel/turnFailure";

function scene(messages: ChatMessage[]): { composerValue: () => string; retryOffered: () => boolean; run: (text: string) => void } {
	let value = "";
	let retry: (() => void) | undefined;
	const composer = { get value() { return value; }, setValue: (t: string) => void (value = t) } as unknown as Composer;
	const list = { showError: (_d: unknown, onRetry?: () => void) => ((retry = onRetry), { setProbe: () => undefined }) } as unknown as MessageList;
	const err = new LLMError("protocol", "The answer passed 8,192 characters… cut off there.", { partialText: "Once upon" });
	return {
		composerValue: () => value,
		retryOffered: () => retry !== undefined,
		run: (text) => showTurnFailure({ list, composer, messages, adapter: undefined }, { err, text, wholeNote: false, retry: () => undefined }),
	};
}

const at = "2025-01-01T00:00:00.000Z";

describe("a turn whose answer was cut off", () => {
	it("keeps the saved question out of the input and offers Retry", () => {
		const s = scene([
			{ id: "u", role: "user", content: "Tell me a story.", createdAt: at },
			{ id: "a", role: "assistant", content: "Once upon", createdAt: at, cancelled: true, error: "cut off" },
		]);
		s.run("Tell me a story.");
		expect(s.composerValue()).toBe("");
		expect(s.retryOffered()).toBe(true);
	});

	it("still puts back a question that was never saved", () => {
		const s = scene([{ id: "a0", role: "assistant", content: "Earlier answer", createdAt: at }]);
		s.run("Unsaved question");
		expect(s.composerValue()).toBe("Unsaved question");
	});
});
