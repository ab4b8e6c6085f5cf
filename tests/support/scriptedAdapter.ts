import type { GenerateRequest, GenerateResult, LLMAdapter } from "../../src/core/types";
import { LLMError } from "../../src/providers/errors";
import { digestSummary, type RecordedRequest } from "./stubAdapter";

/**
 * An adapter whose chat answers are numbered ("answer 3") and which, when told to, stops after
 * streaming part of one (the test's signal is aborted, as Stop does), for branch tests.
 */
export class ScriptedAdapter implements LLMAdapter {
	readonly requests: RecordedRequest[] = [];
	private count = 0;
	/** Set for the next chat answer: it streams this text, then the turn is stopped. */
	stopNext: { partial: string; stop: () => void } | undefined;
	/** Set for the next chat answer: the model's thinking before it. */
	thinkNext: string | undefined;
	/** Set for the next chat answer: it waits for this before it answers. */
	holdNext: Promise<void> | undefined;
	/** Set for the next chat answer: it fails with this error (after streaming `partial`, if given). */
	failNext: { error: LLMError; partial?: string } | undefined;

	get chatRequests(): RecordedRequest[] {
		return this.requests.filter((r) => r.purpose === "chat");
	}

	get lastChat(): RecordedRequest | undefined {
		return this.chatRequests[this.chatRequests.length - 1];
	}

	async generate(req: GenerateRequest): Promise<GenerateResult> {
		this.requests.push({ purpose: req.purpose, messages: req.messages.map((m) => ({ role: m.role, content: m.content })), maxTokens: req.maxTokens, contextWindow: req.contextWindow });
		await new Promise((resolve) => setImmediate(resolve));
		if (req.signal?.aborted) throw new LLMError("aborted", "The request was stopped.");
		if (req.purpose === "summary") return { text: digestSummary(req) };
		const hold = this.holdNext;
		this.holdNext = undefined;
		if (hold !== undefined) await hold;
		const fail = this.failNext;
		this.failNext = undefined;
		if (fail !== undefined) {
			if (fail.partial !== undefined) req.onToken?.(fail.partial);
			throw fail.error;
		}
		const stop = this.stopNext;
		this.stopNext = undefined;
		if (stop !== undefined) {
			req.onToken?.(stop.partial);
			stop.stop();
			throw new LLMError("aborted", "The request was stopped.");
		}
		const text = `answer ${++this.count}`;
		const thinking = this.thinkNext;
		this.thinkNext = undefined;
		if (thinking !== undefined) req.onThinking?.(thinking);
		req.onToken?.(text);
		return thinking === undefined ? { text } : { text, thinking };
	}
}
