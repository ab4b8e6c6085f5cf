import type { EstimateFn } from "./promptCost";
import { compactionBudget } from "./compaction";
import type { ContextInclusion } from "./contextTrim";
import { buildPrompt, promptSources, sourcesHeadroom, type BuiltPrompt } from "./prompt";
import { headroomShareFor, reservedForSources } from "./promptCycle";
import { DEFAULT_EARLIER_SOURCES, historyAsSent, keptSources, sentRanges, type EarlierSources } from "./promptSentSources";
import { summaryMessage, uncoveredHistory } from "./transcript";
import type { SourceFitter } from "./sourceFitter";
import type { ChatMessage, ChatSettings, ContextSource, ImageRef, SourceFit } from "../core/types";
import { fixedCost, planWindow, summaryAllowance } from "./recentWindow";
import { DEFAULT_MARGIN, type SafetyMargin } from "./safetyMargin";

export interface PromptPreview {
	estimatedTokens: number;
	budget: number;
	/** The active note's fit. */
	context: ContextInclusion;
	/** Every source's fit, in prompt order, as sending now would fit them (for the chips). */
	sources: SourceFit[];
	/** The model's safety margin the budget was computed with (the meter's tooltip names it). */
	margin?: SafetyMargin;
}

export interface PreviewInput {
	settings: ChatSettings;
	/** The session's messages: [summary?], then the transcript. */
	messages: readonly ChatMessage[];
	draft: string;
	context?: string;
	contextName?: string;
	sources?: readonly ContextSource[];
	/** Images attached to the draft: counted like its text. */
	images?: readonly ImageRef[];
	includeHistory?: boolean;
	estimate: EstimateFn;
	fitter?: SourceFitter;
	/** Share of the budget the sources leave free for later turns (ChatServiceOptions.sourcesHeadroomShare). */
	headroomShare?: number;
	/** ChatServiceOptions.sourcesFreshShare. */
	freshShare?: number;
	/** ChatServiceOptions.earlierSources. */
	earlierSources?: EarlierSources;
	/** The model's learned margin; today's default without one. */
	margin?: SafetyMargin;
	/** The tool definitions the send would carry (0 without tools): counted, and the messages get what they leave. */
	toolTokens?: number;
}

function preview(built: BuiltPrompt, budget: number, margin: SafetyMargin, toolTokens: number): PromptPreview {
	return { estimatedTokens: built.estimatedTokens + toolTokens, budget, context: built.context, sources: built.sources, margin };
}

/**
 * What sending `draft` now would cost, without calling the model: exact when the conversation
 * fits; when a summary would be written, its room is counted at most (the meter errs high).
 */
export function previewPrompt(input: PreviewInput): PromptPreview {
	const { settings, messages, draft, estimate } = input;
	const margin = input.margin ?? DEFAULT_MARGIN;
	const whole = compactionBudget(settings, margin.keep);
	const tools = Math.max(0, input.toolTokens ?? 0);
	const budget = { ...whole, prompt: whole.prompt - tools };
	const context = input.context !== undefined && input.context !== "" ? { text: input.context, name: input.contextName } : undefined;
	const base = { systemPrompt: settings.systemPrompt, context, sources: input.sources, fitter: input.fitter, current: draft, currentImages: input.images, estimate, messageFirst: (input.earlierSources ?? DEFAULT_EARLIER_SOURCES) === "stable" };
	const policy = input.earlierSources ?? DEFAULT_EARLIER_SOURCES;
	const headroom = sourcesHeadroom(budget.prompt, headroomShareFor(policy, input.headroomShare));
	if (input.includeHistory === false || messages.length === 0) {
		return preview(buildPrompt({ ...base, history: [], budget: budget.prompt, sourcesHeadroom: input.includeHistory === false ? 0 : headroom }), whole.prompt, margin, tools);
	}
	try {
		const summary = summaryMessage(messages)?.content;
		const written = uncoveredHistory(messages, messages.length);
		// Earlier sources go as sent while they fit beside this turn's guaranteed room (turnPrompt.ts), else they are shed.
		const fixed = fixedCost(settings.systemPrompt, summary, draft, estimate);
		const current = promptSources(base);
		const carried = policy === "stable" ? sentRanges(written, current) : undefined;
		const unsent = current.filter((s) => !(carried?.get(s.id) ?? []).some((r) => r.start <= 0 && r.end >= s.text.length));
		const reserved = reservedForSources(policy, budget.prompt, unsent, estimate, input.freshShare);
		const sent = policy === "drop" ? undefined : historyAsSent(written, budget.prompt - fixed - reserved, estimate, current);
		const history = sent ?? written;
		// "stable": a send that sheds them compacts the history to leave the headroom free.
		const held = policy === "stable" && sent === undefined && keptSources(written) ? Math.min(headroom, Math.floor((budget.prompt - fixed) / 2)) : 0;
		const floor = policy === "stable" ? reserved : undefined;
		const plan = planWindow({
			systemPrompt: settings.systemPrompt,
			previousSummary: summary,
			history,
			current: draft,
			settings,
			promptBudget: budget.prompt - held,
			summaryMaxTokens: budget.summaryMaxTokens,
			estimate,
		});
		if (plan.fits) return preview(buildPrompt({ ...base, summary, history, budget: budget.prompt, sourcesHeadroom: headroom, sourcesFloor: floor, ...(policy === "stable" && sent !== undefined && keptSources(written) ? { earlierSourcesKept: true, sentRanges: carried } : {}) }), whole.prompt, margin, tools);
		const allowance = summaryAllowance(budget.summaryMaxTokens, estimate);
		const built = buildPrompt({ ...base, history: history.slice(plan.split), budget: budget.prompt - allowance, sourcesHeadroom: headroom, sourcesFloor: floor });
		return { estimatedTokens: Math.min(budget.prompt, built.estimatedTokens + allowance) + tools, budget: whole.prompt, context: built.context, sources: built.sources, margin };
	} catch {
		// A damaged session: the send goes out without history too (see ChatService).
		return preview(buildPrompt({ ...base, history: [], budget: budget.prompt }), whole.prompt, margin, tools);
	}
}
