import { untilAborted } from "../core/abortable";
import { compactHistory, type CompactionBudget, type CompactionResult } from "./compaction";
import type { ContextInclusion } from "./contextTrim";
import type { EstimateFn } from "./promptCost";
import { buildPrompt, sourcesHeadroom, type BuiltPrompt } from "./prompt";
import { headroomShareFor, reservedForSources } from "./promptCycle";
import { DEFAULT_EARLIER_SOURCES, historyAsSent, keptSources, sentRanges, shedSentSources, type EarlierSources, type SentRange } from "./promptSentSources";
import { isAbort, type SummaryRequestCost } from "./summarizer";
import { summaryMessage, uncoveredHistory } from "./transcript";
import { fitTurnMessages, turnTail } from "./turnTail";
import { fixedCost } from "./recentWindow";
import { dropOldImages } from "./turnImages";
import type { TurnRecorder } from "./turnRecorder";
import type { SourceFitter } from "./sourceFitter";
import type { ToolCard } from "./toolCard";
import type { ChatMessage, ChatSettings, ContextSource, ImageRef, LLMAdapter, PromptMessage, Session, SourceFit } from "../core/types";
import { reasonOf, type NoticeParams, type StatusCode, type WarningCode } from "../core/notices";

/** What `ChatService.onEvent` receives while a turn runs. */
export type ChatEvent =
	/** `code`: the status as data, for a panel that shows it in another language. */
	| { type: "status"; text: string; code?: StatusCode }
	| { type: "compacted"; summarizedCount: number }
	/**
	 * The sources earlier turns were sent with were shed to make room ("stable" and "keep"): the
	 * sources' compaction. This request cannot repeat the previous one as its prefix.
	 */
	| { type: "sourcesShed"; messages: number }
	/** `message` is English; `code`, `params` and `detail` say the same as data (core/notices.ts). */
	| { type: "warning"; message: string; code?: WarningCode; params?: NoticeParams; detail?: string }
	| { type: "message"; message: ChatMessage }
	/** `context`: the active note's fit (as before); `sources`: every source's, in prompt order. */
	| { type: "prompt"; estimatedTokens: number; budget: number; context: ContextInclusion; sources: SourceFit[] }
	/** A tool call's card changed: its arguments streaming, waiting, running, done or failed. */
	| { type: "tool"; card: ToolCard }
	/**
	 * The server said the prompt was too long and named its real window, smaller than the
	 * configured context size (`maxPromptTokens`): the panel offers to use `reported` instead.
	 */
	| { type: "window"; reported: number; configured: number };

/**
 * Everything a turn reads from the service, taken once when it starts: settings or an adapter
 * changed mid-turn (headless callers may) cannot mix two budgets in one request.
 */
export interface TurnSetup {
	settings: ChatSettings;
	adapter: LLMAdapter;
	/** The calibrated estimate for the turn's model. */
	estimate: EstimateFn;
	/** Fits a source larger than its share. */
	fitter: SourceFitter;
	/** Share of the budget the sources leave free for later turns (default: the policy's, promptCycle.ts). */
	sourcesHeadroomShare?: number;
	/** "stable": share of the budget this turn's own sources are guaranteed beside earlier turns (default FRESH_SHARE). */
	sourcesFreshShare?: number;
	/**
	 * This turn's sources as they are now (the active note included): an earlier message's sources
	 * are repeated only while each is among them with the same text. Default: none (no earlier
	 * sources are repeated).
	 */
	currentSources?: readonly ContextSource[];
	/** ChatServiceOptions.earlierSources. */
	earlierSources?: EarlierSources;
	recorder: TurnRecorder;
	emit: (event: ChatEvent) => void;
	signal: AbortSignal;
	/** Each summary request the model answered while the history was prepared: the answer's stats count it. */
	onSummaryRequest?: (cost: SummaryRequestCost) => void;
}

export interface PreparedHistory {
	summary?: string;
	recent: PromptMessage[];
	compacted: boolean;
	/** This turn's tool calls and results so far (older results possibly stubbed), after the person's message. */
	after: PromptMessage[];
	/** The turn carries the chat's history (so later turns will repeat this prompt). */
	withHistory?: boolean;
	/** Estimated tokens this turn's sources are guaranteed beside the history (PromptInput.sourcesFloor). */
	sourcesFloor?: number;
	/** Earlier turns go with their sources as sent (PromptInput.earlierSourcesKept)... */
	earlierSourcesKept?: boolean;
	/** ...carrying these ranges of each source: this turn adds only others (promptFresh.ts). */
	sentRanges?: ReadonlyMap<string, readonly SentRange[]>;
}

