// Budgets per model: a model's own fields over the general ones, never a combination the settings'
// checks refuse; saved data keeps well-formed per-model budgets and drops damaged ones; a window the
// server reports is saved as the chat's model's own context size, other models keeping theirs.
import { describe, expect, it } from "vitest";
import { budgetFor, clearModelBudget, setModelBudget } from "../../src/settings/budgetFor";
import { DEFAULT_SETTINGS, validateSettings, type DiscoverSettings } from "../../src/settings/settings";
import { migrateSettings } from "../../src/settings/migration";
import { useReportedWindow, windowOffer } from "../../src/ui/panel/windowOffer";

const settings = (over: Partial<DiscoverSettings> = {}): DiscoverSettings => ({ ...DEFAULT_SETTINGS, maxPromptTokens: 8192, reservedResponseTokens: 1024, ...over });

describe("budgets per model", () => {
	it("a model's own fields win; the others and other models follow the general settings", () => {
		const s = settings({ modelBudgets: { "qwen3:8b": { maxPromptTokens: 32768, recentMessagesToKeep: 40 } } });
		expect(budgetFor(s, "qwen3:8b")).toEqual({ maxPromptTokens: 32768, reservedResponseTokens: 1024, recentMessagesToKeep: 40, minRecentMessagesToKeep: s.minRecentMessagesToKeep });
		expect(budgetFor(s, "llama3.2").maxPromptTokens).toBe(8192);
		expect(budgetFor(s, " qwen3:8b ").maxPromptTokens).toBe(32768);
	});

	it("a model's budget the settings' checks refuse is not used: the general one is", () => {
		const s = settings({ modelBudgets: { tiny: { maxPromptTokens: 1024, reservedResponseTokens: 4000 } } });
		expect(budgetFor(s, "tiny").maxPromptTokens).toBe(8192);
	});

	it("set and clear keep the other models' budgets", () => {
		const s = settings();
		setModelBudget(s, "a", { maxPromptTokens: 4096 });
		setModelBudget(s, "b", { maxPromptTokens: 16384 });
		setModelBudget(s, "a", { reservedResponseTokens: 512 });
		clearModelBudget(s, "b");
		expect(s.modelBudgets).toEqual({ a: { maxPromptTokens: 4096, reservedResponseTokens: 512 } });
		expect(validateSettings(s)).toEqual([]);
	});

	it("saved data keeps well-formed budgets and drops a damaged list with a warning", () => {
		const good = migrateSettings({ ...DEFAULT_SETTINGS, modelBudgets: { m: { maxPromptTokens: 4096 } } });
		expect(good.settings.modelBudgets).toEqual({ m: { maxPromptTokens: 4096 } });
		expect(good.warnings).toEqual([]);
		const bad = migrateSettings({ ...DEFAULT_SETTINGS, modelBudgets: { m: { maxPromptTokens: "big" } } });
		expect(bad.settings.modelBudgets).toEqual({});
		expect(bad.warnings).toHaveLength(1);
		// Data from before the field loads with none.
		const { modelBudgets: _none, ...older } = DEFAULT_SETTINGS;
		expect(migrateSettings(older).settings.modelBudgets).toEqual({});
	});

	it("a window the server reports is saved for the chat's model, the general size untouched", async () => {
		const host = { settings: settings({ modelBudgets: { other: { maxPromptTokens: 65536 } } }), saveSettings: () => Promise.resolve() };
		expect(windowOffer(host.settings, 4096, "llama3.2").action).toBeDefined();
		await useReportedWindow(host, 4096, "llama3.2");
		expect(host.settings.maxPromptTokens).toBe(8192);
		expect(host.settings.modelBudgets).toEqual({ other: { maxPromptTokens: 65536 }, "llama3.2": { maxPromptTokens: 4096 } });
		expect(budgetFor(host.settings, "llama3.2").maxPromptTokens).toBe(4096);
	});
});
