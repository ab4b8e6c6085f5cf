// Before the first send of a model the calibration has never seen, ask the server to count a prompt
// (where it can: llama.cpp, Anthropic; providers/promptCount.ts). Without it the first prompt is
// fitted by the estimator alone, which on a tokenizer it was never tuned on under-counts by up to
// 4× (Hebrew on a Qwen2-like vocabulary): llama.cpp refused the first turn of every such chat, and
// the refusal held the margin wide long after. The count is a calibration point like any answer's
// usage, so the first send is already fitted by the server's own measure.
//
// What is counted is this turn's prompt without history: the instructions, the sources fitted to
// the budget as the estimator sees them today, and the person's message. The history is left out:
// fitting it may need a summary, which is a model call, and the sources are most of a first prompt.
import { compactionBudget } from "./compaction";
import type { TokenCalibration } from "./calibration";
import type { EstimateFn } from "./promptCost";
import { buildPrompt } from "./prompt";
import type { ScriptSplits } from "./scriptSplits";
import type { SourceFitter } from "./sourceFitter";
import { usageObservation } from "./usageObservation";
import type { ChatSettings, ContextSource, LLMAdapter } from "../core/types";

export interface FirstCountInput {
	adapter: LLMAdapter;
	calibration: TokenCalibration | undefined;
	model: string;
	settings: ChatSettings;
	text: string;
	document: { context?: string; contextName?: string; sources?: readonly ContextSource[] };
	/** The model's estimator as it is before any count (the raw one). */
	estimate: EstimateFn;
	rawEstimate: EstimateFn;
	splits: ScriptSplits;
	fitter: SourceFitter;
	margin: number;
	signal: AbortSignal;
}

/** True when a send for `model` would go out with no count of it yet, and the adapter can ask for one. */
export function needsFirstCount(adapter: LLMAdapter, calibration: TokenCalibration | undefined, model: string): boolean {
	return calibration !== undefined && adapter.countPromptTokens !== undefined && model.trim() !== "" && calibration.samples(model) === 0;
}

/**
 * Counts this turn's prompt with the server and teaches the calibration the count. Returns the
 * count (undefined when the server could not say in time, or none was needed). Never throws: a
 * count is an improvement, not a step a turn depends on.
 */
export async function countFirstPrompt(input: FirstCountInput): Promise<number | undefined> {
	const { adapter, calibration, model, settings } = input;
	if (!needsFirstCount(adapter, calibration, model) || input.signal.aborted) return undefined;
	try {
		const context = input.document.context !== undefined && input.document.context !== "" ? { text: input.document.context, name: input.document.contextName } : undefined;
		const built = buildPrompt({
			systemPrompt: settings.systemPrompt,
			context,
			sources: input.document.sources,
			fitter: input.fitter,
			history: [],
			current: input.text,
			budget: compactionBudget(settings, input.margin).prompt,
			estimate: input.estimate,
		});
		const counted = await adapter.countPromptTokens?.({ purpose: "chat", messages: built.messages, maxTokens: settings.reservedResponseTokens, contextWindow: settings.maxPromptTokens, signal: input.signal });
		if (counted === undefined || input.signal.aborted) return undefined;
		const point = usageObservation(built.messages, [], model, counted, input.rawEstimate, input.splits);
		if (point !== undefined) calibration?.observe(model, point.estimate, point.reported, point.groups);
		return counted;
	} catch (err) {
		console.error("Discover: counting the first prompt failed", err);
		return undefined;
	}
}
