// Per-model correction of the token estimate, learned from the prompt-token counts providers
// report. Models use different tokenizers (and chat templates), so one heuristic cannot be right for
// all of them; the ratio reported/estimated can be learned in a few turns. The same ratios give the
// model's safety margin (safetyMargin.ts): how much of the window to hold back for the estimate's error.

import { calibrationDataOf, isModelName, isRatio, MAX_MODELS, parseCalibrationData, storedRatio, upperMedian, WINDOW, type CalibrationData } from "./calibrationData";
import { agreedMargin, ChatPredictions } from "./chatAgreement";
import { chatMargin } from "./followMargin";
import { isLowOutlier, LowOutlierStreaks } from "./lowOutliers";
import { AGREEMENTS_TO_CLEAR, learnedMargin, surpriseOf, type MarginRecord, type SafetyMargin } from "./safetyMargin";
import { fitScriptFactors, parseScriptObservation, scriptEstimate, scriptRatios, SCRIPT_WINDOW, type ScriptObservation } from "./scriptCalibration";

// The persisted form moved to calibrationData.ts; importers of this module keep their names.
export { CALIBRATION_VERSION, parseCalibrationData, type CalibrationData } from "./calibrationData";

export interface TokenCalibrationOptions {
	data?: CalibrationData;
	/** Called after every accepted observation, with the data to persist. */
	onChange?: (data: CalibrationData) => void;
}

/** The factor never leaves this range, whatever a provider reports. */
export const MIN_FACTOR = 0.5;
export const MAX_FACTOR = 2.5;
/** Tiny prompts carry framing noise larger than the text itself. */
const MIN_ESTIMATE = 16;

function clamp(x: number, lo: number, hi: number): number {
	return x < lo ? lo : x > hi ? hi : x;
}

export class TokenCalibration {
	private readonly ratios = new Map<string, number[]>();
	private readonly margins = new Map<string, MarginRecord>();
	private readonly scripts = new Map<string, ScriptObservation[]>();
	/** Per-script factors fitted from `scripts`, until the next observation. */
	private readonly fitted = new Map<string, number[]>();
	/** The chat of each model's last script observation, in memory only (a restart starts afresh). */
	private readonly lastChat = new Map<string, string>();
	private readonly lowStreaks = new LowOutlierStreaks();
	/** How well each model's current chat was predicted, in memory only. */
	private readonly predictions = new ChatPredictions();
	private readonly onChange: ((data: CalibrationData) => void) | undefined;

	constructor(opts: TokenCalibrationOptions = {}) {
		this.onChange = opts.onChange;
		// Typed as CalibrationData, but it comes from disk: validate anyway.
		const data = parseCalibrationData(opts.data);
		for (const [model, ratios] of Object.entries(data.models)) this.ratios.set(model, ratios);
		for (const [model, record] of Object.entries(data.margins ?? {})) this.margins.set(model, { ...record });
		for (const [model, list] of Object.entries(data.scripts ?? {})) this.scripts.set(model, list);
	}

	/** Builds a calibration from untrusted persisted JSON; damaged data is ignored. */
	static fromJSON(raw: unknown, onChange?: (data: CalibrationData) => void): TokenCalibration {
		return new TokenCalibration({ data: parseCalibrationData(raw), onChange });
	}

	/** Multiply raw estimates for `model` by this. 1 for a model never observed. */
	factor(model: string): number {
		const ratios = this.ratios.get(model);
		if (!ratios || ratios.length === 0) return 1;
		return clamp(upperMedian(ratios), MIN_FACTOR, MAX_FACTOR);
	}

	/**
	 * The share of the prompt budget to hold back for `model`: today's default until it has
	 * reported a prompt count, then learned from its ratios and surprises (safetyMargin.ts). `chat`:
	 * the chat the prompt is for; when the model's last counted prompt was in that chat, the margin
	 * follows that prompt's error (followMargin.ts).
	 */
	margin(model: string, chat?: string, record: MarginRecord | undefined = this.margins.get(model)): SafetyMargin {
		const learned = this.learnedMargin(model, chat, record);
		// The chat's own recent prompts, predicted well, support a narrower one (chatAgreement.ts).
		const agreed = agreedMargin(this.predictions.of(model, chat), 1 / learned.keep, record);
		return agreed !== undefined && agreed.share < learned.share ? agreed : learned;
	}

	private learnedMargin(model: string, chat: string | undefined, record: MarginRecord | undefined): SafetyMargin {
		const factors = this.scriptFactors(model);
		const observations = this.scripts.get(model);
		// With per-script factors the spread is what remains around them, not the whole script swing.
		if (factors !== undefined && observations !== undefined) {
			const ratios = scriptRatios(observations, factors, this.factor(model));
			const follows = chat !== undefined && this.lastChat.get(model) === chat;
			return chatMargin(ratios, observations, follows, record);
		}
		return learnedMargin(this.ratios.get(model) ?? [], this.factor(model), record);
	}

