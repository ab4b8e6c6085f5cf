// Reports far below what a model usually counts: one alone looks like a server that silently cut
// the prompt, and is set aside; a steady run of them means the model itself changed.

import { storedRatio, upperMedian } from "./calibrationData";

/**
 * A ratio this far below the current median looks like a server that silently truncated the
 * prompt. Trusting it would shrink estimates and overflow the next prompt, so it is set aside.
 */
const LOW_OUTLIER = 0.8;
/** Samples needed before low outliers are recognised as such. */
const MIN_SAMPLES_FOR_OUTLIERS = 2;
/**
 * Against a per-script fit resting on fewer than SETTLED_FIT observations, a count must fall this far
 * below its estimate: two prompts that mix the scripts alike cannot tell the scripts' costs apart,
 * so the fit may still price Latin with some of the Hebrew it saw. A server that cut the prompt
 * counts far less than this (a 6,000-token prompt cut to 2,048: 0.34).
 */
const LOW_OUTLIER_EARLY_FIT = 0.7;
const SETTLED_FIT = 3;
/**
 * Consecutive low samples that agree with one another (within 5%) mean the model really changed,
 * not truncation: they replace the window.
 */
const LOW_STREAK_TO_RESET = 6;
const LOW_STREAK_SPREAD = 0.05;

/**
 * True when `ratio` is too far below the model's learned `ratios` to be trusted on its own. With
 * `expected` (the per-script calibrated estimate of the same prompt, before this count), the count
 * is judged against it instead: a prompt that mixes the scripts differently has a plain ratio far
 * from the median although the per-script fit expected exactly its count (a tokenizer that splits
 * Hebrew 4× finer than Latin: a prompt without Hebrew after one with much of it).
 */
export function isLowOutlier(ratios: readonly number[], ratio: number, expected?: { estimate: number; reported: number; observations?: number }): boolean {
	if (ratios.length < MIN_SAMPLES_FOR_OUTLIERS) return false;
	if (expected !== undefined && expected.estimate > 0) return expected.reported < expected.estimate * ((expected.observations ?? SETTLED_FIT) < SETTLED_FIT ? LOW_OUTLIER_EARLY_FIT : LOW_OUTLIER);
	return ratio < upperMedian(ratios) * LOW_OUTLIER;
}

/** Recent low outliers per model, kept in memory only. */
export class LowOutlierStreaks {
	private readonly streaks = new Map<string, number[]>();

	/**
	 * Records a low outlier of `model`. When a consistent streak of them has built up, returns it
	 * (as stored ratios) to replace the model's window and starts over; undefined until then.
	 */
	add(model: string, ratio: number): number[] | undefined {
		const streak = this.streaks.get(model) ?? [];
		streak.push(ratio);
		if (streak.length > LOW_STREAK_TO_RESET) streak.shift();
		this.streaks.set(model, streak);
		if (streak.length < LOW_STREAK_TO_RESET) return undefined;
		const lo = Math.min(...streak);
		const hi = Math.max(...streak);
		if (hi > lo * (1 + LOW_STREAK_SPREAD)) return undefined;
		this.streaks.delete(model);
		return streak.map(storedRatio);
	}

	/** Forgets `model`'s streak: a trusted sample broke it, or the model was forgotten. */
	delete(model: string): void {
		this.streaks.delete(model);
	}
}
