import type { ToolCall } from "../core/types";
import type { EstimateFn } from "./promptCost";

/**
 * The engine's estimate of what a model wrote: its text, its thinking and its tool calls (name and
 * arguments as JSON). What an answer's token count falls back to when the server reports none.
 */
export function writtenTokens(estimate: EstimateFn, text: string, thinking?: string, calls?: readonly ToolCall[]): number {
	let tokens = estimate(text) + (thinking === undefined ? 0 : estimate(thinking));
	for (const call of calls ?? []) tokens += estimate(call.name) + estimate(JSON.stringify(call.arguments));
	return tokens;
}
