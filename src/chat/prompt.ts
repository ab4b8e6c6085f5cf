import { defaultEstimate, promptCost, type EstimateFn } from "./promptCost";
import type { ContextInclusion } from "./contextTrim";
import { defaultSourceFitter } from "./defaultFitter";
import type { SourceFitter } from "./sourceFitter";
import { fitSources, orderSources, sourceQuery, tierOf, type FittedSources } from "./sourceBudget";
import type { ContextSource, ImageRef, PromptMessage, SourceFit } from "../core/types";
import { toPromptMessage } from "./promptMessage";
import { freshFitter, messageFirst } from "./promptFresh";
import type { SentRange } from "./promptSentSources";
import { SOURCES_PREAMBLE } from "./sourceBlock";

export type { ContextInclusion } from "./contextTrim";

export interface DocumentContext {
	text: string;
	/** The note's name, shown to the model. */
	name?: string;
	/** The note's path, shown to the model so it can cite it (default: the name). */
	id?: string;
}

export interface PromptInput {
	systemPrompt: string;
	/** The active note: one source of kind "active" among `sources`. */
	context?: DocumentContext;
	/** What the message is about: the selection, notes the person added, the active note, retrieved passages. */
	sources?: readonly ContextSource[];
	/** Fits a source larger than its share (default: defaultSourceFitter). */
	fitter?: SourceFitter;
	/**
	 * At most this many estimated tokens for the sources section (the retry after an overflow
	 * shrinks it below what the failed prompt carried). Default: all that remains.
	 */
	sourcesCap?: number;
	/**
	 * Estimated tokens the sources leave free for the turns to come, so that later prompts can
	 * repeat this one (with its sources) and still fit: the prefix a server's cache reuses.
	 */
	sourcesHeadroom?: number;
	/**
	 * Estimated tokens the sources are guaranteed whatever the headroom (while the budget has
	 * them): this turn's own best passages beside earlier turns repeated as sent.
	 */
	sourcesFloor?: number;
	/**
	 * The earlier turns carry the passages chosen for their own questions: this turn's are ranked
	 * by its message alone (the conversation's words would pull the same passages again).
	 */
	earlierSourcesKept?: boolean;
	/**
	 * What earlier turns repeated as sent carry of each source (by id): a source they carry whole
	 * is not sent again, and of one they carry in part only relevant passages they do not carry are
	 * added (promptFresh.ts).
	 */
	sentRanges?: ReadonlyMap<string, readonly SentRange[]>;
	/**
	 * Sources are ranked by the message alone where it shares a term with them, by the conversation
	 * only where it does not ("stable": the question being asked gets its own passages first).
	 */
	messageFirst?: boolean;
	/** The persisted conversation summary standing in for earlier messages. */
	summary?: string;
	/** Earlier user/assistant messages, oldest first, without the current message. */
	history: readonly PromptMessage[];
	/** The person's new message; it appears exactly once, last (before `after`). */
	current: string;
	/** The images sent with the person's new message, by reference (counted like its text). */
	currentImages?: readonly ImageRef[];
	/** This turn's tool calls and their results so far, after the person's message. */
	after?: readonly PromptMessage[];
	/** Estimated tokens available to the whole prompt. */
	budget: number;
	estimate?: EstimateFn;
}

export interface BuiltPrompt {
	messages: PromptMessage[];
	estimatedTokens: number;
	/** How much of the active note went in (the chip's fit). */
	context: ContextInclusion;
	/** Every source given, once, in prompt order, with how much of it went in. */
	sources: SourceFit[];
	/** Estimated tokens of the sources section with the latest user message (0 when none went in). */
	sourcesTokens: number;
	/** The sources section as sent with the latest user message ("" when none went in). */
	sourcesSection: string;
	/** The fits of the sources in that section (`sources` less those earlier turns carry). */
	sectionFits: SourceFit[];
}

const SECTION_SEPARATOR = "\n\n";

export function summaryBlock(summary: string): string {
	return `Summary of the earlier conversation (older messages are not shown):\n${summary}`;
}

