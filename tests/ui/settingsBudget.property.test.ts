// @vitest-environment happy-dom
// Whatever a person types into the budget inputs, in any order, what is saved is always valid,
// and a value that is valid together with what is saved is saved at once.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asObsidianApp, flush, loadPlugin, readPluginDataText, showSettingTab, typeInto } from "../obsidian/harness";
import DiscoverPlugin from "../../src/main";
import { FIELD_LABELS, validateSettings, type DiscoverSettings } from "../../src/settings/settings";
import { DiscoverSettingTab } from "../../src/ui/settings/SettingTab";
import { BUDGET_FIELDS, type BudgetField } from "../../src/ui/settings/settingsBudget";

const typed = fc.oneof(
	fc.integer({ min: -100, max: 200_000 }).map(String),
	fc.constantFrom("", "abc", "1.5", "1e4", " 2048 ", "64", "1024", "512"),
);
const edit = fc.record({ field: fc.constantFrom(...BUDGET_FIELDS), text: typed });

const budgetValid = (s: DiscoverSettings): boolean => validateSettings(s).every((i) => !(BUDGET_FIELDS as readonly string[]).includes(i.field));

describe("budget inputs (property)", () => {
	it("never save an invalid budget, and save each value that fits at once", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 12 }), async (edits) => {
				const { plugin, app } = await loadPlugin(DiscoverPlugin);
				const tab = new DiscoverSettingTab(asObsidianApp(app), plugin, () => Promise.reject(new Error("offline")));
				showSettingTab(tab);
				const inputs = new Map<BudgetField, HTMLInputElement>();
				for (const field of BUDGET_FIELDS) {
					const input = tab.containerEl.find(`input[aria-label="${FIELD_LABELS[field]}"]`);
					if (!input?.instanceOf(HTMLInputElement)) throw new Error(`no input for ${field}`);
					inputs.set(field, input);
				}
				for (const { field, text } of edits) {
					const before = { ...plugin.settings };
					const value = text.trim() === "" ? Number.NaN : Number(text);
					const fitsAlone = budgetValid({ ...before, [field]: value });
					typeInto(inputs.get(field) as HTMLInputElement, text);
					await flush();
					expect(budgetValid(plugin.settings)).toBe(true);
					if (fitsAlone) expect(plugin.settings[field]).toBe(value);
					const saved = await readPluginDataText(app);
					if (saved !== null) expect(budgetValid(JSON.parse(saved) as DiscoverSettings)).toBe(true);
				}
				tab.hide();
				plugin.unload();
			}),
			{ numRuns: 60 },
		);
	});
});