	/** The calibrated estimate of a prompt (raw estimate `raw`, split as `groups`) as the engine makes it now: per script when the split is known. */
	private predicted(model: string, raw: number, groups: readonly number[] | undefined): number {
		const factors = this.scriptFactors(model);
		return factors !== undefined && groups !== undefined && groups.length === factors.length ? scriptEstimate(groups, factors) : raw * this.factor(model);
	}

	/**
	 * After a surprise, whether a prompt the server counted at `reported` would have fitted the
	 * margin without the surprise, as the engine estimated it before this count (its calibrated
	 * estimate, per script when the split is known). Counted in a row, such answers end the surprise.
	 */
	private agrees(model: string, raw: number, reported: number, groups: readonly number[] | undefined, chat: string | undefined, record: MarginRecord): boolean {
		const estimate = this.predicted(model, raw, groups);
		if (!(estimate > 0)) return false;
		const plain: MarginRecord = { answers: record.answers };
		return reported <= estimate / this.margin(model, chat, plain).keep;
	}

	/**
	 * One more answer after a surprise, agreeing with the server or not. At AGREEMENTS_TO_CLEAR in a
	 * row the surprise is over and forgotten: a later count that misses is the learned margin's to
	 * cover (its ratios hold it), not a reason to bring back a refusal the calibration has corrected.
	 */
	private judgeSurprise(record: MarginRecord, agreed: boolean): void {
		record.agreeing = agreed ? (record.agreeing ?? 0) + 1 : 0;
		if (record.agreeing < AGREEMENTS_TO_CLEAR) return;
		delete record.surprise;
		delete record.surpriseAt;
		delete record.agreeing;
	}

	/** The per-script calibrated estimate of a prompt split as `groups`, with its count; undefined before per-script factors or without a split. */
	private scriptExpected(model: string, groups: readonly number[] | undefined, reported: number): { estimate: number; reported: number; observations: number } | undefined {
		const factors = this.scriptFactors(model);
		if (factors === undefined || groups === undefined || groups.length !== factors.length) return undefined;
		return { estimate: scriptEstimate(groups, factors), reported, observations: this.scripts.get(model)?.length ?? 0 };
	}

	/**
	 * A factor per script group (tokenFast.ts's SCRIPT_GROUPS) for `model`, once it has reported a
	 * count of a prompt whose split was known; undefined before (the single factor applies).
	 */
	scriptFactors(model: string): number[] | undefined {
		const observations = this.scripts.get(model);
		if (observations === undefined || observations.length === 0 || !this.ratios.has(model)) return undefined;
		let factors = this.fitted.get(model);
		if (factors === undefined) {
			factors = fitScriptFactors(observations, this.factor(model));
			this.fitted.set(model, factors);
		}
		return factors;
	}

	/**
	 * A prompt of `calibratedEstimate` tokens (as the engine estimated it when sending) that the
	 * server refused as too long, with its count when the server gave one, and the chat it was sent
	 * in: the margin widens at once.
	 */
	surprise(model: string, calibratedEstimate: number, reportedPromptTokens: number | undefined, chat?: string): void {
		if (!isModelName(model)) return;
		if (!Number.isFinite(calibratedEstimate) || calibratedEstimate <= 0) return;
		const reported = reportedPromptTokens !== undefined && Number.isFinite(reportedPromptTokens) && reportedPromptTokens > 0 ? reportedPromptTokens : undefined;
		const record = this.marginRecord(model);
		// Wider than the margin the refused prompt was sent with (its chat's).
		const surprise = surpriseOf(this.margin(model, chat), calibratedEstimate, reported);
		record.surprise = Math.min(10, Math.round(surprise * 10000) / 10000 + 0.0001);
		record.surpriseAt = record.answers;
		delete record.agreeing;
		// Records of models without ratios are not saved; in memory they stay few.
		for (const name of this.margins.keys()) {
			if (this.margins.size <= MAX_MODELS * 2) break;
			if (name !== model && !this.ratios.has(name)) this.margins.delete(name);
		}
		this.onChange?.(this.toJSON());
	}

	private marginRecord(model: string): MarginRecord {
		let record = this.margins.get(model);
		if (record === undefined) {
			record = { answers: this.ratios.get(model)?.length ?? 0 };
			this.margins.set(model, record);
		}
		return record;
	}

	/** Number of ratios currently learned for `model`. */
	samples(model: string): number {
		return this.ratios.get(model)?.length ?? 0;
	}

