// The share of the window held back for the estimator's error, per model. Before a provider has
// reported any prompt count it is the estimator's worst case (ESTIMATOR_WORST_RATIO); once counts
// come in it covers the spread actually seen for that model: the highest recent ratio (reported ÷
// estimate) over the calibration factor, plus a small constant that is larger while there are few
// observations. A prompt the server refused anyway (a surprise) holds the margin at least that wide
// for the next SURPRISE_ANSWERS answers.
import { ESTIMATOR_WORST_RATIO } from "./tokens";

export interface SafetyMargin {
	/** The share of the prompt budget held back, 0..1 (0.04 = 4%). */
	share: number;
	/** The share that may be used: `1 - share`, the factor safeBudget applies. */
	keep: number;
	/** Answers with a prompt count this margin was learned from (0: the default margin). */
	answers: number;
}

/** Per model, persisted with the calibration beside its ratios. */
export interface MarginRecord {
	/** Answers that reported a prompt count, ever (the ratios keep only the recent ones). */
	answers: number;
	/** The last surprise: server's count ÷ the engine's estimate of a prompt it refused. */
	surprise?: number;
	/** `answers` when that surprise happened. */
	surpriseAt?: number;
	/**
	 * Answers in a row since the surprise whose server count the margin would have covered without
	 * it (calibrated estimate ÷ keep ≥ count). At AGREEMENTS_TO_CLEAR the surprise is over.
	 */
	agreeing?: number;
}

/** Never less than this is held back: reports come after the fact, and the next prompt differs. */
export const MIN_MARGIN = 0.02;
/** Never more: past this the estimate, not the margin, is what is wrong. */
export const MAX_MARGIN = 0.5;
/** Added to the tail of the spread, above what was seen. */
export const TAIL_CONSTANT = 0.01;
/** With few observations the tail is a guess: this much more, divided by (observations + 1). */
export const FEW_SAMPLES_EXTRA = 0.1;
/** How long a surprise keeps the margin wide, in answers. */
export const SURPRISE_ANSWERS = 20;
/**
 * Answers in a row that agree with the server again (calibrated estimates within what the margin
 * without the surprise covers) that end a surprise early. A refusal on a tokenizer never seen is
 * corrected by calibration within two answers; holding the margin wide for SURPRISE_ANSWERS after
 * that cost a third of a 2k window for 20 answers, on a tokenizer the estimator had never seen.
 */
export const AGREEMENTS_TO_CLEAR = 3;
/** A refusal without the server's count: taken as this much more than the margin allowed. */
export const UNCOUNTED_SURPRISE = 1.05;

/** Today's margin, before any usage data: exactly ESTIMATOR_WORST_RATIO is kept. */
export const DEFAULT_MARGIN: SafetyMargin = { share: 1 - ESTIMATOR_WORST_RATIO, keep: ESTIMATOR_WORST_RATIO, answers: 0 };

function fromShare(share: number, answers: number): SafetyMargin {
	const clamped = Math.min(MAX_MARGIN, Math.max(MIN_MARGIN, share));
	return { share: clamped, keep: 1 - clamped, answers };
}

/**
 * The margin from a model's recent ratios (reported ÷ raw estimate) and its factor. Prompts are
 * fitted to `budget × keep` estimated tokens; a prompt whose ratio is `r` counts `r / factor`
 * times its estimate on the server, so keeping `1 / tail` holds every ratio seen so far.
 */
export function learnedMargin(ratios: readonly number[], factor: number, record: MarginRecord | undefined): SafetyMargin {
	if (ratios.length === 0 || !(factor > 0)) return marginFromTail(undefined, 0, record);
	const tail = Math.max(...ratios) / factor + TAIL_CONSTANT + FEW_SAMPLES_EXTRA / (ratios.length + 1);
	return marginFromTail(tail, ratios.length, record);
}

/**
 * The margin that keeps `1 / tail` of the budget (tail: the highest ratio of the server's count to
 * the calibrated estimate to allow for, constants included), learned from `observed` answers, held
 * wider by a recent surprise. Without a tail: the default margin (surprises still widen it).
 */
export function marginFromTail(tail: number | undefined, observed: number, record: MarginRecord | undefined): SafetyMargin {
	const surprise = activeSurprise(record);
	const margin = tail === undefined || !Number.isFinite(tail) ? DEFAULT_MARGIN : fromShare(1 - 1 / tail, Math.max(record?.answers ?? 0, observed));
	return surprise === undefined ? margin : fromShare(Math.max(margin.share, 1 - 1 / (surprise + TAIL_CONSTANT)), margin.answers);
}

function activeSurprise(record: MarginRecord | undefined): number | undefined {
	if (record?.surprise === undefined) return undefined;
	if ((record.agreeing ?? 0) >= AGREEMENTS_TO_CLEAR) return undefined;
	return record.answers - (record.surpriseAt ?? record.answers) < SURPRISE_ANSWERS ? record.surprise : undefined;
}

/**
 * The surprise recorded when a prompt of `estimated` (calibrated) tokens, sent within `current`,
 * was refused: the server's count over the estimate, or, without a count, a little more than the
 * margin allowed. Always above `1 / current.keep`, so the next margin is wider than `current`.
 */
export function surpriseOf(current: SafetyMargin, estimated: number, reported: number | undefined): number {
	const allowed = 1 / current.keep;
	const counted = reported !== undefined && estimated > 0 ? reported / estimated : 0;
	return Math.max(counted, allowed * UNCOUNTED_SURPRISE);
}

/** Reads a persisted record; undefined when damaged. */
export function parseMarginRecord(raw: unknown): MarginRecord | undefined {
	if (typeof raw !== "object" || raw === null) return undefined;
	const { answers, surprise, surpriseAt, agreeing } = raw as Record<string, unknown>;
	if (typeof answers !== "number" || !Number.isInteger(answers) || answers < 0 || answers > 1e9) return undefined;
	const record: MarginRecord = { answers };
	if (typeof surprise === "number" && Number.isFinite(surprise) && surprise >= 1 && surprise <= 10) {
		record.surprise = surprise;
		record.surpriseAt = typeof surpriseAt === "number" && Number.isInteger(surpriseAt) && surpriseAt >= 0 && surpriseAt <= answers ? surpriseAt : answers;
		if (typeof agreeing === "number" && Number.isInteger(agreeing) && agreeing > 0 && agreeing <= answers - record.surpriseAt) record.agreeing = agreeing;
	}
	return record;
}
