// The calibration's persisted form and its limits: what a file may hold, and how damaged or foreign
// data is read back without losing the parts that are still good (calibration.ts learns from it).

import { parseMarginRecord, type MarginRecord } from "./safetyMargin";
import { parseScriptObservation, SCRIPT_WINDOW, type ScriptObservation } from "./scriptCalibration";

/** Persisted form: plain JSON, versioned, bounded in size. */
export interface CalibrationData {
	version: 1;
	/** Model name → recent reported/estimated ratios, oldest first. */
	models: Record<string, number[]>;
	/**
	 * Model name → what its safety margin learned beyond the ratios (answers counted, the last
	 * surprise). Optional: files written before margins were learned have none, and still load.
	 */
	margins?: Record<string, MarginRecord>;
	/**
	 * Model name → recent prompts' estimates split by script group with the server's count, for
	 * per-script factors (scriptCalibration.ts). Optional: older files have none, and still load.
	 */
	scripts?: Record<string, ScriptObservation[]>;
}

export const CALIBRATION_VERSION = 1;
/** Ratios kept per model: enough for a robust median, few enough to follow a change of model. */
export const WINDOW = 20;
/** Models remembered; the least recently observed is forgotten first. */
export const MAX_MODELS = 32;
const MAX_MODEL_NAME = 200;
/** Ratios outside this range are not tokenizer differences but broken reports. */
const MIN_RATIO = 0.2;
const MAX_RATIO = 5;

export function isModelName(model: string): boolean {
	return model.length > 0 && model.length <= MAX_MODEL_NAME;
}

export function isRatio(x: unknown): x is number {
	return typeof x === "number" && Number.isFinite(x) && x >= MIN_RATIO && x <= MAX_RATIO;
}

/** The upper median: with an even count it leans towards overestimating, the safe side. */
export function upperMedian(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? 1;
}

/** A ratio as stored: four decimals keep the file small and lose nothing a median could use. */
export function storedRatio(ratio: number): number {
	return Math.round(ratio * 10000) / 10000;
}

/**
 * The data to persist; margins and scripts only when there are some. fromEntries defines own
 * properties, so a model named "__proto__" stays plain data.
 */
export function calibrationDataOf(
	models: Iterable<readonly [string, number[]]>,
	margins: readonly (readonly [string, MarginRecord])[],
	scripts: readonly (readonly [string, ScriptObservation[]])[],
): CalibrationData {
	const data: CalibrationData = { version: CALIBRATION_VERSION, models: Object.fromEntries(models) };
	if (margins.length > 0) data.margins = Object.fromEntries(margins);
	if (scripts.length > 0) data.scripts = Object.fromEntries(scripts);
	return data;
}

/** `raw[model]` when `raw` is an object holding it as its own property (never an inherited one). */
function ownEntry(raw: unknown, model: string): unknown {
	if (typeof raw !== "object" || raw === null || !Object.prototype.hasOwnProperty.call(raw, model)) return undefined;
	return (raw as Record<string, unknown>)[model];
}

/** Reads persisted data, dropping whatever is damaged or from an unknown version. Never throws. */
export function parseCalibrationData(raw: unknown): CalibrationData {
	const empty: CalibrationData = { version: CALIBRATION_VERSION, models: {} };
	if (typeof raw !== "object" || raw === null) return empty;
	const { version, models } = raw as { version?: unknown; models?: unknown };
	if (version !== CALIBRATION_VERSION || typeof models !== "object" || models === null) return empty;
	const kept: [string, number[]][] = [];
	for (const [model, ratios] of Object.entries(models as Record<string, unknown>)) {
		if (!isModelName(model) || !Array.isArray(ratios)) continue;
		const valid = ratios.filter(isRatio).slice(-WINDOW);
		if (valid.length > 0) kept.push([model, valid]);
	}
	const recent = kept.slice(-MAX_MODELS);
	const rawMargins = (raw as { margins?: unknown }).margins;
	const margins: [string, MarginRecord][] = [];
	for (const [model] of recent) {
		const record = parseMarginRecord(ownEntry(rawMargins, model));
		if (record !== undefined) margins.push([model, record]);
	}
	const rawScripts = (raw as { scripts?: unknown }).scripts;
	const scripts: [string, ScriptObservation[]][] = [];
	for (const [model] of recent) {
		const list = ownEntry(rawScripts, model);
		if (!Array.isArray(list)) continue;
		const valid = list.flatMap((o) => parseScriptObservation(o) ?? []).slice(-SCRIPT_WINDOW);
		if (valid.length > 0) scripts.push([model, valid]);
	}
	return calibrationDataOf(recent, margins, scripts);
}
