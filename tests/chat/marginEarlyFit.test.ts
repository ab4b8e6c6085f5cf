// Found by the margin property (marginReturns.test.ts, seed -651269720): a tokenizer that costs
// Latin 0.95 and Hebrew 3.72 tokens per estimated token. The first prompt is refused (a fifth of it
// Hebrew), the second holds a little Hebrew, and the third none: a per-script fit resting on two
// prompts that mix the scripts alike still priced Latin with some of the Hebrew, and set the third
// count aside as a silent cut (expected 10 samples, kept 9). A cut prompt counts far less.
import { describe, expect, it } from "vitest";
import { TokenCalibration } from "../../src/chat/calibration";
import { SCRIPT_GROUP_COUNT } from "../../src/chat/tokenFast";

const groups = (common: number, other: number, accented: number): number[] => {
	const g = Array.from({ length: SCRIPT_GROUP_COUNT }, () => 0);
	g[0] = common;
	g[4] = other;
	g[5] = accented;
	return g;
};
const COST = groups(0.95, 3.7156862745098027, 1);
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const countOf = (g: readonly number[]): number => Math.round(g.reduce((n, x, i) => n + x * (COST[i] ?? 1), 0));

describe("the low-outlier judgement on an early per-script fit", () => {
	it("keeps a count the fit of two alike prompts could not predict, and still sets aside a cut prompt's count", () => {
		const cal = new TokenCalibration();
		const first = groups(1250, 200, 5);
		cal.surprise("m", Math.ceil(sum(first) * cal.factor("m")), countOf(first), "chat");
		cal.observe("m", sum(first), countOf(first), first, "chat");
		const later = [groups(600, 51, 0), groups(600, 0, 3), ...Array.from({ length: 7 }, () => groups(600, 0, 0))];
		for (const g of later) cal.observe("m", sum(g), countOf(g), g, "chat");
		expect(cal.samples("m")).toBe(10);

		// A server that silently cut a long prompt to its 2,048-token window: set aside.
		const long = groups(6000, 0, 0);
		cal.observe("m", sum(long), 2048, long, "chat");
		expect(cal.samples("m")).toBe(10);
	});
});
