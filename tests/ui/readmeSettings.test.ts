// @vitest-environment happy-dom
// The README documents every setting the person can change, in the order the settings tab shows
// them (read from the real tab), and every command the plugin registers.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, FIELD_LABELS, type DiscoverSettings } from "../../src/settings/settings";
import { t } from "../../src/i18n";
import { loadPlugin } from "../obsidian/harness";
import DiscoverPlugin from "../../src/main";
import { openSettingTab } from "./settingTabHarness";
import { ROOT } from "../lint/sourceGraph";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");

/** Kept in data.json by the plugin itself, never shown as a setting. */
const INTERNAL = new Set<keyof DiscoverSettings>(["agentApprovals", "activeSessionId", "calibration", "settingsVersion"]);

/** The README's Settings table: each row's setting name, in order. */
function readmeSettingRows(): string[] {
	const start = readme.indexOf("## Settings");
	const table = readme.slice(start, readme.indexOf("\n## ", start + 3));
	return table
		.split("\n")
		.filter((l) => l.startsWith("| ") && !l.startsWith("| Setting") && !l.startsWith("| ---"))
		.map((l) => (l.split("|")[1] ?? "").trim().replace(/ \(`\w+`\)$/, ""));
}

describe("the README's settings and commands", () => {
	it("documents every setting, with its stored name", () => {
		const fields = (Object.keys(DEFAULT_SETTINGS) as (keyof DiscoverSettings)[]).filter((f) => !INTERNAL.has(f));
		expect(fields.length).toBeGreaterThan(20);
		const missing = fields.filter((f) => !readme.includes(`${FIELD_LABELS[f]} (\`${f}\`)`));
		expect(missing).toEqual([]);
	});

	it("lists them in the order the settings tab shows them", async () => {
		const { el } = await openSettingTab();
		const documented = new Set(readmeSettingRows());
		// Model prices are drawn as one row per model, then "Add a model's prices": that row marks their place.
		const asDocumented = (name: string): string => (name === t("settings.priceAddName") ? FIELD_LABELS.modelPrices : name);
		const inTab = el.findAll(".setting-item-name").map((n) => asDocumented(n.getText())).filter((name) => documented.has(name));
		const seen = inTab.filter((name, i) => inTab.indexOf(name) === i);
		expect(seen.length).toBeGreaterThan(20);
		expect(readmeSettingRows().filter((name) => seen.includes(name))).toEqual(seen);
		// Every row of the table is a setting the tab shows (or a documented list the tab shows empty).
		const notShown = readmeSettingRows().filter((name) => !seen.includes(name));
		expect(notShown).toEqual([]);
	});

	it("documents every command the plugin registers", async () => {
		const { app } = await loadPlugin(DiscoverPlugin, { data: {} });
		const names = [...app.commands.commands.values()].map((c) => c.name.replace(/^Discover: /, ""));
		expect(names.length).toBeGreaterThan(5);
		const missing = names.filter((name) => !readme.includes(`| ${name} |`));
		expect(missing).toEqual([]);
		expect(readme).toContain(t("command.openChat"));
	});
});
