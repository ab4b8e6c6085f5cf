// Many context sources sharing one budget: the tokens left after the instructions, the summary,
// the recent turns and the message. A small source (one that fits whole in an equal share of the
// room, its minimum share) always goes whole. The rest are served tier by tier (selection, added
// notes, active note, retrieved passages); within a tier the room is water-filled, so a huge note
// cannot starve a small one and what a small one does not need goes to the others. What the
// fitters leave unused goes, whole, to the sources that were left out.
import type { ContextSource, ContextSourceKind, SourceFit } from "../core/types";
import { memoizeEstimate, type EstimateFn } from "./promptCost";
import { renderSourceBlock, escapeSourceText, sourceFooter, sourceHeading, SOURCE_SEPARATOR, SOURCES_PREAMBLE } from "./sourceBlock";
import type { FittedSource, SourceFitter } from "./sourceFitter";
import { topCutFitter } from "./topCutFitter";

export const SOURCE_TIERS: readonly ContextSourceKind[] = ["selection", "note", "active", "retrieved"];

/**
 * Tokens added to each source's cost: estimates are not exactly additive when texts are joined,
 * so a few tokens of headroom keep the assembled prompt from overshooting in the common case
 * (the caller still checks the whole prompt).
 */
const JOIN_SLACK_TOKENS = 1;

/** How many times a fitter is asked again, tighter, when what it returned does not fit its share. */
const FIT_RETRIES = 2;

export function tierOf(source: ContextSource): ContextSourceKind {
	return source.kind !== undefined && SOURCE_TIERS.includes(source.kind) ? source.kind : "note";
}

/**
 * The sources in prompt order: by tier, then as given. A source whose id came earlier is left
 * out (the active note the person also added goes in once, in the higher tier).
 */
export function orderSources(sources: readonly ContextSource[]): ContextSource[] {
	const seen = new Set<string>();
	const ordered: ContextSource[] = [];
	for (const tier of SOURCE_TIERS) {
		for (const source of sources) {
			if (tierOf(source) !== tier || seen.has(source.id)) continue;
			seen.add(source.id);
			ordered.push(source);
		}
	}
	return ordered;
}

/**
 * Water-filling: `room` shared among `needs` in equal shares, where a need smaller than its share
 * takes only its need and the rest is shared among the others. Whole tokens; the sum never
 * exceeds `room`; a need that gets less than itself gets at least every smaller-need's share.
 */
export function waterFill(needs: readonly number[], room: number): number[] {
	const shares = needs.map(() => 0);
	let left = Math.max(0, Math.floor(room));
	const order = needs.map((need, i) => ({ need: Math.max(0, need), i })).sort((a, b) => a.need - b.need);
	for (let k = 0; k < order.length; k++) {
		const { need, i } = order[k] as { need: number; i: number };
		const equal = Math.floor(left / (order.length - k));
		const share = Math.min(need, equal);
		shares[i] = share;
		left -= share;
	}
	return shares;
}

/**
 * The minimum share: an equal share of the room among the sources that need any. A source whose
 * whole need is within it goes whole whatever its tier: together they can never exceed the room.
 */
export function minimumShare(needs: readonly number[], room: number): number {
	const present = needs.filter((need) => need > 0).length;
	return present === 0 ? 0 : Math.floor(Math.max(0, Math.floor(room)) / present);
}

/**
 * Small sources first, each its whole need (see `minimumShare`); then tier by tier, each tier
 * water-fills what is left; a tier where any source is cut takes all of it, so a lower tier's
 * larger sources never get tokens a higher one needed.
 */
export function allocateTiers(tiers: readonly ContextSourceKind[], needs: readonly number[], room: number): number[] {
	const shares = needs.map(() => 0);
	let left = Math.max(0, Math.floor(room));
	const minimum = minimumShare(needs, left);
	const small = needs.map((need) => need > 0 && need <= minimum);
	needs.forEach((need, i) => {
		if (!small[i]) return;
		shares[i] = need;
		left -= need;
	});
	for (const tier of SOURCE_TIERS) {
		const members = tiers.flatMap((t, i) => (t === tier && !small[i] ? [i] : []));
		if (members.length === 0) continue;
		const tierShares = waterFill(members.map((i) => needs[i] ?? 0), left);
		let cut = false;
		members.forEach((i, k) => {
			const share = tierShares[k] ?? 0;
			shares[i] = share;
			left -= share;
			if (share < (needs[i] ?? 0)) cut = true;
		});
		if (cut) left = 0;
	}
	return shares;
}

