// The sizes of the "stable" policy for earlier turns' sources (promptSentSources.ts). A follow-up
// can reuse the server's cached prefix only if it repeats the previous request whole, so a chat
// about a note larger than the window runs in cycles: a turn that (re)fills the window leaves
// HEADROOM free; the turns after it repeat everything as sent and add their question, the answer
// before it, and their own best passages (at least FRESH of the budget); when those would no longer
// fit, the earlier sources are shed at once and the history compacted to leave the headroom free
// again: one prefix break every few turns instead of one every turn.
import type { EstimateFn } from "./promptCost";
import { SOURCES_HEADROOM_SHARE } from "./prompt";
import { DEFAULT_EARLIER_SOURCES, wholeSourcesCost, type EarlierSources } from "./promptSentSources";
import { SOURCES_PREAMBLE } from "./sourceBlock";
import type { ContextSource } from "../core/types";
import { PASSAGE_MAX_TOKENS } from "../context/passages";

/** "stable": share of the budget a (re)filling turn's sources leave for the turns that repeat it. */
export const STABLE_HEADROOM_SHARE = 0.5;
/** "stable": share of the budget each follow-up's own sources are guaranteed beside the earlier turns... */
export const FRESH_SHARE = 0.06;
/**
 * ...but no less than this many tokens: the longest passage the cutter makes, whole, with its
 * heading path and excerpt marks (bench/promptCache.ts: 640 here reused 79.2% of 8k follow-ups,
 * 400 reuses 81.5%, the needle found in every chat either way)...
 */
export const FRESH_MIN_TOKENS = PASSAGE_MAX_TOKENS + 100;
/** ...and no more: a question's best passages, not a window's worth. */
export const FRESH_MAX_TOKENS = 1280;

/** The headroom share a policy uses when its caller names none. */
export function headroomShareFor(policy: EarlierSources | undefined, share: number | undefined): number {
	if (share !== undefined) return share;
	return (policy ?? DEFAULT_EARLIER_SOURCES) === "stable" ? STABLE_HEADROOM_SHARE : SOURCES_HEADROOM_SHARE;
}

/** "stable": the room this turn's own sources are guaranteed beside the earlier turns (none needed beyond their whole size). */
export function freshRoom(budget: number, sources: readonly ContextSource[], estimate: EstimateFn, share = FRESH_SHARE): number {
	if (sources.length === 0) return 0;
	const guaranteed = Math.min(FRESH_MAX_TOKENS, Math.max(FRESH_MIN_TOKENS, Math.floor(budget * share)));
	// The section's preamble comes with any source.
	return estimate(SOURCES_PREAMBLE) + Math.min(wholeSourcesCost(sources, estimate), guaranteed);
}

/**
 * The room this turn's sources are guaranteed, whatever the headroom: under "yield" all of them
 * whole, under "stable" their fresh share, under "keep" and "drop" none (they take what is left).
 */
export function reservedForSources(policy: EarlierSources | undefined, budget: number, sources: readonly ContextSource[], estimate: EstimateFn, freshShare?: number): number {
	const p = policy ?? DEFAULT_EARLIER_SOURCES;
	if (p === "yield") return wholeSourcesCost(sources, estimate);
	if (p === "stable") return freshRoom(budget, sources, estimate, freshShare);
	return 0;
}
