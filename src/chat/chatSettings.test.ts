import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeChatSettings } from "./chatSettings";
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
					expect(s.maxPromptTokens - s.reservedResponseTokens).toBeGreaterThanOrEqual(128);
					expect(s.reservedResponseTokens).toBeGreaterThan(0);
					expect(s.minRecentMessagesToKeep).toBeGreaterThanOrEqual(0);
					expect(s.minRecentMessagesToKeep).toBeLessThanOrEqual(s.recentMessagesToKeep);
				},
			),
		);
	});
});