export interface SourcesInput {
	sources: readonly ContextSource[];
	/** Estimated tokens the whole sources section may take (its preamble included). */
	room: number;
	/** What the fitter ranks passages against: the message and the last few turns. */
	query: string;
	estimate: EstimateFn;
	fitter?: SourceFitter;
}

export interface FittedSources {
	/** The section for the system message ("" when nothing was included). */
	section: string;
	/** One per source given (duplicates of an earlier id left out), in prompt order. */
	fits: SourceFit[];
}

interface Sent {
	fit: SourceFit;
	block?: string;
}

function noneFit(source: ContextSource, totalTokens: number): SourceFit {
	return withPartial({ id: source.id, name: source.name, totalTokens, sentTokens: 0, fit: "none" }, source);
}

/** The fit says so when its note was indexed in part (the sources line tells the person). */
function withPartial(fit: SourceFit, source: ContextSource): SourceFit {
	if (source.indexedInPartOverMb !== undefined) fit.indexedInPartOverMb = source.indexedInPartOverMb;
	return fit;
}

function isFitted(value: unknown): value is FittedSource {
	if (typeof value !== "object" || value === null) return false;
	const { text, fit, passages } = value as Partial<FittedSource>;
	return typeof text === "string" && (fit === "whole" || fit === "excerpts" || fit === "none") && (passages === undefined || Array.isArray(passages));
}

/** The fitter's answer, or the top cut's when it throws or breaks its contract (a bug must not fail a send). */
function callFitter(fitter: SourceFitter, source: ContextSource, budget: number, query: string, estimate: EstimateFn): FittedSource {
	const input = { id: source.id, name: source.name, text: source.text };
	try {
		const fitted: unknown = fitter(input, budget, query, estimate);
		if (isFitted(fitted)) return fitted;
	} catch (err) {
		console.error("Discover: fitting a source failed; it is cut from the top instead", err);
	}
	return topCutFitter(input, budget, query, estimate);
}

/** A source cut to `share`: the fitter's excerpts, re-checked; asked again tighter when over. */
function fitCut(source: ContextSource, n: number, share: number, totalTokens: number, input: SourcesInput & { fitterEstimate?: EstimateFn }): Sent {
	const { estimate, query } = input;
	const frame = estimate(sourceHeading(n, source.name, source.id, "excerpts")) + estimate(sourceFooter(n)) + estimate(SOURCE_SEPARATOR) + JOIN_SLACK_TOKENS;
	let budget = share - frame;
	for (let attempt = 0; attempt <= FIT_RETRIES && budget > 0; attempt++) {
		// The fitter gets the caller's estimator itself, not this call's memo: passages priced with
		// it are cached by its identity (passageCache.ts), so a prepared note stays warm across sends.
		const fitted = callFitter(input.fitter ?? topCutFitter, source, budget, query, input.fitterEstimate ?? estimate);
		if (fitted.fit === "none" || fitted.text === "") break;
		// Only the source's own text is "whole"; anything else is excerpts, whatever the fitter says.
		const fit = fitted.text === source.text ? "whole" : "excerpts";
		const block = renderSourceBlock(n, source.name, source.id, fit, fitted.text);
		const cost = estimate(block) + estimate(SOURCE_SEPARATOR) + JOIN_SLACK_TOKENS;
		if (cost <= share) {
			const sent: SourceFit = withPartial({ id: source.id, name: source.name, totalTokens, sentTokens: estimate(escapeSourceText(fitted.text)), fit }, source);
			if (fit === "excerpts") sent.passages = validPassages(fitted.passages, source.text.length);
			return { fit: sent, block };
		}
		budget -= cost - share + attempt + 1;
	}
	return { fit: noneFit(source, totalTokens) };
}

