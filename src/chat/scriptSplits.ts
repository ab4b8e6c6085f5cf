// Texts' estimates split by script group (tokenFast.ts's modelTokensByGroup), memoized by text like
// the engine's other estimates: an unchanged history is not scanned again every send.
import { MESSAGE_OVERHEAD_TOKENS, PROMPT_OVERHEAD_TOKENS } from "./promptCost";
import { modelTokensByGroup, SCRIPT_GROUP_COUNT } from "./tokenFast";
import type { PromptMessage } from "../core/types";

const MAX_ENTRIES = 4096;

export class ScriptSplits {
	private cache = new Map<string, Float64Array>();

	/** The split of one text (shared: do not modify it). */
	of(text: string): Float64Array {
		const hit = this.cache.get(text);
		if (hit !== undefined) return hit;
		const split = new Float64Array(SCRIPT_GROUP_COUNT);
		modelTokensByGroup(text, split);
		if (text.length >= 16) {
			if (this.cache.size >= MAX_ENTRIES) this.cache = new Map();
			this.cache.set(text, split);
		}
		return split;
	}

	/**
	 * A prompt's split: what promptCost prices — its messages' texts, tool calls (name and
	 * arguments) and tool names — with the chat framing counted as "common".
	 */
	ofPrompt(messages: readonly PromptMessage[]): number[] {
		const sum = new Array<number>(SCRIPT_GROUP_COUNT).fill(0);
		sum[0] = PROMPT_OVERHEAD_TOKENS + MESSAGE_OVERHEAD_TOKENS * messages.length;
		const add = (text: string): void => {
			const split = this.of(text);
			for (let g = 0; g < SCRIPT_GROUP_COUNT; g++) sum[g] = (sum[g] ?? 0) + (split[g] ?? 0);
		};
		for (const m of messages) {
			add(m.content);
			for (const call of m.toolCalls ?? []) {
				add(call.name);
				add(JSON.stringify(call.arguments));
			}
			if (m.name !== undefined) add(m.name);
		}
		return sum;
	}
}
