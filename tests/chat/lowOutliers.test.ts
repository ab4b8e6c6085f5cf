import { describe, expect, it } from "vitest";
import { isLowOutlier, LowOutlierStreaks } from "../../src/chat/lowOutliers";

describe("isLowOutlier", () => {
	it("trusts every ratio until the model has two samples to compare with", () => {
		expect(isLowOutlier([], 0.3)).toBe(false);
		expect(isLowOutlier([1.3], 0.3)).toBe(false);
		expect(isLowOutlier([1.3, 1.3], 0.3)).toBe(true);
	});

	it("sets aside a ratio more than a fifth below the upper median, and only such a ratio", () => {
		const ratios = [1, 1.2, 1.4, 1.5];
		// The upper median of an even count is the higher middle value: 1.4.
		expect(isLowOutlier(ratios, 1.4 * 0.8 - 0.001)).toBe(true);
		expect(isLowOutlier(ratios, 1.4 * 0.8 + 0.001)).toBe(false);
	});
});

describe("isLowOutlier against the per-script estimate", () => {
	it("judges the count by what the per-script fit expected of this prompt, not by the plain median", () => {
		const ratios = [1.8, 1.06];
		// A prompt without the finely split script: plain ratio 1.2, far below the median 1.8, but the fit expected 1000.
		expect(isLowOutlier(ratios, 1.2)).toBe(true);
		expect(isLowOutlier(ratios, 1.2, { estimate: 1000, reported: 990 })).toBe(false);
		// A silent cut: a count far below what the fit expected, whatever the plain ratio says.
		expect(isLowOutlier(ratios, 1.8, { estimate: 1000, reported: 700 })).toBe(true);
		// Still nothing to judge by before two samples.
		expect(isLowOutlier([1.8], 1.2, { estimate: 1000, reported: 100 })).toBe(false);
	});
});

describe("LowOutlierStreaks", () => {
	it("hands back six consistent low ratios, as stored, and then starts over", () => {
		const streaks = new LowOutlierStreaks();
		const run = [0.90001, 0.9, 0.91, 0.92, 0.93, 0.94];
		for (const ratio of run.slice(0, 5)) expect(streaks.add("m", ratio)).toBeUndefined();
		expect(streaks.add("m", 0.94)).toEqual([0.9, 0.9, 0.91, 0.92, 0.93, 0.94]);
		expect(streaks.add("m", 0.9)).toBeUndefined();
	});

	it("keeps waiting while the last six disagree by more than 5%, and follows the newest six", () => {
		const streaks = new LowOutlierStreaks();
		for (const ratio of [0.5, 0.9, 0.9, 0.9, 0.9]) expect(streaks.add("m", ratio)).toBeUndefined();
		expect(streaks.add("m", 0.9)).toBeUndefined();
		// The 0.5 has slid out of the six: the rest agree.
		expect(streaks.add("m", 0.9)).toEqual([0.9, 0.9, 0.9, 0.9, 0.9, 0.9]);
	});

	it("keeps each model's streak apart, and a broken streak starts from nothing", () => {
		const streaks = new LowOutlierStreaks();
		for (let i = 0; i < 5; i++) streaks.add("a", 0.8);
		expect(streaks.add("b", 0.8)).toBeUndefined();
		streaks.delete("a");
		for (let i = 0; i < 5; i++) expect(streaks.add("a", 0.8)).toBeUndefined();
		expect(streaks.add("a", 0.8)).toHaveLength(6);
	});
});
