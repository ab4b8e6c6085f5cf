// Noticing that the server silently cut the prompt: it counted far fewer tokens than were sent.
// (textFit.ts's truncateToTokens is the other kind: shortening text on purpose to fit.)

/** A prompt this close to the window is where a server's own smaller limit would bite. */
const NEAR_WINDOW_SHARE = 0.5;
/** Reported this far below the estimate, the server most likely read only part of the prompt. */
const FAR_FEWER_SHARE = 0.6;

import type { Notice } from "../core/notices";

const fmt = (n: number): string => Math.round(n).toLocaleString("en-US");

/**
 * A warning when the provider counted far fewer prompt tokens than estimated for a prompt near
 * the window: the server likely cut it silently (Ollama does when `num_ctx` is smaller than the
 * prompt). Undefined when the counts are plausible.
 */
export function silentPromptCutWarning(estimatedTokens: number, reportedTokens: number, contextWindow: number): string | undefined {
	return silentPromptCutNotice(estimatedTokens, reportedTokens, contextWindow)?.message;
}

/** The same warning with its code and numbers, for a panel that shows it in another language. */
export function silentPromptCutNotice(estimatedTokens: number, reportedTokens: number, contextWindow: number): (Notice & { message: string }) | undefined {
	if (estimatedTokens < contextWindow * NEAR_WINDOW_SHARE) return undefined;
	if (reportedTokens >= estimatedTokens * FAR_FEWER_SHARE) return undefined;
	const message =
		`The server read about ${fmt(reportedTokens)} tokens of a prompt estimated at ${fmt(estimatedTokens)}: ` +
		`it may have cut the prompt, so the answer may miss earlier messages or part of the note. ` +
		`Check that the model's context length on the server is at least ${fmt(contextWindow)} tokens.`;
	const params = { reported: Math.round(reportedTokens), estimated: Math.round(estimatedTokens), window: Math.round(contextWindow) };
	return { message, code: "silent_prompt_cut", params };
}