	/**
	 * Learns from one response: `estimatedPromptTokens` is the raw (uncalibrated) estimate of the
	 * prompt that was sent, `reportedPromptTokens` what the provider counted, `chat` the chat it
	 * was sent in (any stable name; kept in memory only).
	 */
	observe(model: string, estimatedPromptTokens: number, reportedPromptTokens: number, groups?: readonly number[], chat?: string): void {
		if (!isModelName(model)) return;
		if (!Number.isFinite(estimatedPromptTokens) || !Number.isFinite(reportedPromptTokens)) return;
		if (estimatedPromptTokens < MIN_ESTIMATE || reportedPromptTokens <= 0) return;
		const ratio = reportedPromptTokens / estimatedPromptTokens;
		if (!isRatio(ratio)) return;

		const ratios = this.ratios.get(model) ?? [];
		// Taken before the ratio joins, so an old file's record starts from the ratios it had.
		const record = this.marginRecord(model);
		if (isLowOutlier(ratios, ratio, this.scriptExpected(model, groups, reportedPromptTokens))) {
			this.lastChat.delete(model);
			this.predictions.delete(model);
			if (!this.acceptLowStreak(model, ratio)) return;
		} else {
			this.lowStreaks.delete(model);
			// Judged before this count teaches the calibration anything.
			const estimate = this.predicted(model, estimatedPromptTokens, groups);
			this.predictions.add(model, chat, chat !== undefined && this.lastChat.get(model) === chat, estimate > 0 ? reportedPromptTokens / estimate : NaN);
			if (record.surprise !== undefined) this.judgeSurprise(record, this.agrees(model, estimatedPromptTokens, reportedPromptTokens, groups, chat, record));
			ratios.push(storedRatio(ratio));
			if (ratios.length > WINDOW) ratios.splice(0, ratios.length - WINDOW);
			this.remember(model, ratios);
			this.fitted.delete(model);
			this.observeScripts(model, groups, reportedPromptTokens, chat);
		}
		record.answers++;
		this.onChange?.(this.toJSON());
	}

	private observeScripts(model: string, groups: readonly number[] | undefined, reported: number, chat: string | undefined): void {
		const follows = chat !== undefined && this.lastChat.get(model) === chat;
		const observation = parseScriptObservation({ groups: groups?.map((g) => Math.round(g * 100) / 100), reported, follows });
		// Only a kept observation can be followed: a gap breaks the chain.
		if (chat === undefined || observation === undefined) this.lastChat.delete(model);
		else this.lastChat.set(model, chat);
		if (observation === undefined) return;
		const list = this.scripts.get(model) ?? [];
		list.push(observation);
		if (list.length > SCRIPT_WINDOW) list.splice(0, list.length - SCRIPT_WINDOW);
		this.scripts.set(model, list);
		this.fitted.delete(model);
	}

	/** Records a low outlier; true when a consistent streak of them replaced the window. */
	private acceptLowStreak(model: string, ratio: number): boolean {
		const streak = this.lowStreaks.add(model, ratio);
		if (streak === undefined) return false;
		// The model changed: what its scripts cost before no longer holds.
		this.scripts.delete(model);
		this.fitted.delete(model);
		this.remember(model, streak);
		return true;
	}

	/** Stores `ratios` as the most recently used model, forgetting the oldest beyond the cap. */
	private remember(model: string, ratios: number[]): void {
		this.ratios.delete(model);
		this.ratios.set(model, ratios);
		while (this.ratios.size > MAX_MODELS) {
			const oldest = this.ratios.keys().next().value;
			if (oldest === undefined) break;
			this.ratios.delete(oldest);
			this.lowStreaks.delete(oldest);
			this.margins.delete(oldest);
			this.scripts.delete(oldest);
			this.lastChat.delete(oldest);
			this.predictions.delete(oldest);
			this.fitted.delete(oldest);
		}
	}

	toJSON(): CalibrationData {
		const models = [...this.ratios].map(([model, ratios]): [string, number[]] => [model, [...ratios]]);
		const margins = [...this.margins].filter(([model]) => this.ratios.has(model)).map(([model, record]) => [model, { ...record }] as const);
		const scripts = [...this.scripts].filter(([model, list]) => this.ratios.has(model) && list.length > 0).map(([model, list]) => [model, list.map((o) => ({ groups: [...o.groups], reported: o.reported, ...(o.follows ? { follows: true as const } : {}) }))] as const);
		return calibrationDataOf(models, margins, scripts);
	}
}

/**
 * The calibrated estimate of a text from the estimator's unrounded value (`fine`), rounded to the
 * nearest token (at least 1 for any text). Rounding up a value that was rounded up already, once
 * per line of a note, overstated a note by 12% at a factor of 1.1 (6% uncalibrated): prompts
 * were cut well short of their budget. Rounded to nearest, line sums stay within 2% of the whole.
 */
export function calibratedTokens(fine: number, factor: number): number {
	return fine <= 0 ? 0 : Math.max(1, Math.round(fine * factor));
}

/** `raw` corrected for `model`, rounded up; `raw` itself without a calibration. */
export function calibratedEstimate(cal: TokenCalibration | undefined, model: string, raw: number): number {
	if (!cal) return raw;
	return Math.ceil(raw * cal.factor(model));
}
