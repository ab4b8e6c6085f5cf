// One calibration point from a server's prompt count: the raw estimate of what was sent and the
// count it is compared with. A request that offered tools was counted with their definitions, so
// the estimate adds the words of the definitions every provider renders and the count loses a
// documented fixed preamble (toolDefinitions.ts): otherwise the definitions' tokens read as
// "this model counts more than estimated" and inflate the factor of every prompt, tool-less ones too.
import { promptCost, type EstimateFn } from "./promptCost";
import type { ScriptSplits } from "./scriptSplits";
import { countedToolTokens } from "./toolDefinitions";
import type { PromptMessage, ToolSpec } from "../core/types";

export interface UsageObservation {
	/** Raw (uncalibrated) estimate of the prompt, tool definitions included. */
	estimate: number;
	/** The server's count, less what no tokenizer factor explains. */
	reported: number;
	/** `estimate` split by script group. */
	groups: number[];
}

export function usageObservation(
	messages: readonly PromptMessage[],
	tools: readonly ToolSpec[],
	model: string,
	reported: number,
	rawEstimate: EstimateFn,
	splits: ScriptSplits,
): UsageObservation | undefined {
	const counted = countedToolTokens(tools, model, rawEstimate);
	const left = reported - counted.fixed;
	if (!Number.isFinite(left) || left <= 0) return undefined;
	const groups = splits.ofPrompt(messages);
	for (const text of counted.texts) {
		const split = splits.of(text);
		for (let g = 0; g < groups.length; g++) groups[g] = (groups[g] ?? 0) + (split[g] ?? 0);
	}
	return { estimate: promptCost(messages, rawEstimate) + counted.scaled, reported: left, groups };
}
