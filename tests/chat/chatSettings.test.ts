import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, LIMITS, validateSettings } from "../../src/settings/settings";
import { compactionBudget } from "../../src/chat/compaction";
import { BUDGET_LIMITS, normalizeChatSettings, promptBudget } from "../../src/chat/chatSettings";
import { safeBudget } from "../../src/chat/tokens";
import { DEFAULT_CHAT_SETTINGS } from "../../src/core/types";

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

	it("keeps as they are the budget settings the settings tab accepts, and the tab's range lies inside the engine's", () => {
		expect(LIMITS.maxPromptTokens.min).toBeGreaterThanOrEqual(BUDGET_LIMITS.maxPromptTokens.min);
		expect(LIMITS.maxPromptTokens.max).toBeLessThanOrEqual(BUDGET_LIMITS.maxPromptTokens.max);
		expect(LIMITS.reservedResponseTokens.min).toBeGreaterThanOrEqual(BUDGET_LIMITS.reservedResponseTokens.min);
		expect(LIMITS.promptRoom).toBeGreaterThanOrEqual(BUDGET_LIMITS.promptRoom);
		const budgetFields = ["maxPromptTokens", "reservedResponseTokens"] as const;
		const edge = (n: number): fc.Arbitrary<number> => fc.integer({ min: n - 3, max: n + 3 });
		fc.assert(
			fc.property(
				fc.oneof(edge(LIMITS.maxPromptTokens.min), edge(LIMITS.maxPromptTokens.max), edge(BUDGET_LIMITS.maxPromptTokens.min), fc.integer({ min: 1, max: 20_000_000 })),
				fc.oneof(edge(LIMITS.reservedResponseTokens.min), edge(BUDGET_LIMITS.reservedResponseTokens.min), fc.integer({ min: 1, max: 20_000_000 })),
				fc.oneof(fc.constant(undefined), edge(LIMITS.promptRoom), edge(BUDGET_LIMITS.promptRoom)),
				(maxPromptTokens, reserved, room) => {
					const reservedResponseTokens = room === undefined ? reserved : maxPromptTokens - room;
					const typed = { ...DEFAULT_SETTINGS, maxPromptTokens, reservedResponseTokens };
					const accepted = !validateSettings(typed).some((i) => (budgetFields as readonly string[]).includes(i.field));
					if (!accepted) return;
					const kept = normalizeChatSettings(typed);
					expect({ maxPromptTokens: kept.maxPromptTokens, reservedResponseTokens: kept.reservedResponseTokens }).toEqual({ maxPromptTokens, reservedResponseTokens });
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
