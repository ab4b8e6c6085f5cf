import { promptMessageCost, type EstimateFn } from "./promptCost";
import { toPromptMessage } from "./promptMessage";
import { CONDENSE_INSTRUCTION, Summarizer, transcriptEntry, type SummaryRequestCost } from "./summarizer";
import { shortenMiddle, truncateToTokens } from "./textFit";
import { safeBudget } from "./tokens";
import { promptBudget } from "./chatSettings";
import type { ChatMessage, ChatSettings, LLMAdapter, PromptMessage } from "../core/types";
import { HistoryCosts, fixedCost, planWindow, summaryAllowance, type WindowSettings } from "./recentWindow";

export { SUMMARY_INSTRUCTION } from "./summarizer";

export const CONDENSED_PREFIX = "[Condensed from a longer message] ";

/** A recent message is never condensed below this many tokens: shorter than that it says nothing. */
const MIN_CONDENSED_TOKENS = 24;
/** Room for the condensed text itself beside the prefix that marks it as condensed. */
const MIN_CONDENSED_BODY = 8;

/** Below this much room a last-resort summary would be noise; the prompt goes without one. */
const MIN_LAST_RESORT_TOKENS = 16;

export interface CompactionBudget {
	/** Estimated tokens the chat prompt may take (within the safety margin). */
	prompt: number;
	/** Estimated tokens a summary request's prompt may take. */
	summaryRequest: number;
	/** `maxTokens` of a summary request, and the most a summary may take in the prompt. */
	summaryMaxTokens: number;
	/** The model's window, sent as `contextWindow` with every request. */
	contextWindow: number;
}

/**
 * The budgets for one turn. Summaries get a fifth of the prompt budget (at most 800 tokens): well
 * under the budget, so recent messages keep most of the room. A summary request's prompt plus its
 * answer must fit the window, within the same safety margin as chat prompts. `keep`: the model's
 * learned margin's share to use (safeBudget's default before its counts are known).
 */
export function compactionBudget(settings: Pick<ChatSettings, "maxPromptTokens" | "reservedResponseTokens">, keep?: number): CompactionBudget {
	const prompt = safeBudget(promptBudget(settings), keep);
	const summaryMaxTokens = Math.max(16, Math.min(800, Math.floor(prompt / 5)));
	return {
		prompt,
		// Summary requests are sent to the same model: the same learned margin holds them.
		summaryRequest: safeBudget(settings.maxPromptTokens - summaryMaxTokens, keep),
		summaryMaxTokens,
		contextWindow: settings.maxPromptTokens,
	};
}

export interface CompactionInput {
	adapter: LLMAdapter;
	systemPrompt: string;
	/** The persisted summary, standing in for the messages it covers. */
	previousSummary?: string;
	/** Transcript messages after the summary (user/assistant, oldest first), without the current message. */
	history: readonly ChatMessage[];
	current: string;
	settings: WindowSettings;
	budget: CompactionBudget;
	estimate: EstimateFn;
	signal?: AbortSignal;
	onStatus?: (text: string) => void;
	/** Each summary request the model answered, with what it cost (the turn's answer carries it). */
	onSummaryRequest?: (cost: SummaryRequestCost) => void;
}

export interface CompactionResult {
	/** The summary to send, if any. */
	summary: string | undefined;
	/** Set when the summary is new and must be persisted: the id of the last message it covers. */
	summaryOf: string | undefined;
	/** The messages sent after the summary; some may be condensed (never persisted: recomputed each turn). */
	recent: PromptMessage[];
	/** Transcript messages newly covered by the summary. */
	summarizedCount: number;
	/** Recent messages condensed to fit. */
	condensedCount: number;
	/** The model could not summarize; a naive shortening stands in. */
	fallback: boolean;
	/** Even condensed, the recent messages did not fit: only a summary of the whole chat is sent. */
	lastResort: boolean;
}

const toPrompt = (m: ChatMessage): PromptMessage => toPromptMessage(m);

/**
 * Fits the conversation into the budget: within it, nothing changes; over it, the
 * older block (with the previous summary) is summarized, the window shrinks toward
 * `minRecentMessagesToKeep`, then the earliest recent messages are condensed, and last of all a
 * concise summary of the whole chat goes alone with the current message. The caller has checked
 * that instructions plus the current message fit.
 */
