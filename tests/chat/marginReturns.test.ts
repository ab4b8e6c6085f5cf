// A margin that comes back. On a tokenizer the estimator has never seen, the first prompt (a long
// note, much of it in a script this tokenizer splits finely) is refused; the prompts that follow
// mix the scripts differently, so their plain ratios (count ÷ raw estimate) sit far below the
// refused one although the per-script calibration estimates them well. Once those estimates agree
// with the server's counts, the margin must come back to what the counts support — as if the
// refusal had never happened — within a few answers, and stay there.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenCalibration } from "../../src/chat/calibration";
import { AGREEMENTS_TO_CLEAR, MIN_MARGIN } from "../../src/chat/safetyMargin";
import { SCRIPT_GROUP_COUNT } from "../../src/chat/tokenFast";

const COMMON = 0;
const OTHER = 4;
const ACCENTED = 5;

/** A prompt's raw estimate split by script group: Latin text, some of it accented, and some Hebrew/Arabic ("other"). */
function prompt(common: number, other: number, accented: number): number[] {
	const groups = Array.from({ length: SCRIPT_GROUP_COUNT }, () => 0);
	groups[COMMON] = common;
	groups[OTHER] = other;
	groups[ACCENTED] = accented;
	return groups;
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
/** What a server whose tokenizer costs `cost[g]` tokens per estimated token of group g counts. */
const countOf = (groups: readonly number[], cost: readonly number[]): number => Math.round(groups.reduce((n, g, i) => n + g * (cost[i] ?? 1), 0));

/** Per-group costs of a tokenizer never seen: Latin close to the estimate, Hebrew/Arabic several times it. */
const tokenizerArb = fc.record({ common: fc.double({ min: 0.95, max: 1.5, noNaN: true }), other: fc.double({ min: 2.5, max: 4.5, noNaN: true }), accented: fc.double({ min: 1, max: 2, noNaN: true }) }).map(({ common, other, accented }) => prompt(common, other, accented));
/** The chat's later prompts: mostly Latin, a little of the other script or none (the cut keeps different passages). */
const laterPromptArb = fc.tuple(fc.integer({ min: 600, max: 1500 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 20 })).map(([c, o, a]) => prompt(c, o, a));
/** The first prompt: the whole note, a fifth of it in the other script. */
const firstPromptArb = fc.tuple(fc.integer({ min: 1000, max: 1400 }), fc.integer({ min: 200, max: 300 }), fc.integer({ min: 5, max: 30 })).map(([c, o, a]) => prompt(c, o, a));

/** The turn runner's order for a refused prompt: the surprise (its calibrated estimate and the server's count), then the count as an observation. */
function refuse(cal: TokenCalibration, groups: number[], count: number): void {
	const raw = sum(groups);
	cal.surprise("m", Math.ceil(raw * cal.factor("m")), count, "chat");
	cal.observe("m", raw, count, groups, "chat");
}

describe("the safety margin after a refusal on a tokenizer never seen", () => {
	it("comes back to the margin the counts support (as if never refused) once the calibrated estimates agree, within a few answers", () => {
		fc.assert(
			fc.property(tokenizerArb, firstPromptArb, fc.array(laterPromptArb, { minLength: 8, maxLength: 14 }), (cost, first, later) => {
				const refused = new TokenCalibration();
				const never = new TokenCalibration();
				refuse(refused, first, countOf(first, cost));
				never.observe("m", sum(first), countOf(first, cost), first, "chat");
				for (const groups of later) {
					for (const cal of [refused, never]) cal.observe("m", sum(groups), countOf(groups, cost), groups, "chat");
				}
				// Every count agreed with a per-script fit: none was set aside as a silent cut.
				expect(refused.samples("m")).toBe(Math.min(20, later.length + 1));
				expect(refused.margin("m", "chat")).toEqual(never.margin("m", "chat"));
				// And what the counts support is close to the floor: they fit the per-script factors exactly.
				expect(refused.margin("m", "chat").share).toBeLessThan(MIN_MARGIN + 0.1);
			}),
			{ numRuns: 100 },
		);
	});

	it("stays back once over: a later count that misses does not bring the old refusal back", () => {
		fc.assert(
			fc.property(tokenizerArb, firstPromptArb, fc.array(laterPromptArb, { minLength: AGREEMENTS_TO_CLEAR + 5, maxLength: 10 }), fc.double({ min: 1.2, max: 1.6, noNaN: true }), (cost, first, later, miss) => {
				const refused = new TokenCalibration();
				const never = new TokenCalibration();
				refuse(refused, first, countOf(first, cost));
				never.observe("m", sum(first), countOf(first, cost), first, "chat");
				const counts = later.map((g) => countOf(g, cost));
				counts[counts.length - 1] = Math.round((counts[counts.length - 1] ?? 0) * miss);
				later.forEach((groups, i) => {
					for (const cal of [refused, never]) cal.observe("m", sum(groups), counts[i] ?? 0, groups, "chat");
				});
				expect(refused.toJSON().margins?.m?.surprise).toBeUndefined();
				expect(refused.margin("m", "chat")).toEqual(never.margin("m", "chat"));
			}),
			{ numRuns: 100 },
		);
	});
});
