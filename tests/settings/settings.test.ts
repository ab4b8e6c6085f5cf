import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_CHAT_SETTINGS } from "../../src/core/types";
import { DEFAULT_BASE_URLS, PROVIDERS } from "../../src/providers/types";
import { DEFAULT_SETTINGS, LIMITS, sanitizeSettings, validateSettings, type DiscoverSettings } from "../../src/settings/settings";
import { migrateSettings } from "../../src/settings/migration";

const fieldsOf = (s: DiscoverSettings): string[] => validateSettings(s).map((i) => i.field);

describe("DEFAULT_SETTINGS", () => {
	it("are valid and reuse the engine's budget defaults", () => {
		expect(validateSettings(DEFAULT_SETTINGS)).toEqual([]);
		expect(DEFAULT_SETTINGS).toMatchObject(DEFAULT_CHAT_SETTINGS);
		expect(DEFAULT_SETTINGS).toMatchObject({ maxPromptTokens: 8192, reservedResponseTokens: 512, recentMessagesToKeep: 6, minRecentMessagesToKeep: 2 });
		expect(DEFAULT_SETTINGS).toMatchObject({ provider: "ollama", baseUrl: "http://localhost:11434", model: "", apiKeySecret: "", includeActiveNote: true });
		// Thinking is the model's scratch work: exports leave it out unless the person asks.
		expect(DEFAULT_SETTINGS.includeThinkingInExports).toBe(false);
	});
});

describe("providers in the settings", () => {
	it("default to the provider's own address, and the migration accepts exactly the providers there are", () => {
		expect(DEFAULT_SETTINGS.baseUrl).toBe(DEFAULT_BASE_URLS[DEFAULT_SETTINGS.provider]);
		for (const provider of PROVIDERS) expect(migrateSettings({ ...DEFAULT_SETTINGS, provider }).settings.provider).toBe(provider);
		expect(migrateSettings({ ...DEFAULT_SETTINGS, provider: "gemini" }).settings.provider).toBe(DEFAULT_SETTINGS.provider);
	});
});

