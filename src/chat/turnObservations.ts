import type { OverflowReport } from "../providers/overflowReport";
import type { ChatSettings, ToolSpec } from "../core/types";
import { PromptCountGuard, type PromptCountInput } from "./cacheCounts";
import type { TokenCalibration } from "./calibration";
import type { BuiltPrompt } from "./prompt";
import type { EstimateFn } from "./promptCost";
import type { ScriptSplits } from "./scriptSplits";
import { silentPromptCutNotice } from "./silentPromptCut";
import type { ChatEvent } from "./turnPrompt";
import { usageObservation } from "./usageObservation";

export interface TurnObservationsOptions {
	calibration: TokenCalibration | undefined;
	/** Raw (uncalibrated) estimates: what calibration points are measured against. */
	rawEstimate: EstimateFn;
	/** Estimates split by script group (shared with the runner's estimators). */
	groups: ScriptSplits;
	onEvent: (event: ChatEvent) => void;
}

/**
 * What a turn's requests teach the token calibration: the server's count of an answered prompt,
 * of a refused one, and a refusal as too long. A calibration that fails to save never fails a turn.
 */
export class TurnObservations {
	/** Which servers' prompt counts leave a cached part out (cacheCounts.ts). */
	private readonly promptCounts = new PromptCountGuard();
	private readonly calibration: TokenCalibration | undefined;
	private readonly rawEstimate: EstimateFn;
	private readonly groups: ScriptSplits;
	private readonly onEvent: (event: ChatEvent) => void;

	constructor(opts: TurnObservationsOptions) {
		this.calibration = opts.calibration;
		this.rawEstimate = opts.rawEstimate;
		this.groups = opts.groups;
		this.onEvent = opts.onEvent;
	}

	/** The whole prompt's count, or none when the server's count may have left a cached part out. */
	wholePrompt(model: string, usage: PromptCountInput["usage"], prompt: BuiltPrompt): number | undefined {
		return this.promptCounts.whole(model, { usage, messages: prompt.messages, expected: prompt.estimatedTokens, rawEstimate: this.rawEstimate });
	}

	/**
	 * A prompt refused as too long: the model's margin widens at once. Not when the server named a
	 * window smaller than the configured one: that refusal says the setting is wrong, not the estimate.
	 */
	surprise(model: string, settings: ChatSettings, failed: BuiltPrompt, report: OverflowReport, chatId: string): void {
		if (report.window !== undefined && report.window < settings.maxPromptTokens) return;
		try {
			this.calibration?.surprise(model, failed.estimatedTokens, report.promptTokens, chatId);
		} catch (err) {
			console.error("Discover: token calibration failed", err);
		}
	}

	/** The server's count of a prompt it refused, against our raw estimate of it: a calibration point. */
	overflow(model: string, failed: BuiltPrompt, tools: readonly ToolSpec[], report: OverflowReport, chatId: string): void {
		if (report.promptTokens === undefined) return;
		try {
			const point = usageObservation(failed.messages, tools, model, report.promptTokens, this.rawEstimate, this.groups);
			if (point !== undefined) this.calibration?.observe(model, point.estimate, point.reported, point.groups, chatId);
		} catch (err) {
			console.error("Discover: token calibration failed", err);
		}
	}

	/** An answered prompt's count: a calibration point, and a warning when the server cut the prompt silently. */
	usage(model: string, settings: ChatSettings, prompt: BuiltPrompt, tools: readonly ToolSpec[], reported: number | undefined, chatId: string): void {
		if (reported === undefined || !Number.isFinite(reported) || reported <= 0) return;
		try {
			// With the definitions the request carried (or the ratio reads them as a larger factor).
			const point = usageObservation(prompt.messages, tools, model, reported, this.rawEstimate, this.groups);
			if (point !== undefined) this.calibration?.observe(model, point.estimate, point.reported, point.groups, chatId);
		} catch (err) {
			// Calibration refines later estimates; failing to save it must not fail an answered turn.
			console.error("Discover: token calibration failed", err);
		}
		const warning = silentPromptCutNotice(prompt.estimatedTokens, reported, settings.maxPromptTokens);
		if (warning !== undefined) this.onEvent({ type: "warning", ...warning });
	}
}
