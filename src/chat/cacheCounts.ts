// Prompt counts under a server's cache. A server that reuses a cached prefix may report the whole
// prompt (OpenAI, Anthropic as the adapters sum it, llama.cpp, Ollama since #17943), only the
// tokens it evaluated anew (Ollama before #16428), or nothing at all (ollama#2068, #3427; 0 from its
// OpenAI bridge, #5370). Calibration and the safety margin must never learn from a count that left
// the cached part out: it would shrink every later estimate and overflow the window.
import type { PromptMessage, Usage } from "../core/types";
import { promptCost, type EstimateFn } from "./promptCost";

/**
 * A count below this share of the prompt's calibrated estimate, on a prompt that repeated a
 * prefix of the previous one, is taken for the new part only. Real tokenizer differences are in
 * the factor already; what is left is at most the estimate's error (well under a third).
 */
export const CACHE_PARTIAL_SHARE = 0.7;
/** A prefix shorter than this share of the prompt is not worth a server's cache: no reason to doubt the count. */
const MIN_REPEATED_SHARE = 0.2;

/** Messages the two prompts share from the start, compared whole (a message that changed ends the prefix). */
export function sharedPrefix(previous: readonly PromptMessage[], next: readonly PromptMessage[]): PromptMessage[] {
	const out: PromptMessage[] = [];
	for (let i = 0; i < Math.min(previous.length, next.length); i++) {
		const a = previous[i];
		const b = next[i];
		if (a === undefined || b === undefined || !sameMessage(a, b)) break;
		out.push(b);
	}
	return out;
}

function sameMessage(a: PromptMessage, b: PromptMessage): boolean {
	if (a === b) return true;
	return a.role === b.role && a.content === b.content && a.toolCallId === b.toolCallId && JSON.stringify(a.toolCalls ?? null) === JSON.stringify(b.toolCalls ?? null) && JSON.stringify(a.attachments ?? null) === JSON.stringify(b.attachments ?? null);
}

export interface PromptCountInput {
	usage: Usage | undefined;
	/** The prompt as sent. */
	messages: readonly PromptMessage[];
	/** The prompt's calibrated estimate (raw × the model's factor), tool definitions included. */
	expected: number;
	rawEstimate: EstimateFn;
}

/**
 * Which prompt counts can be learned from, model by model. Where the server gave its parts (a
 * cached count beside the whole) the count is whole and kept. Where it did not, a count far below
 * the estimate on a prompt that repeated a good part of the previous one is set aside as
 * cache-partial; the model's server is then known to count only new tokens, and its counts of any
 * prompt that repeated a prefix are set aside too (a short cached part is too small to see, but
 * still missing). A prompt that repeated nothing is counted whole by every server.
 */
export class PromptCountGuard {
	/** The last prompt each model answered: what its server may hold in its cache. */
	private readonly last = new Map<string, readonly PromptMessage[]>();
	/** Models whose server has given a cache-partial count (in memory: a restart asks again). */
	private readonly partial = new Set<string>();

	/** The whole prompt's count for calibration and the silent-cut check; undefined when there is none to learn from. */
	whole(model: string, input: PromptCountInput): number | undefined {
		const previous = this.last.get(model);
		this.last.set(model, input.messages);
		const reported = input.usage?.promptTokens;
		if (reported === undefined || !Number.isFinite(reported) || reported <= 0) return undefined;
		if (input.usage?.cachedPromptTokens !== undefined || previous === undefined) return reported;
		const shared = sharedPrefix(previous, input.messages);
		if (shared.length === 0) return reported;
		if (this.partial.has(model)) return undefined;
		if (!isCachePartial(input, shared, reported)) return reported;
		this.partial.add(model);
		return undefined;
	}
}

/** True when `reported` is far below the estimate of a prompt whose `shared` prefix repeated the previous one. */
function isCachePartial(input: PromptCountInput, shared: readonly PromptMessage[], reported: number): boolean {
	if (!(input.expected > 0) || reported >= input.expected * CACHE_PARTIAL_SHARE) return false;
	const whole = promptCost(input.messages, input.rawEstimate);
	return whole > 0 && promptCost(shared, input.rawEstimate) >= whole * MIN_REPEATED_SHARE;
}

/**
 * The usage the answer's meter records (answerMeter.ts): a prompt count set aside as cache-partial
 * is no count (the answer shows the estimate, and the count set aside beside it), the rest as the
 * server gave it.
 */
export function meteredUsage(usage: Usage | undefined, whole: number | undefined): Usage | undefined {
	if (usage === undefined || usage.promptTokens === undefined || whole !== undefined) return usage;
	const { promptTokens: _left, ...rest } = usage;
	return rest;
}