/** The fitter's passages as saved: in range, ordered, small. */
function validPassages(passages: FittedSource["passages"] | undefined, length: number): NonNullable<SourceFit["passages"]> {
	const kept: NonNullable<SourceFit["passages"]> = [];
	for (const p of passages ?? []) {
		if (typeof p !== "object" || p === null) continue;
		const start = Math.max(0, Math.floor(Number(p.start)));
		const end = Math.min(length, Math.floor(Number(p.end)));
		if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) continue;
		kept.push({ start, end, headingPath: typeof p.headingPath === "string" ? p.headingPath.slice(0, 300) : "" });
	}
	return kept.sort((a, b) => a.start - b.start);
}

/**
 * Fits the sources into `room`: each goes whole when its share holds it (its heading included),
 * else the fitter picks what goes in within the share; a source whose share holds not even its
 * heading is left out. Every source given is reported once, in prompt order.
 */
export function fitSources(given: SourcesInput): FittedSources {
	// The whole text of a source is estimated once here and again by the fitter (its total):
	// memoized for this call, a 1 MB note is read once.
	const estimate = memoizeEstimate(given.estimate, 256);
	const input = { ...given, estimate, fitterEstimate: given.estimate };
	const ordered = orderSources(input.sources);
	if (ordered.length === 0) return { section: "", fits: [] };
	const preamble = estimate(SOURCES_PREAMBLE) + JOIN_SLACK_TOKENS;
	const room = input.room - preamble;
	const totals = ordered.map((s) => (s.text === "" ? 0 : estimate(escapeSourceText(s.text))));
	const needs = ordered.map((s, i) => {
		if (s.text === "") return 0;
		const n = i + 1;
		return estimate(sourceHeading(n, s.name, s.id, "whole")) + (totals[i] ?? 0) + estimate(sourceFooter(n)) + estimate(SOURCE_SEPARATOR) + JOIN_SLACK_TOKENS;
	});
	const shares = room > 0 ? allocateTiers(ordered.map(tierOf), needs, room) : needs.map(() => 0);
	const whole = (source: ContextSource, i: number): Sent => ({
		fit: withPartial({ id: source.id, name: source.name, totalTokens: totals[i] ?? 0, sentTokens: totals[i] ?? 0, fit: "whole" }, source),
		block: renderSourceBlock(i + 1, source.name, source.id, "whole", source.text),
	});
	const sent: Sent[] = ordered.map((source, i) => {
		const total = totals[i] ?? 0;
		const share = shares[i] ?? 0;
		if (source.text === "" || share <= 0) return { fit: noneFit(source, total) };
		if (share >= (needs[i] ?? 0)) return whole(source, i);
		return fitCut(source, i + 1, share, total, input);
	});
	// A fitter may send less than its share (relevance fitting keeps what matches): what is left
	// goes to the sources left out, in prompt order, each whole or not at all, so none is reported
	// "not included" while the room could hold it.
	let unused = room - sent.reduce((sum, s, i) => sum + (s.block === undefined ? 0 : s.fit.fit === "whole" ? (needs[i] ?? 0) : estimate(s.block) + estimate(SOURCE_SEPARATOR) + JOIN_SLACK_TOKENS), 0);
	ordered.forEach((source, i) => {
		const need = needs[i] ?? 0;
		if (sent[i]?.block !== undefined || source.text === "" || need > unused) return;
		sent[i] = whole(source, i);
		unused -= need;
	});
	const blocks = sent.flatMap((s) => (s.block === undefined ? [] : [s.block]));
	return { section: blocks.length === 0 ? "" : [SOURCES_PREAMBLE, ...blocks].join(SOURCE_SEPARATOR), fits: sent.map((s) => s.fit) };
}

/** How many of the latest history messages join the message in the fitter's query. */
export const QUERY_RECENT_MESSAGES = 4;

/**
 * What the fitter ranks passages against: the message twice (it is what the answer is about, so
 * its words weigh double), then the last few messages of the conversation, newest first.
 */
export function sourceQuery(current: string, history: readonly { content: string }[]): string {
	const recent = history.slice(-QUERY_RECENT_MESSAGES).map((m) => m.content).reverse();
	return [current, current, ...recent].join("\n");
}
