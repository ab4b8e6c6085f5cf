import { debounce } from "obsidian";
import { TokenCalibration } from "../chat/calibration";
import type { DiscoverHost } from "../ui/host";

/** Calibration changes after every answer; data.json is written at most once per pause this long. */
export const CALIBRATION_SAVE_DELAY_MS = 2000;

export interface PersistedCalibration {
	calibration: TokenCalibration;
	/** Writes a pending change now (the panel is closing). */
	flush: () => Promise<void>;
}

/**
 * The engine's token calibration, loaded from `settings.calibration` and kept there: each change
 * goes into the settings at once and is saved after a pause, so a burst of answers writes once.
 */
export function persistedCalibration(host: DiscoverHost, delayMs = CALIBRATION_SAVE_DELAY_MS): PersistedCalibration {
	let pending = false;
	const save = async (): Promise<void> => {
		if (!pending) return;
		pending = false;
		try {
			await host.saveSettings();
		} catch {
			// The next change or the panel's close tries again; the data is in the settings meanwhile.
			pending = true;
		}
	};
	const saveLater = debounce(() => void save(), delayMs, true);
	const calibration = TokenCalibration.fromJSON(host.settings.calibration, (data) => {
		host.settings.calibration = data;
		pending = true;
		saveLater();
	});
	return {
		calibration,
		flush: () => {
			saveLater.cancel();
			return save();
		},
	};
}
