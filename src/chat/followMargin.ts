// The margin for a prompt that follows one the server has just counted, in the same chat. The
// per-script fit misses the server by a few percent because costs vary within a script, and on a
// small window a prompt is made of a few texts only; but the next prompt of the same chat is mostly
// the same texts (the same note, most of the same history), so it misses in the same direction.
// Measured on the window bench's replayed prompts (4k–32k, cl100k and Claude counts), the fit's
// error of one prompt and of the next in the same chat correlate at 0.5–0.65. So a prompt that
// follows an answer carries a share (ρ, learned from the model's own pairs) of the last error, and
// covers only the spread that remains around it; the first prompt of a chat keeps the whole spread
// (safetyMargin.ts's learnedMargin).
import { FEW_SAMPLES_EXTRA, learnedMargin, marginFromTail, TAIL_CONSTANT, type MarginRecord, type SafetyMargin } from "./safetyMargin";

/** Pairs (a prompt and the one before it, in the same chat) needed before the carried error is trusted. */
export const MIN_FOLLOW_PAIRS = 5;
/**
 * Pulls ρ towards 0 (nothing carried), in squared relative error: with few or tiny errors the pairs
 * say little. Chosen on half the window bench's chats (odd seeds) from 0.001 / 0.01 / 0.05.
 */
export const FOLLOW_SHRINKAGE = 0.01;

export interface FollowFit {
	/** The share of the last prompt's error the next one in the same chat repeats, 0..1. */
	rho: number;
	/** Pairs it was learned from. */
	pairs: number;
	/** The highest error left once the carried share is taken off (ratio − 1 − ρ × previous). */
	spread: number;
}

/**
 * ρ and the spread that remains, from the kept observations' out-of-sample ratios (server's count
 * ÷ the fit's estimate, oldest first) and, for each, whether it followed the one before it in the
 * same chat. Undefined with fewer than MIN_FOLLOW_PAIRS such pairs.
 */
export function fitFollow(ratios: readonly number[], follows: readonly boolean[]): FollowFit | undefined {
	let xy = 0;
	let xx = FOLLOW_SHRINKAGE;
	const pairs: [number, number][] = [];
	for (let i = 1; i < ratios.length; i++) {
		if (follows[i] !== true) continue;
		const x = (ratios[i - 1] ?? 1) - 1;
		const y = (ratios[i] ?? 1) - 1;
		pairs.push([x, y]);
		xy += x * y;
		xx += x * x;
	}
	if (pairs.length < MIN_FOLLOW_PAIRS) return undefined;
	const rho = Math.min(1, Math.max(0, xy / xx));
	let spread = -Infinity;
	for (const [x, y] of pairs) spread = Math.max(spread, y - rho * x);
	return { rho, pairs: pairs.length, spread };
}

/**
 * The tail (highest server count ÷ calibrated estimate to allow for) of a prompt that follows the
 * last observation in the same chat: the carried share of its error, the remaining spread, and the
 * same constants as the whole-spread margin. Undefined when the pairs are too few to say.
 */
export function followingTail(ratios: readonly number[], follows: readonly boolean[]): number | undefined {
	const fit = fitFollow(ratios, follows);
	if (fit === undefined) return undefined;
	const last = (ratios[ratios.length - 1] ?? 1) - 1;
	return 1 + fit.rho * last + fit.spread + TAIL_CONSTANT + FEW_SAMPLES_EXTRA / (fit.pairs + 1);
}

/**
 * The margin of a prompt that follows no counted prompt of its chat (a new chat, or the first
 * after a restart): the whole spread, as learnedMargin has it, but its few-samples allowance
 * counts only the observations that were such first prompts. A chat's first prompt is mostly the
 * note, a few large texts the fit has never seen, and it misses the server further than the
 * prompts that follow (in the window bench, a third of the overflows came from the first prompts,
 * a twelfth of the requests). Without `follows` flags (older files, chats not named) every
 * observation counts, and the margin is learnedMargin's.
 */
export function firstPromptMargin(ratios: readonly number[], observations: readonly { follows?: true }[], record: MarginRecord | undefined): SafetyMargin {
	if (ratios.length === 0) return marginFromTail(undefined, 0, record);
	const firsts = observations.filter((o) => o.follows !== true).length;
	return marginFromTail(Math.max(...ratios) + TAIL_CONSTANT + FEW_SAMPLES_EXTRA / (firsts + 1), ratios.length, record);
}

/**
 * The margin of the next prompt from the kept observations' out-of-sample ratios (aligned with
 * `observations`): `follows`, it is sent in the chat of the last counted prompt. A following prompt
 * carries that prompt's error once the pairs say how much (until then, the whole spread); a first
 * prompt gets firstPromptMargin.
 */
export function chatMargin(ratios: readonly number[], observations: readonly { follows?: true }[], follows: boolean, record: MarginRecord | undefined): SafetyMargin {
	if (ratios.length !== observations.length) return learnedMargin(ratios, 1, record);
	if (!follows) return firstPromptMargin(ratios, observations, record);
	const tail = followingTail(
		ratios,
		observations.map((o) => o.follows === true),
	);
	return tail === undefined ? learnedMargin(ratios, 1, record) : marginFromTail(tail, ratios.length, record);
}
