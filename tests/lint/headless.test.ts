import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, validateSettings } from "../../src/headless";

describe("the headless surface", () => {
	it("exports DEFAULT_SETTINGS with the four budget settings by name", () => {
		expect(DEFAULT_SETTINGS).toMatchObject({ maxPromptTokens: 8192, reservedResponseTokens: 512, recentMessagesToKeep: 6, minRecentMessagesToKeep: 2 });
		expect(typeof DEFAULT_SETTINGS.systemPrompt).toBe("string");
		expect(validateSettings(DEFAULT_SETTINGS)).toEqual([]);
	});
});
