import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, LIMITS, validateSettings } from "../settings";
import { compactionBudget } from "./compaction";
import { BUDGET_LIMITS, normalizeChatSettings, promptBudget } from "./chatSettings";
import { safeBudget } from "./tokens";
import { DEFAULT_CHAT_SETTINGS } from "../core/types";

describe("normalizeChatSettings", () => {
	it("fills in the defaults", () => {
		expect(normalizeChatSettings()).toEqual(DEFAULT_CHAT_SETTINGS);
		expect(normalizeChatSettings({ recentMessagesToKeep: 10 })).toEqual({ ...DEFAULT_CHAT_SETTINGS, recentMessagesToKeep: 10 });
	});

	it("keeps an update on top of the current settings", () => {
		const current = normalizeChatSettings({ maxPromptTokens: 32000, systemPrompt: "Hi" });
		expect(normalizeChatSettings({ reservedResponseTokens: 1000 }, current)).toMatchObject({ maxPromptTokens: 32000, reservedResponseTokens: 1000, systemPrompt: "Hi" });
	});

	it("repairs nonsense so a turn always has a positive budget and min ≤ keep", () => {
		fc.assert(
			fc.property(
				fc.record({
					maxPromptTokens: fc.oneof(fc.integer(), fc.double(), fc.constant(Number.NaN)),
					reservedResponseTokens: fc.oneof(fc.integer(), fc.double()),
					recentMessagesToKeep: fc.integer({ min: -5, max: 50 }),
					minRecentMessagesToKeep: fc.integer({ min: -5, max: 50 }),
				}),
				(partial) => {
					const s = normalizeChatSettings(partial);
					expect(Number.isInteger(s.maxPromptTokens) && Number.isInteger(s.reservedResponseTokens)).toBe(true);
					expect(s.maxPromptTokens - s.reservedResponseTokens).toBeGreaterThanOrEqual(BUDGET_LIMITS.promptRoom);
					expect(s.reservedResponseTokens).toBeGreaterThan(0);
					expect(s.minRecentMessagesToKeep).toBeGreaterThanOrEqual(0);
					expect(s.minRecentMessagesToKeep).toBeLessThanOrEqual(s.recentMessagesToKeep);
				},
			),
		);
	});

	it("keeps exactly the budget settings the settings tab accepts: one set of limits for both", () => {
		expect(LIMITS).toMatchObject(BUDGET_LIMITS);
		const budgetFields = ["maxPromptTokens", "reservedResponseTokens"] as const;
		const edge = (n: number): fc.Arbitrary<number> => fc.integer({ min: n - 3, max: n + 3 });
		const { min, max } = BUDGET_LIMITS.maxPromptTokens;
		fc.assert(
			fc.property(
				fc.oneof(edge(min), edge(max), edge(256), fc.integer({ min: 1, max: 20_000_000 })),
				fc.oneof(edge(BUDGET_LIMITS.reservedResponseTokens.min), edge(16), fc.integer({ min: 1, max: 20_000_000 })),
				fc.oneof(fc.constant(undefined), edge(BUDGET_LIMITS.promptRoom), edge(128)),
				(maxPromptTokens, reserved, room) => {
					const reservedResponseTokens = room === undefined ? reserved : maxPromptTokens - room;
					const typed = { ...DEFAULT_SETTINGS, maxPromptTokens, reservedResponseTokens };
					const accepted = !validateSettings(typed).some((i) => (budgetFields as readonly string[]).includes(i.field));
					const kept = normalizeChatSettings(typed);
					const unchanged = kept.maxPromptTokens === maxPromptTokens && kept.reservedResponseTokens === reservedResponseTokens;
					expect({ maxPromptTokens, reservedResponseTokens, accepted }).toEqual({ maxPromptTokens, reservedResponseTokens, accepted: unchanged });
				},
			),
		);
	});

	it("the prompt budget is the window less the answer's reserve, and the engine fits prompts in its safe share", () => {
		const s = { maxPromptTokens: 8192, reservedResponseTokens: 512 };
		expect(promptBudget(s)).toBe(7680);
		expect(compactionBudget(s).prompt).toBe(safeBudget(promptBudget(s)));
	});
});
