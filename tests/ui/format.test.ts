import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatTokenCount, formatWhen } from "../../src/i18n";
import { contextFitLabel, meterLevel } from "../../src/ui/format";

const formatTokens = (n: number): string => formatTokenCount(n, "en");

describe("formatTokenCount (English)", () => {
	it("reads like the meter in the issue, abbreviated as English Intl does", () => {
		expect(formatTokens(950)).toBe("950");
		expect(formatTokens(3140)).toBe("3.1K");
		expect(formatTokens(7680)).toBe("7.7K");
		expect(formatTokens(8000)).toBe("8K");
		expect(formatTokens(131072)).toBe("131K");
	});

	it("never prints more than one decimal or a negative number", () => {
		fc.assert(
			fc.property(fc.integer({ min: -10, max: 10_000_000 }), (n) => {
				expect(formatTokens(n)).toMatch(/^\d+(\.\d)?[KMB]?$/);
			}),
		);
	});
});

describe("meterLevel", () => {
	it("warns from 60% and turns to danger from 80%", () => {
		expect(meterLevel(599, 1000)).toBe("ok");
		expect(meterLevel(600, 1000)).toBe("warn");
		expect(meterLevel(799, 1000)).toBe("warn");
		expect(meterLevel(800, 1000)).toBe("danger");
	});

	it("never goes down as the prompt grows", () => {
		const rank = { ok: 0, warn: 1, danger: 2 } as const;
		fc.assert(
			fc.property(fc.nat(100_000), fc.nat(100_000), fc.integer({ min: 1, max: 100_000 }), (a, b, budget) => {
				const [lo, hi] = a <= b ? [a, b] : [b, a];
				expect(rank[meterLevel(lo, budget)]).toBeLessThanOrEqual(rank[meterLevel(hi, budget)]);
			}),
		);
	});
});

describe("contextFitLabel", () => {
	it("names whole, partial and none", () => {
		expect(contextFitLabel({ included: "whole", fraction: 1 })).toBe("Whole note");
		expect(contextFitLabel({ included: "partial", fraction: 0.624 })).toBe("Excerpts, 62%");
		expect(contextFitLabel({ included: "none", fraction: 0 })).toBe("Not included: budget full");
	});

	it("never calls a partial fit 0% or 100%", () => {
		fc.assert(
			fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (fraction) => {
				const label = contextFitLabel({ included: "partial", fraction });
				expect(label).not.toBe("Excerpts, 0%");
				expect(label).not.toBe("Excerpts, 100%");
			}),
		);
	});
});

describe("formatWhen", () => {
	// Local times, so the expectations hold in any time zone the tests run in.
	const now = new Date(2026, 10, 24, 18, 0);
	const morning = new Date(2026, 10, 24, 7, 51).toISOString();
	const lastMonth = new Date(2026, 9, 3, 14, 5).toISOString();

	it("shows today's time the way the person's locale writes it, not a fixed 07:51 AM", () => {
		expect(formatWhen(morning, now, "en-US")).toMatch(/^7:51\sAM$/u);
		expect(formatWhen(morning, now, "de-DE")).toBe("07:51");
		expect(formatWhen(morning, now, "ja-JP")).toBe("7:51");
	});

	it("adds the date for older chats, in the locale's order", () => {
		expect(formatWhen(lastMonth, now, "en-US")).toMatch(/^Oct 3, 2026, 2:05\sPM$/u);
		expect(formatWhen(lastMonth, now, "de-DE")).toBe("03.10.2026, 14:05");
		expect(formatWhen(lastMonth, now, "ja-JP")).toBe("2026/10/03 14:05");
	});

	it("says nothing for a date it cannot read", () => {
		expect(formatWhen("not a date", now, "en-US")).toBe("");
	});
});
