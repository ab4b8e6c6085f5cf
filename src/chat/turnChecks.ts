import { LLMError } from "../providers/errors";
import { ChatError } from "./errors";
import type { EstimateFn } from "./promptCost";
import type { GenerateResult } from "../core/types";
import { isAbort } from "./summarizer";
import { fixedCost } from "./recentWindow";

// What a turn checks before it saves or returns anything: that it can be sent at all, that it was
// not stopped before its message was saved, and that the adapter kept its contract.

/** An adapter's result must carry its text as a string; anything else breaks its contract. */
export function checkAnswer(result: unknown): asserts result is GenerateResult {
	const text = typeof result === "object" && result !== null ? (result as { text?: unknown }).text : undefined;
	if (typeof text !== "string") throw new LLMError("protocol", "The model's adapter returned no answer text.");
}

/**
 * The stream listeners, silenced once `signal` aborts: an adapter that ignores Stop may keep
 * calling them, and nothing it sends after Stop may reach the caller or the saved answer.
 */
export function ignoredAfterStop<T extends object>(listeners: T, signal: AbortSignal): T {
	const guarded: Record<string, unknown> = {};
	for (const [key, listener] of Object.entries(listeners)) {
		if (typeof listener !== "function") continue;
		guarded[key] = (...args: unknown[]): void => {
			if (!signal.aborted) (listener as (...a: unknown[]) => void)(...args);
		};
	}
	return guarded as T;
}

/** Stopped before the message was saved: the turn ends with nothing recorded. */
export function stoppedBeforeSending(): LLMError {
	return new LLMError("aborted", "Stopped before the message was sent.");
}

/** For `.catch`: a stop becomes "stopped before sending"; any other error passes unchanged. */
export function rethrowAsStopped(signal: AbortSignal): (err: unknown) => never {
	return (err) => {
		throw isAbort(err, signal) ? stoppedBeforeSending() : err;
	};
}

/**
 * Refuses, before anything is saved, a turn that can never be sent, naming what is too big: the
 * system prompt, or the message (and the system prompt when it takes most of the room).
 */
export function checkTurnFits(systemPrompt: string, text: string, promptBudget: number, estimate: EstimateFn, imageTokens = 0): void {
	if (fixedCost(systemPrompt, undefined, text, estimate) + imageTokens <= promptBudget) return;
	const frame = fixedCost(systemPrompt, undefined, "", estimate);
	const system = estimate(systemPrompt);
	if (frame >= promptBudget) throw ChatError.systemPromptTooLong(text, system, promptBudget);
	const room = promptBudget - frame;
	// The message's images are part of its size (attaching fewer or smaller ones is the fix then).
	throw ChatError.tooLong(text, estimate(text) + imageTokens, room, system > promptBudget / 2 ? system : undefined);
}
