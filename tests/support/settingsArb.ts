import fc from "fast-check";

export interface BudgetSettings {
	maxPromptTokens: number;
	reservedResponseTokens: number;
	recentMessagesToKeep: number;
	minRecentMessagesToKeep: number;
}

/** Valid budget settings for property tests: reserved a share of the window, min ≤ keep. */
export function budgetSettingsArb(ranges: {
	maxPromptTokens: [number, number];
	reservedShare: [number, number];
	keep: [number, number];
	min: [number, number];
	/** The fewest tokens reserved for the answer. */
	leastReserved: number;
}): fc.Arbitrary<BudgetSettings> {
	return fc
		.record({
			maxPromptTokens: fc.integer({ min: ranges.maxPromptTokens[0], max: ranges.maxPromptTokens[1] }),
			reservedShare: fc.double({ min: ranges.reservedShare[0], max: ranges.reservedShare[1], noNaN: true }),
			keep: fc.integer({ min: ranges.keep[0], max: ranges.keep[1] }),
			min: fc.integer({ min: ranges.min[0], max: ranges.min[1] }),
		})
		.map((s) => ({
			maxPromptTokens: s.maxPromptTokens,
			reservedResponseTokens: Math.max(ranges.leastReserved, Math.floor(s.maxPromptTokens * s.reservedShare)),
			recentMessagesToKeep: Math.max(s.keep, s.min),
			minRecentMessagesToKeep: Math.min(s.keep, s.min),
		}));
}