/**
 * The earlier messages with their sources as sent when they all fit beside this turn's fixed part
 * and tool calls (`room`); otherwise the earlier sources are shed, for good (the session keeps
 * the change), and the messages go as written: what compaction then fits.
 */
function withEarlierSources(setup: TurnSetup, session: Session, history: readonly ChatMessage[], room: number, current: readonly ContextSource[]): ChatMessage[] {
	const sent = historyAsSent(history, room, setup.estimate, current);
	if (sent !== undefined) return sent;
	const had = session.messages.filter((m) => keptSources([m])).length;
	shedSentSources(session.messages);
	if (had > 0) setup.emit({ type: "sourcesShed", messages: had });
	return [...history];
}

async function saveSummary(setup: TurnSetup, session: Session, result: CompactionResult): Promise<void> {
	if (result.summaryOf === undefined || result.summary === undefined) return;
	if (!(await setup.recorder.summary(session, result.summary, result.summaryOf, setup.signal))) return;
	setup.emit({ type: "compacted", summarizedCount: result.summarizedCount });
	if (result.fallback) setup.emit({ type: "warning", message: "The model could not summarize earlier messages, so they were shortened instead.", code: "summary_fallback" });
}

/**
 * The history for this turn: the summary and the messages after it, compacted to fit `budget`
 * (`force`: down to the minimum window, after the server said the prompt overflowed). A failure
 * here (a bug, a damaged session) must not block the turn: it goes out without history.
 */
export async function prepareHistory(
	setup: TurnSetup,
	session: Session,
	user: ChatMessage,
	budget: CompactionBudget,
	includeHistory: boolean,
	force: boolean,
): Promise<PreparedHistory | "aborted"> {
	const { settings, signal } = setup;
	// Looked up each time: a summary saved by an earlier attempt shifts the message by one.
	const at = session.messages.lastIndexOf(user);
	const tail = turnTail(session.messages, at);
	const base = { tail, systemPrompt: settings.systemPrompt, current: user.content, budget: budget.prompt, estimate: setup.estimate };
	// Without history (one-shot commands, or when the history could not be prepared) the tail still fits.
	const alone = (): PromptMessage[] => fitTurnMessages({ ...base, history: [], previousSummary: undefined }).after;
	if (!includeHistory) return { recent: [], compacted: false, after: alone() };
	try {
		const previous = summaryMessage(session.messages);
		// Older tool results become stubs before any conversation text is summarized.
		const uncovered = uncoveredHistory(session.messages, at);
		const fixed = fixedCost(settings.systemPrompt, previous?.content, user.content, setup.estimate);
		const policy = setup.earlierSources ?? DEFAULT_EARLIER_SOURCES;
		// The room this turn's own sources are guaranteed before any earlier ones are repeated ("yield": all of them whole; "stable": their fresh share).
		const current = setup.currentSources ?? [];
		// "stable": a source the earlier turns carry whole needs no room of this turn's.
		const carried = policy === "stable" ? sentRanges(uncovered, current) : new Map<string, SentRange[]>();
		const unsent = current.filter((s) => !(carried.get(s.id) ?? []).some((r) => r.start <= 0 && r.end >= s.text.length));
		const reserved = reservedForSources(policy, budget.prompt, unsent, setup.estimate, setup.sourcesFreshShare);
		const plain = fitTurnMessages({ ...base, history: uncovered, previousSummary: previous?.content });
		const hadSources = keptSources(uncovered);
		// Earlier turns go as sent (with their sources) while they fit: the previous request is then this one's prefix.
		const turn = fitTurnMessages({ ...base, history: withEarlierSources(setup, session, uncovered, budget.prompt - plain.afterCost - fixed - reserved, setup.currentSources ?? []), previousSummary: previous?.content });
		// "stable": the prefix broke here (the earlier sources were shed), so the history is compacted
		// to leave the headroom free: the turns after this one repeat its prompt again.
		const broke = policy === "stable" && hadSources && !keptSources(uncovered);
		// (At most half of what the history has: the headroom never costs it its recent messages.)
		const headroom = broke ? Math.min(sourcesHeadroom(budget.prompt, headroomShareFor(policy, setup.sourcesHeadroomShare)), Math.floor((budget.prompt - plain.afterCost - fixed) / 2)) : 0;
		// Old messages' images go before any of their words are summarized (turnImages.ts).
		const room = budget.prompt - turn.afterCost - fixed;
		const history = dropOldImages(turn.history, room, setup.estimate).history;
		const keep = force ? settings.minRecentMessagesToKeep : settings.recentMessagesToKeep;
		// Raced with Stop: a summary request that never answers must not hold the turn.
		const compaction = compactHistory({
			adapter: setup.adapter,
			systemPrompt: settings.systemPrompt,
			previousSummary: previous?.content,
			history,
			current: user.content,
			settings: { recentMessagesToKeep: keep, minRecentMessagesToKeep: settings.minRecentMessagesToKeep },
			// This turn's calls and results come after the message: the history gets what they leave.
			budget: { ...budget, prompt: budget.prompt - turn.afterCost - headroom },
			estimate: setup.estimate,
			signal,
			onSummaryRequest: setup.onSummaryRequest,
			onStatus: (status) => {
				if (!signal.aborted) setup.emit({ type: "status", text: status, code: "summarizing" });
			},
		});
		const result = await untilAborted(compaction, signal);
		await saveSummary(setup, session, result);
		const compacted = result.summaryOf !== undefined || result.condensedCount > 0 || result.lastResort;
		return { summary: result.summary, recent: result.recent, compacted, after: turn.after, withHistory: true, sourcesFloor: policy === "stable" ? reserved : undefined, earlierSourcesKept: policy === "stable" && keptSources(uncovered), sentRanges: policy === "stable" && keptSources(uncovered) ? carried : undefined };
	} catch (err) {
		if (isAbort(err, signal)) return "aborted";
		const why = reasonOf(err);
		setup.emit({ type: "warning", message: `Earlier messages could not be prepared (${why}), so this message was sent without them.`, code: "history_unprepared", detail: why });
		return { recent: [], compacted: false, after: alone() };
	}
}