/**
 * Instructions, document and summary go into ONE leading system message, in that order. (The
 * chat prompt passes no document here: its sources go with the latest user message, see
 * withSources, so the system message stays the same from turn to turn.)
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

/**
 * The latest user message as sent: this turn's sources section (framed as data, sourceBlock.ts),
 * then the person's words. The sources ride with the message rather than in the system message so
 * that everything before it (instructions, summary, earlier turns) is the previous request repeated
 * exactly: a server's prefix cache reuses it. One message keeps every dialect's rules: one leading
 * system message, and user and assistant taking turns.
 */
export function withSources(sourcesSection: string, text: string): string {
	return sourcesSection === "" ? text : sourcesSection + SECTION_SEPARATOR + text;
}

/**
 * Share of the prompt budget this turn's sources leave free when the chat carries its history:
 * the room in which the next turns (question, answer) repeat this prompt, sources and all, as an
 * exact prefix a server's cache reuses, before a compaction sheds the earlier sources.
 */
export const SOURCES_HEADROOM_SHARE = 0;

export function sourcesHeadroom(budget: number, share = SOURCES_HEADROOM_SHARE): number {
	return Math.max(0, Math.floor(budget * Math.min(1, Math.max(0, share))));
}

/**
 * The stable head (instructions and summary in one leading system message), the earlier turns as
 * given, and the latest user message carrying this turn's sources.
 */
function assemble(input: PromptInput, sourcesSection: string, history: readonly PromptMessage[]): PromptMessage[] {
	const messages: PromptMessage[] = [];
	const system = composeSystemMessage(input.systemPrompt, "", input.summary);
	if (system !== "") messages.push({ role: "system", content: system });
	for (const m of history) messages.push(toPromptMessage(m));
	const current: PromptMessage = { role: "user", content: withSources(sourcesSection, input.current) };
	if (input.currentImages !== undefined && input.currentImages.length > 0) current.attachments = [...input.currentImages];
	messages.push(current);
	for (const m of input.after ?? []) messages.push(toPromptMessage(m));
	return messages;
}

/** Everything up to the last source's end marker, and the break after it. */
const SENT_SECTION = /^[\s\S]*⟦END OF SOURCE \d+⟧\n\n/;

/**
 * A message's words without the sources section an earlier turn was sent with: what the fitter
 * ranks against is the conversation, not the passages it already chose (they would outweigh the
 * question being asked).
 */
export function writtenPart(content: string): string {
	return content.startsWith(SOURCES_PREAMBLE) ? content.replace(SENT_SECTION, "") : content;
}

/** The name the active note goes by when its caller gave it none. */
export const ACTIVE_NOTE_NAME = "Active note";

/** The sources of a prompt: the ones given, and the active note given the old way (`context`). */
export function promptSources(input: Pick<PromptInput, "context" | "sources">): ContextSource[] {
	const sources = [...(input.sources ?? [])];
	const context = input.context;
	if (context !== undefined && context.text !== "") {
		const name = context.name !== undefined && context.name.trim() !== "" ? context.name.trim() : ACTIVE_NOTE_NAME;
		sources.push({ id: context.id ?? name, name, text: context.text, kind: "active" });
	}
	return sources;
}

/** The active note's fit as the chip shows it: whole, partial with the share of its characters, or none. */
export function activeInclusion(sources: readonly ContextSource[], fits: readonly SourceFit[]): ContextInclusion {
	const active = sources.find((s) => tierOf(s) === "active");
	const fit = active === undefined ? undefined : fits.find((f) => f.id === active.id);
	if (active === undefined || fit === undefined || fit.fit === "none") return { included: "none", fraction: 0 };
	if (fit.fit === "whole") return { included: "whole", fraction: 1 };
	const chars = (fit.passages ?? []).reduce((sum, p) => sum + (p.end - p.start), 0);
	const share = chars > 0 ? chars / active.text.length : fit.totalTokens > 0 ? fit.sentTokens / fit.totalTokens : 0;
	return { included: "partial", fraction: Math.min(1, Math.max(0, share)) };
}

/** Retries of the sources' fitting, each with less room, when the joined prompt came out over budget. */
const OVERSHOOT_RETRIES = 4;

/**
 * The prompt for one turn. Messages come first: the sources share only what remains of the budget
 * after instructions, summary, history and the current message (sourceBudget.ts says how), down
 * to nothing. This function never drops or shortens messages: fitting them is compaction's job,
 * so the result may exceed the budget when the caller gave it too much history. The sources never
 * make it exceed the budget, whatever the fitter returns: the joined prompt is estimated again, and
 * the sources are refitted into less room until it fits.
 */
