import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, sanitizeSettings, validateSettings, type DiscoverSettings } from "../../src/settings/settings";
import { migrateSettings } from "../../src/settings/migration";

const issuesFor = (value: unknown): string[] => validateSettings({ ...DEFAULT_SETTINGS, indexNoteLimitMb: value } as DiscoverSettings).filter((i) => i.field === "indexNoteLimitMb").map((i) => i.message);

describe("the per-note index size limit setting", () => {
	it("defaults to 4 MB, what the index used before it was a setting", () => {
		expect(DEFAULT_SETTINGS.indexNoteLimitMb).toBe(4);
	});

	it("accepts 1 to 256 MB, fractions too, and says what to enter otherwise", () => {
		for (const ok of [1, 2.5, 4, 256]) expect(issuesFor(ok)).toEqual([]);
		for (const bad of [0, 0.5, 257, NaN, Infinity, "4", null]) expect(issuesFor(bad)).toEqual(["Enter a size from 1 to 256 megabytes."]);
	});

	it("a damaged saved value falls back to the default; the other settings are kept", () => {
		const { settings, reset } = sanitizeSettings({ ...DEFAULT_SETTINGS, indexNoteLimitMb: -3, model: "kept" });
		expect(settings.indexNoteLimitMb).toBe(4);
		expect(settings.model).toBe("kept");
		expect(reset.map((r) => r.field)).toEqual(["indexNoteLimitMb"]);
	});
});

describe("saved settings from before the limit was a setting", () => {
	it("load with the default limit and no warning", () => {
		const saved: Record<string, unknown> = { ...DEFAULT_SETTINGS };
		delete saved.indexNoteLimitMb;
		const { settings, warnings } = migrateSettings(saved);
		expect(settings.indexNoteLimitMb).toBe(4);
		expect(warnings).toEqual([]);
	});
});