/**
 * The chat prompt from the prepared history, the sources and the message; reports its size and
 * the sources' fits. `sourcesCap` bounds the sources section (the retry after an overflow).
 * `toolTokens`: the tool definitions the request carries; the messages get what they leave, and
 * the reported size (and the returned estimate) includes them.
 */
export function assemblePrompt(
	setup: TurnSetup,
	prepared: PreparedHistory,
	text: string,
	document: { context?: string; contextName?: string; sources?: readonly ContextSource[]; images?: readonly ImageRef[] },
	budget: CompactionBudget,
	sourcesCap?: number,
	toolTokens = 0,
): BuiltPrompt {
	const context = document.context !== undefined && document.context !== "" ? { text: document.context, name: document.contextName } : undefined;
	const built = buildPrompt({
		systemPrompt: setup.settings.systemPrompt,
		context,
		sources: document.sources,
		fitter: setup.fitter,
		sentRanges: prepared.earlierSourcesKept === true ? prepared.sentRanges : undefined,
		messageFirst: (setup.earlierSources ?? DEFAULT_EARLIER_SOURCES) === "stable",
		sourcesCap,
		// With history, the sources leave room for the next turns to repeat this prompt (a cache's prefix).
		sourcesHeadroom: prepared.withHistory === true ? sourcesHeadroom(budget.prompt, headroomShareFor(setup.earlierSources, setup.sourcesHeadroomShare)) : 0,
		sourcesFloor: prepared.sourcesFloor,
		earlierSourcesKept: prepared.earlierSourcesKept,
		summary: prepared.summary,
		history: prepared.recent,
		current: text,
		currentImages: document.images,
		after: prepared.after,
		budget: budget.prompt - toolTokens,
		estimate: setup.estimate,
	});
	if (toolTokens > 0) built.estimatedTokens += toolTokens;
	if (prepared.compacted) setup.emit({ type: "status", text: "Continuing conversation…", code: "continuing" });
	setup.emit({ type: "prompt", estimatedTokens: built.estimatedTokens, budget: budget.prompt, context: built.context, sources: built.sources });
	return built;
}