export function buildPrompt(input: PromptInput): BuiltPrompt {
	const estimate = input.estimate ?? defaultEstimate;
	// Only user/assistant turns belong in the history; a stray system message would break the
	// "leading system messages only" promise adapters rely on.
	const history = input.history.filter((m) => m.role !== "system");
	const withoutContext = assemble(input, "", history);
	const baseTokens = promptCost(withoutContext, estimate);
	const given = promptSources(input);
	const carried = (s: ContextSource): boolean => (input.sentRanges?.get(s.id) ?? []).some((r) => r.start <= 0 && r.end >= s.text.length);
	// A source an earlier turn carries whole, unchanged, is in the prompt already: it is reported whole, not sent twice.
	const sources = given.filter((s) => !carried(s));
	const carriedFits: SourceFit[] = given.filter(carried).map((s) => {
		const total = estimate(s.text);
		return { id: s.id, name: s.name, totalTokens: total, sentTokens: total, fit: "whole" };
	});
	const written = history.map((m) => ({ content: writtenPart(m.content) }));
	// Kept earlier sources: ranked by the message alone.
	const query = input.earlierSourcesKept === true ? sourceQuery(input.current, []) : sourceQuery(input.current, written);
	const chosen = input.messageFirst === true ? messageFirst(input.fitter ?? defaultSourceFitter, sourceQuery(input.current, [])) : (input.fitter ?? defaultSourceFitter);
	const fitter = input.sentRanges !== undefined && input.sentRanges.size > 0 ? freshFitter(chosen, input.sentRanges) : chosen;
	// Every source once, in prompt order, those earlier turns carry among them.
	const order = new Map(orderSources(given).map((s, i) => [s.id, i]));
	// A source earlier turns carry in part is in the prompt through them: it is reported with those
	// passages too ("Answer faster" adds none of its own when they hold what the question is about),
	// never as "not included". What this message itself sends stays `sectionFits`.
	const withCarried = (f: SourceFit): SourceFit => {
		const source = given.find((s) => s.id === f.id);
		const ranges = input.sentRanges?.get(f.id) ?? [];
		if (source === undefined || ranges.length === 0 || f.fit === "whole") return f;
		const own = f.fit === "excerpts" ? (f.passages ?? []) : [];
		const more = ranges.filter((r) => !own.some((p) => p.start <= r.start && p.end >= r.end));
		const passages = [...own, ...more.map((r) => ({ start: r.start, end: r.end, headingPath: "" }))].sort((a, b) => a.start - b.start);
		const carriedTokens = more.reduce((n, r) => n + estimate(source.text.slice(r.start, r.end)), 0);
		return { ...f, fit: "excerpts", passages, sentTokens: f.sentTokens + carriedTokens };
	};
	const allFits = (fitted: FittedSources): SourceFit[] => [...fitted.fits.map(withCarried), ...carriedFits].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
	const result = (messages: PromptMessage[], tokens: number, fitted: FittedSources, sourcesTokens: number): BuiltPrompt => ({
		messages,
		estimatedTokens: tokens,
		context: activeInclusion(given, allFits(fitted)),
		sources: allFits(fitted),
		sourcesTokens,
		sourcesSection: sourcesTokens > 0 ? fitted.section : "",
		sectionFits: fitted.fits,
	});
	const free = input.budget - baseTokens - estimate(SECTION_SEPARATOR);
	let room = Math.max(free - Math.max(0, input.sourcesHeadroom ?? 0), Math.min(free, Math.max(0, input.sourcesFloor ?? 0)));
	if (input.sourcesCap !== undefined) room = Math.min(room, input.sourcesCap);
	for (let attempt = 0; attempt <= OVERSHOOT_RETRIES && sources.length > 0; attempt++) {
		const fitted = fitSources({ sources, room, query, estimate, fitter });
		if (fitted.section === "") return result(withoutContext, baseTokens, fitted, 0);
		const messages = assemble(input, fitted.section, history);
		const tokens = promptCost(messages, estimate);
		if (tokens <= input.budget) return result(messages, tokens, fitted, estimate(fitted.section) + estimate(SECTION_SEPARATOR));
		room -= tokens - input.budget + attempt + 1;
	}
	return result(withoutContext, baseTokens, fitSources({ sources, room: 0, query, estimate, fitter }), 0);
}

