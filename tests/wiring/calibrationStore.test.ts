import { afterEach, describe, expect, it, vi } from "vitest";
import type { App } from "obsidian";
import { parseCalibrationData } from "../../src/chat/calibration";
import { persistedCalibration } from "../../src/wiring/calibrationStore";
import { testSettings } from "../ui/fakes";

afterEach(() => {
	vi.useRealTimers();
});

function host(calibration?: unknown) {
	const settings = testSettings({ calibration });
	return {
		app: {} as App,
		settings,
		saves: [] as unknown[],
		saveSettings(): Promise<void> {
			this.saves.push(structuredClone(this.settings.calibration));
			return Promise.resolve();
		},
	};
}

describe("token calibration in settings", () => {
	it("starts from what settings.calibration holds", () => {
		const h = host({ version: 1, models: { llama: [1.2, 1.2, 1.2] } });
		const { calibration } = persistedCalibration(h);
		expect(calibration.samples("llama")).toBe(3);
		expect(calibration.factor("llama")).toBeCloseTo(1.2);
	});

	it("ignores damaged data instead of failing", () => {
		const { calibration } = persistedCalibration(host("not calibration"));
		expect(calibration.factor("llama")).toBe(1);
	});

	it("keeps each change in settings at once and saves a burst once, after a pause", async () => {
		vi.useFakeTimers();
		const h = host();
		const { calibration } = persistedCalibration(h, 2000);
		calibration.observe("llama", 1000, 1100);
		calibration.observe("llama", 1000, 1150);
		expect(parseCalibrationData(h.settings.calibration).models.llama).toEqual([1.1, 1.15]);
		await vi.advanceTimersByTimeAsync(1999);
		expect(h.saves).toHaveLength(0);
		calibration.observe("llama", 1000, 1200);
		await vi.advanceTimersByTimeAsync(1999);
		expect(h.saves).toHaveLength(0);
		await vi.advanceTimersByTimeAsync(1);
		expect(h.saves).toHaveLength(1);
		expect(parseCalibrationData(h.saves[0]).models.llama).toEqual([1.1, 1.15, 1.2]);
	});

	it("flush writes a pending change at once, and only once", async () => {
		vi.useFakeTimers();
		const h = host();
		const persisted = persistedCalibration(h, 2000);
		await persisted.flush();
		expect(h.saves).toHaveLength(0);
		persisted.calibration.observe("llama", 1000, 1300);
		await persisted.flush();
		expect(h.saves).toHaveLength(1);
		await vi.advanceTimersByTimeAsync(5000);
		expect(h.saves).toHaveLength(1);
		// A later session reads back what was learned.
		expect(persistedCalibration(host(h.saves[0])).calibration.factor("llama")).toBeCloseTo(1.3);
	});

	it("a save that fails is tried again on flush", async () => {
		vi.useFakeTimers();
		const h = host();
		let failures = 1;
		const save = h.saveSettings.bind(h);
		h.saveSettings = () => (failures-- > 0 ? Promise.reject(new Error("disk busy")) : save());
		const persisted = persistedCalibration(h, 2000);
		persisted.calibration.observe("llama", 1000, 1100);
		await vi.advanceTimersByTimeAsync(2000);
		expect(h.saves).toHaveLength(0);
		await persisted.flush();
		expect(h.saves).toHaveLength(1);
	});
});