export async function compactHistory(input: CompactionInput): Promise<CompactionResult> {
	const { history, estimate, budget } = input;
	const costs = new HistoryCosts(history, estimate);
	const plan = planWindow(
		{
			systemPrompt: input.systemPrompt,
			previousSummary: input.previousSummary,
			history,
			current: input.current,
			settings: input.settings,
			promptBudget: budget.prompt,
			summaryMaxTokens: budget.summaryMaxTokens,
			estimate,
		},
		costs,
	);
	const result: CompactionResult = {
		summary: input.previousSummary,
		summaryOf: undefined,
		recent: [],
		summarizedCount: 0,
		condensedCount: 0,
		fallback: false,
		lastResort: false,
	};
	if (plan.fits) {
		result.recent = history.map(toPrompt);
		return result;
	}

	let statusSent = false;
	const summarizer = new Summarizer({
		adapter: input.adapter,
		estimate,
		contextWindow: budget.contextWindow,
		requestBudget: budget.summaryRequest,
		signal: input.signal,
		onAnswered: input.onSummaryRequest,
		onFirstRequest: () => {
			statusSent = true;
			input.onStatus?.("Summarizing earlier messages…");
		},
	});

	if (plan.split > 0) {
		const older = history.slice(0, plan.split);
		const outcome = await summarizer.summarize(input.previousSummary, older.map(transcriptEntry), budget.summaryMaxTokens);
		result.summary = outcome.text;
		result.fallback = outcome.fallback;
		result.summaryOf = older[older.length - 1]?.id;
		result.summarizedCount = older.length;
	} else if (result.summary !== undefined) {
		// Nothing older to fold in, yet over the budget: a summary written for a larger window
		// (the settings changed) is cut to what a new one may take. Deterministic, so not saved.
		result.summary = truncateToTokens(result.summary, budget.summaryMaxTokens, estimate);
	}
	const recent = history.slice(plan.split).map(toPrompt);
	let total = fixedCost(input.systemPrompt, result.summary, input.current, estimate);
	for (let i = plan.split; i < history.length; i++) total += costs.cost(i);

	// Still over: condense the earliest recent messages first, each only as much as needed. The
	// first pass spares messages within their fair share (a short question condensed saves
	// nothing and loses the question); the second pass spares none.
	// Never so small that the marker saying a message was condensed leaves no room for its text.
	const minCondensed = Math.max(MIN_CONDENSED_TOKENS, estimate(CONDENSED_PREFIX) + MIN_CONDENSED_BODY);
	const fairShare = Math.max(minCondensed, Math.floor((budget.prompt - (total - costs.suffixCost(plan.split))) / Math.max(1, recent.length)));
	for (const limit of [fairShare, 0]) {
		for (let i = 0; i < recent.length && total > budget.prompt; i++) {
			const message = recent[i];
			if (message === undefined || message.content.startsWith(CONDENSED_PREFIX)) continue;
			const before = promptMessageCost(message, estimate);
			if (before <= limit) continue;
			const contentTokens = estimate(message.content);
			const target = Math.max(minCondensed, contentTokens - (total - budget.prompt) - 1);
			if (contentTokens <= target) continue;
			const condensed = await condenseMessage(summarizer, message, target, budget.summaryMaxTokens, estimate);
			if (condensed.fallback) result.fallback = true;
			const shorter: PromptMessage = { ...message, content: condensed.text };
			recent[i] = shorter;
			total += promptMessageCost(shorter, estimate) - before;
			result.condensedCount++;
		}
	}
	result.recent = recent;

	if (total > budget.prompt) {
		// Last resort: a concise summary of the whole chat, then the current message alone.
		result.lastResort = true;
		result.recent = [];
		const room = budget.prompt - fixedCost(input.systemPrompt, undefined, input.current, estimate) - summaryAllowance(0, estimate);
		const rest = history.slice(plan.split);
		if (room >= MIN_LAST_RESORT_TOKENS && (rest.length > 0 || result.summary !== undefined)) {
			const outcome = await summarizer.summarize(result.summary, rest.map(transcriptEntry), Math.min(room, budget.summaryMaxTokens));
			result.summary = outcome.text;
			result.fallback = result.fallback || outcome.fallback;
			result.summaryOf = history[history.length - 1]?.id ?? result.summaryOf;
			result.summarizedCount = history.length;
		} else {
			// Not even a short summary fits beside this message: send it alone this turn, persist nothing.
			result.summary = undefined;
			result.summaryOf = undefined;
			result.summarizedCount = 0;
		}
		result.summary = fitSummary(input, result.summary, estimate);
	}
	if (!statusSent && result.summaryOf !== undefined) input.onStatus?.("Summarizing earlier messages…");
	return result;
}

/** Shortens a summary until the system message and the current message fit the budget. */
function fitSummary(input: CompactionInput, summary: string | undefined, estimate: EstimateFn): string | undefined {
	if (summary === undefined) return undefined;
	const over = fixedCost(input.systemPrompt, summary, input.current, input.estimate) - input.budget.prompt;
	if (over <= 0) return summary;
	const shorter = truncateToTokens(summary, Math.max(0, estimate(summary) - over - 2), estimate);
	if (shorter !== "" && fixedCost(input.systemPrompt, shorter, input.current, estimate) <= input.budget.prompt) return shorter;
	return undefined;
}

/** One message brought to at most `target` tokens: summarized by the model, or shortened in the middle when it cannot. */
async function condenseMessage(
	summarizer: Summarizer,
	message: PromptMessage,
	target: number,
	summaryMaxTokens: number,
	estimate: EstimateFn,
): Promise<{ text: string; fallback: boolean }> {
	// The caller leaves at least MIN_CONDENSED_BODY beside the prefix, so the text is always marked.
	const room = target - estimate(CONDENSED_PREFIX);
	const outcome = await summarizer.summarize(undefined, [transcriptEntry(message)], Math.min(room, summaryMaxTokens), CONDENSE_INSTRUCTION);
	const body = outcome.fallback ? shortenMiddle(message.content, room, estimate) : outcome.text;
	return { text: markCondensed(body, target, estimate), fallback: outcome.fallback };
}

/**
 * The prefix and as much of `body` as fits `target`. Estimates are not exactly additive, so the
 * joined text may still be over: the body is shortened again, never the prefix, which tells the
 * model (and the tests) that the message is not verbatim.
 */
function markCondensed(body: string, target: number, estimate: EstimateFn): string {
	let text = CONDENSED_PREFIX + body;
	let room = estimate(body);
	while (room > 0 && estimate(text) > target) {
		room = Math.max(0, Math.min(room - 1, room - (estimate(text) - target)));
		text = CONDENSED_PREFIX + truncateToTokens(body, room, estimate);
	}
	return text;
}
