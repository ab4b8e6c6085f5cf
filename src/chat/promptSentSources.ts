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
 * "stable": measured on the window-use bench's chats (bench/promptCache.ts, 16 chats × 12 turns),
 * "yield" let a server's cache reuse 22% of each follow-up at 8k and 5% at 32k (a note larger
 * than the window is cut anew for every question); "stable" 79% and 96%, the needle still found
 * in every chat, the median time to first token from 10.8 s to 1.5 s (8k) and 58.6 s to 1.7 s
 * (32k). The price: the window is not filled to the brim (median use 0.67 at 8k, 0.77 at 32k),
 * below the 0.95 window use the engine promises; so "yield", which keeps that promise (0.97), stays
 * the default and "stable" is chosen per chat runtime (ChatServiceOptions.earlierSources).
 */
export const DEFAULT_EARLIER_SOURCES: EarlierSources = "yield";

/** Estimated tokens of `sources` sent whole: what "yield" leaves them before repeating earlier ones. */
export function wholeSourcesCost(sources: readonly ContextSource[], estimate: EstimateFn): number {
	// A source's heading and frame (sourceBlock.ts) cost a few tokens beside its name.
	return sources.reduce((sum, s) => sum + estimate(s.text) + estimate(s.name) + estimate(s.id) + 16, 0);
}

/** A range of a source's text that went in. */
export interface SentRange {
	start: number;
	end: number;
}

interface SentSources {
	section: string;
	/** Each source that went in (whole or in part): its id, its whole text when sent, and the ranges of it sent. */
	quoted: readonly { id: string; text: string; ranges: readonly SentRange[] }[];
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
	const went = new Map(fits.filter((f) => f.fit !== "none").map((f) => [f.id, f]));
	const quoted = given.flatMap((s) => {
		const fit = went.get(s.id);
		if (fit === undefined) return [];
		const ranges = fit.fit === "whole" ? [{ start: 0, end: s.text.length }] : (fit.passages ?? []).map((p) => ({ start: p.start, end: p.end }));
		return [{ id: s.id, text: s.text, ranges }];
	});
	sentSources.set(message, { section, quoted });
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

/**
 * What the earlier messages in `messages` carry of each source, as sent and still current beside
 * `current`: the ranges of its text (sorted, overlaps joined), by source id. This turn need not send them again.
 */
export function sentRanges(messages: readonly object[], current: readonly ContextSource[]): Map<string, SentRange[]> {
	const now = byId(current);
	const out = new Map<string, SentRange[]>();
	for (const m of messages) {
		const sent = sentSources.get(m);
		if (sent === undefined || !stillCurrent(sent, now)) continue;
		for (const q of sent.quoted) out.set(q.id, [...(out.get(q.id) ?? []), ...q.ranges]);
	}
	for (const [id, ranges] of out) out.set(id, mergedRanges(ranges));
	return out;
}

/** Ranges sorted and joined where they overlap or touch: several turns may have quoted the same passages. */
function mergedRanges(ranges: readonly SentRange[]): SentRange[] {
	const out: SentRange[] = [];
	for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
		const last = out[out.length - 1];
		if (last !== undefined && r.start <= last.end) last.end = Math.max(last.end, r.end);
		else out.push({ start: r.start, end: r.end });
	}
	return out;
}
