import { defaultEstimate, promptCost, type EstimateFn } from "./promptCost";
import { contextFromSegments, trimContextToBudget, type ContextInclusion, type TrimmedContext } from "./contextTrim";
import type { PromptMessage } from "../core/types";

export type { ContextInclusion } from "./contextTrim";

export interface DocumentContext {
	text: string;
	/** The note's name, shown to the model. */
	name?: string;
}

export interface PromptInput {
	systemPrompt: string;
	context?: DocumentContext;
	/** The persisted conversation summary standing in for earlier messages. */
	summary?: string;
	/** Earlier user/assistant messages, oldest first, without the current message. */
	history: readonly PromptMessage[];
	/** The person's new message; it appears exactly once, last. */
	current: string;
	/** Estimated tokens available to the whole prompt. */
	budget: number;
	estimate?: EstimateFn;
}

export interface BuiltPrompt {
	messages: PromptMessage[];
	estimatedTokens: number;
	context: ContextInclusion;
}

const SECTION_SEPARATOR = "\n\n";

export function summaryBlock(summary: string): string {
	return `Summary of the earlier conversation (older messages are not shown):\n${summary}`;
}

/**
 * Instructions, document and summary go into ONE leading system message, in that order.
 * Anthropic accepts only a top-level system prompt, and several local chat templates reject a
 * second system message or one that is not first; a single leading one works everywhere and
 * leaves adapters nothing to merge.
 */
export function composeSystemMessage(systemPrompt: string, contextBlock: string, summary: string | undefined): string {
	const parts: string[] = [];
	if (systemPrompt.trim() !== "") parts.push(systemPrompt.trim());
	if (contextBlock !== "") parts.push(contextBlock);
	if (summary !== undefined && summary.trim() !== "") parts.push(summaryBlock(summary.trim()));
	return parts.join(SECTION_SEPARATOR);
}

function assemble(input: PromptInput, contextBlock: string, history: readonly PromptMessage[]): PromptMessage[] {
	const messages: PromptMessage[] = [];
	const system = composeSystemMessage(input.systemPrompt, contextBlock, input.summary);
	if (system !== "") messages.push({ role: "system", content: system });
	for (const m of history) messages.push({ role: m.role, content: m.content });
	messages.push({ role: "user", content: input.current });
	return messages;
}

/**
 * The prompt for one turn. Messages come first: the document gets only what remains of the
 * budget after instructions, summary, history and the current message, trimmed at a line
 * boundary, down to nothing. This function never drops or shortens messages: fitting them is
 * compaction's job, so the result may exceed the budget when the caller gave it too much history.
 */
export function buildPrompt(input: PromptInput): BuiltPrompt {
	const estimate = input.estimate ?? defaultEstimate;
	// Only user/assistant turns belong in the history; a stray system message would break the
	// "leading system messages only" promise adapters rely on.
	const history = input.history.filter((m) => m.role !== "system");
	const withoutContext = assemble(input, "", history);
	const baseTokens = promptCost(withoutContext, estimate);
	const text = input.context?.text ?? "";
	if (text === "") return { messages: withoutContext, estimatedTokens: baseTokens, context: { included: "none", fraction: 0 } };

	const available = input.budget - baseTokens - estimate(SECTION_SEPARATOR);
	const name = input.context?.name;
	let trimmed: TrimmedContext = trimContextToBudget(text, name, available, estimate);
	if (trimmed.block === "") return { messages: withoutContext, estimatedTokens: baseTokens, context: trimmed.inclusion };

	let messages = assemble(input, trimmed.block, history);
	let tokens = promptCost(messages, estimate);
	if (tokens > input.budget) {
		// The estimator is not exactly additive over lines; shrink by binary search on the real total.
		let lo = 0;
		let hi = trimmed.segments - 1;
		let best: { trimmed: TrimmedContext; messages: PromptMessage[]; tokens: number } | undefined;
		while (lo <= hi) {
			const mid = (lo + hi) >>> 1;
			const candidate = contextFromSegments(text, name, trimmed.plan, mid);
			if (candidate === undefined) {
				lo = mid + 1;
				continue;
			}
			const candidateMessages = assemble(input, candidate.block, history);
			const candidateTokens = promptCost(candidateMessages, estimate);
			if (candidateTokens <= input.budget) {
				best = { trimmed: candidate, messages: candidateMessages, tokens: candidateTokens };
				lo = mid + 1;
			} else {
				hi = mid - 1;
			}
		}
		if (best === undefined) return { messages: withoutContext, estimatedTokens: baseTokens, context: { included: "none", fraction: 0 } };
		({ trimmed, messages, tokens } = best);
	}
	return { messages, estimatedTokens: tokens, context: trimmed.inclusion };
}
