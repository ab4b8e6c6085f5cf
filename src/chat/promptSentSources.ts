// What each user message was sent with: its sources section, and the sources' text it quoted.
// Later prompts repeat an earlier message exactly as it was sent (sources and all), so that a
// server's prefix cache reuses it; but never a source the person has since edited, deleted or
// left out: a note's old text must not go out again. Such a message's sources are shed for good
// (the prefix then breaks there, as any edit of the person's own breaks it).
import { promptCost, type EstimateFn } from "./promptCost";
import { withSources } from "./prompt";
import type { ContextSource, PromptMessage, SourceFit } from "../core/types";

/**
 * What becomes of earlier turns' sources (each only while unchanged): "keep" repeats them as sent
 * while they fit; "yield" only while this turn's sources still fit whole beside them (they never
 * take room from the sources of the question being asked); "drop" sheds them at once; "stable"
 * repeats them while this turn's own best passages still get their guaranteed share beside them,
 * each turn adding only what was not sent yet, and when they would not, sheds them all at once and
 * compacts, leaving the next turns room to repeat the new prompt (promptCycle.ts).
 */
export type EarlierSources = "keep" | "yield" | "drop" | "stable";

/**
 * "yield": measured on the window-use bench's chats (bench/promptCache.ts), "keep" left a later
 * question's own passages out for the earlier ones (the needle missed in 6 of 16 chats at 32k)
 * and gained no time to first token from turn 5 on; "yield" keeps the prefix whenever it is free.
 */
export const DEFAULT_EARLIER_SOURCES: EarlierSources = "yield";

/** Estimated tokens of `sources` sent whole: what "yield" leaves them before repeating earlier ones. */
export function wholeSourcesCost(sources: readonly ContextSource[], estimate: EstimateFn): number {
	// A source's heading and frame (sourceBlock.ts) cost a few tokens beside its name.
	return sources.reduce((sum, s) => sum + estimate(s.text) + estimate(s.name) + estimate(s.id) + 16, 0);
}

interface SentSources {
	section: string;
	/** Each source that went in (whole or in part): its id and its whole text when sent. */
	quoted: readonly { id: string; text: string }[];
}

/**
 * The sources each user message was sent with, by message (in memory only: after a reload the
 * next prompt goes without them, which costs one cache miss and nothing else).
 */
const sentSources = new WeakMap<object, SentSources>();

/** Records the sources section `message` went with ("" for none), and the sources it quoted. */
export function recordSentSources(message: object, section: string, fits: readonly SourceFit[], given: readonly ContextSource[]): void {
	if (section === "") {
		sentSources.delete(message);
		return;
	}
	const went = new Set(fits.filter((f) => f.fit !== "none").map((f) => f.id));
	sentSources.set(message, { section, quoted: given.filter((s) => went.has(s.id)).map((s) => ({ id: s.id, text: s.text })) });
}

/** Sheds the sources every message in `messages` was sent with: they are never repeated again. */
export function shedSentSources(messages: readonly object[]): void {
	for (const m of messages) sentSources.delete(m);
}

/** True when every source `sent` quoted is among `current` with the same text. */
function stillCurrent(sent: SentSources, current: ReadonlyMap<string, string>): boolean {
	return sent.quoted.every((q) => current.get(q.id) === q.text);
}

const byId = (sources: readonly ContextSource[]): Map<string, string> => new Map(sources.map((s) => [s.id, s.text]));

/**
 * Sheds, for good, the sources of every message that quoted a source not among `current` as it
 * is now: edited, deleted, excluded or no longer given. Returns how many messages lost theirs.
 */
export function shedStaleSources(messages: readonly object[], current: readonly ContextSource[]): number {
	const now = byId(current);
	let shed = 0;
	for (const m of messages) {
		const sent = sentSources.get(m);
		if (sent === undefined || stillCurrent(sent, now)) continue;
		sentSources.delete(m);
		shed++;
	}
	return shed;
}

/** An earlier user message as it was sent: its sources section (kept as sent, still current), then its words. */
function asSent<M extends PromptMessage>(m: M, now: ReadonlyMap<string, string>): M {
	const sent = m.role === "user" ? sentSources.get(m) : undefined;
	return sent === undefined || !stillCurrent(sent, now) ? m : { ...m, content: withSources(sent.section, m.content) };
}

/** True when some message in `messages` kept its sources as sent. */
export function keptSources(messages: readonly object[]): boolean {
	return messages.some((m) => sentSources.has(m));
}

/**
 * The earlier messages as sent, their sources kept (those still current beside `current`), when
 * they cost at most `room`; the messages themselves when none kept sources; undefined when the
 * kept sources no longer fit (they are to be shed).
 */
export function historyAsSent<M extends PromptMessage>(history: readonly M[], room: number, estimate: EstimateFn, current: readonly ContextSource[]): M[] | undefined {
	if (!keptSources(history)) return [...history];
	const now = byId(current);
	const sent = history.map((m) => asSent(m, now));
	return promptCost(sent, estimate) <= room ? sent : undefined;
}