describe("validateSettings", () => {
	it.each<[Partial<DiscoverSettings>, string, RegExp]>([
		[{ maxPromptTokens: 1023 }, "maxPromptTokens", /at least 1,024 tokens/],
		[{ maxPromptTokens: 4096.5 }, "maxPromptTokens", /whole number/],
		[{ maxPromptTokens: Number.NaN }, "maxPromptTokens", /Enter a number/],
		[{ reservedResponseTokens: 63 }, "reservedResponseTokens", /at least 64/],
		[{ reservedResponseTokens: 8000 }, "reservedResponseTokens", /must leave 512 of the context size \(8,192\)/],
		[{ recentMessagesToKeep: 0, minRecentMessagesToKeep: 0 }, "recentMessagesToKeep", /at least 1/],
		[{ minRecentMessagesToKeep: 7 }, "minRecentMessagesToKeep", /must not be more than “Recent messages to keep” \(6\)/],
		[{ baseUrl: "localhost:11434" }, "baseUrl", /http:\/\/ or https:\/\//],
		[{ baseUrl: "ftp://example.org" }, "baseUrl", /http:\/\//],
		[{ apiKeySecret: "My Key" }, "apiKeySecret", /lowercase/],
		[{ sessionsFolder: "  / " }, "sessionsFolder", /folder path/],
		[{ exportFolder: "../outside" }, "exportFolder", /inside the vault/],
		[{ sessionsFolder: "." }, "sessionsFolder", /Remove “\.”/],
		[{ sessionsFolder: "Discover/./Chats" }, "sessionsFolder", /Remove “\.”/],
		[{ sessionsFolder: "Chats: 2026" }, "sessionsFolder", /cannot contain/],
		[{ exportFolder: "Exports?" }, "exportFolder", /cannot contain/],
		[{ exportFolder: "AI [exports]" }, "exportFolder", /cannot contain/],
		[{ exportFolder: "AI\u0007" }, "exportFolder", /control characters/],
	])("%j is reported on %s", (patch, field, message) => {
		const issues = validateSettings({ ...DEFAULT_SETTINGS, ...patch });
		const issue = issues.find((i) => i.field === field);
		expect(issue?.message).toMatch(message);
		// Messages are sentence case: a capital first letter, a full stop last.
		expect(issue?.message).toMatch(/^[A-Z].*\.$/);
	});

	it("accepts ordinary folder paths, hidden ones and stray slashes included", () => {
		for (const folder of ["Discover/Chats", "/AI/Chats/", "AI\\Chats", "Notizen/KI-Gespräche", "日記/チャット", ".discover", "Chats (old)", "a.b/c"]) {
			expect(fieldsOf({ ...DEFAULT_SETTINGS, sessionsFolder: folder, exportFolder: folder })).toEqual([]);
		}
	});

	it("names the other field of a cross-field rule", () => {
		const [issue] = validateSettings({ ...DEFAULT_SETTINGS, minRecentMessagesToKeep: 9 });
		expect(issue).toMatchObject({ field: "minRecentMessagesToKeep", related: "recentMessagesToKeep" });
	});

	it("accepts the smallest valid budget", () => {
		const s = { ...DEFAULT_SETTINGS, maxPromptTokens: 1024, reservedResponseTokens: 1024 - LIMITS.promptRoom, recentMessagesToKeep: 1, minRecentMessagesToKeep: 1 };
		expect(fieldsOf(s)).toEqual([]);
	});
});

const budgetArb = fc.record({
	maxPromptTokens: fc.oneof(fc.integer({ min: -10, max: 300_000 }), fc.double({ noNaN: false })),
	reservedResponseTokens: fc.oneof(fc.integer({ min: -10, max: 300_000 }), fc.double({ noNaN: false })),
	recentMessagesToKeep: fc.oneof(fc.integer({ min: -2, max: 1200 }), fc.double({ noNaN: false })),
	minRecentMessagesToKeep: fc.oneof(fc.integer({ min: -2, max: 1200 }), fc.double({ noNaN: false })),
});

describe("validation properties", () => {
	it("any settings it accepts have reserved < max with room for a prompt, and 1 ≤ min ≤ keep", () => {
		fc.assert(
			fc.property(budgetArb, (budget) => {
				const s = { ...DEFAULT_SETTINGS, ...budget };
				if (validateSettings(s).length > 0) return;
				expect(Number.isInteger(s.maxPromptTokens) && Number.isInteger(s.reservedResponseTokens)).toBe(true);
				expect(s.reservedResponseTokens).toBeLessThan(s.maxPromptTokens);
				expect(s.maxPromptTokens - s.reservedResponseTokens).toBeGreaterThanOrEqual(LIMITS.promptRoom);
				expect(s.minRecentMessagesToKeep).toBeGreaterThanOrEqual(1);
				expect(s.minRecentMessagesToKeep).toBeLessThanOrEqual(s.recentMessagesToKeep);
			}),
			{ numRuns: 2000 },
		);
	});

	it("sanitizeSettings always returns valid settings and keeps every field that was valid on its own", () => {
		fc.assert(
			fc.property(budgetArb, fc.string(), fc.constantFrom("http://h:1", "nope", "https://x.org/v1"), (budget, folder, baseUrl) => {
				const input = { ...DEFAULT_SETTINGS, ...budget, sessionsFolder: folder, baseUrl };
				const { settings, reset } = sanitizeSettings(input);
				expect(validateSettings(settings)).toEqual([]);
				const resetFields = new Set(reset.map((r) => r.field));
				// maxPromptTokens and recentMessagesToKeep are never reset because of another field.
				if (validateSettings({ ...DEFAULT_SETTINGS, maxPromptTokens: input.maxPromptTokens }).length === 0) {
					expect(settings.maxPromptTokens).toBe(input.maxPromptTokens);
				}
				if (validateSettings({ ...DEFAULT_SETTINGS, recentMessagesToKeep: input.recentMessagesToKeep, minRecentMessagesToKeep: 1 }).length === 0) {
					expect(settings.recentMessagesToKeep).toBe(input.recentMessagesToKeep);
				}
				for (const key of Object.keys(input) as (keyof DiscoverSettings)[]) {
					if (!resetFields.has(key) && key !== "minRecentMessagesToKeep") expect(settings[key]).toEqual(input[key]);
				}
			}),
			{ numRuns: 1000 },
		);
	});
});
