import type { GenerateRequest, GenerateResult, LLMAdapter } from "../../src/core/types";
import { promptCost } from "../../src/chat/promptCost";
import { estimateTokens } from "../../src/chat/tokens";
import { LLMError } from "../../src/providers/errors";

export interface CountedRequest {
	purpose: GenerateRequest["purpose"];
	/** The prompt's raw (uncalibrated) estimate: its size whatever the engine has learned. */
	raw: number;
	/** What the server counted. */
	counted: number;
	overflowed: boolean;
}

/**
 * A server with a fixed window that counts each prompt as `ratio()` times its raw estimate (the
 * sequence of ratios is the test's: consistent, noisy or jumping), reports the count with every
 * answer, and refuses a prompt that does not fit, naming its window and count.
 */
export class CountingServer implements LLMAdapter {
	readonly requests: CountedRequest[] = [];

	constructor(
		private readonly window: number,
		private readonly ratio: () => number,
	) {}

	get chatRequests(): CountedRequest[] {
		return this.requests.filter((r) => r.purpose === "chat");
	}

	generate(req: GenerateRequest): Promise<GenerateResult> {
		const raw = promptCost(req.messages, estimateTokens);
		const counted = Math.max(1, Math.round(raw * this.ratio()));
		const overflowed = counted + req.maxTokens > this.window;
		this.requests.push({ purpose: req.purpose, raw, counted, overflowed });
		if (overflowed) {
			return Promise.reject(new LLMError("context_overflow", "prompt is too long", { status: 400, overflow: { window: this.window, promptTokens: counted } }));
		}
		const text = req.purpose === "summary" ? "A short summary of the earlier talk." : "An answer.";
		return Promise.resolve({ text, usage: { promptTokens: counted } });
	}
}
