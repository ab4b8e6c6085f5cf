// How well the calibrated estimate has predicted this chat's own prompts. The learned margin
// (safetyMargin.ts, followMargin.ts) covers the spread of leave-one-out ratios over every kept
// prompt; a prompt unlike the rest — a chat's first, the whole note with much of a script this
// tokenizer splits finely — keeps that spread wide although the estimates made for the prompts that
// followed it were right within a few percent (seen on llama.cpp: 0.96–1.04 from the second answer,
// while the margin held 15% back). Once AGREEMENTS_TO_CLEAR prompts in a row of the same chat were
// predicted (estimated before their count) within the margin they were sent with, the next prompt
// of that chat needs no more than those predictions' own spread: the margin comes back to what the
// agreement supports.
import { AGREEMENTS_TO_CLEAR, FEW_SAMPLES_EXTRA, marginFromTail, TAIL_CONSTANT, type MarginRecord, type SafetyMargin } from "./safetyMargin";

/** Predictions remembered per model: the recent ones say how the next will go. */
export const AGREEMENT_WINDOW = 8;
/**
 * The few-samples allowance over the highest prediction, divided by (predictions + 1): half the
 * learned margin's (FEW_SAMPLES_EXTRA), as these are true out-of-sample errors of this very chat,
 * not leave-one-out ratios of prompts of any shape. A prompt that still goes past it eats a few
 * tokens of the answer's room first; a refusal is recovered by the retry and ends the agreement.
 */
export const AGREEMENT_EXTRA = FEW_SAMPLES_EXTRA / 2;

interface Run {
	chat: string;
	/** Server's count ÷ the calibrated estimate made before it, oldest first, all in `chat`, in a row. */
	ratios: number[];
}

/** Per model, the run of predictions in its current chat; in memory only (a restart starts afresh). */
export class ChatPredictions {
	private readonly runs = new Map<string, Run>();

	/**
	 * A prompt of `chat` the server counted at `ratio` times its calibrated estimate. `follows`: the
	 * model's previous counted prompt was in the same chat; otherwise the run starts over.
	 */
	add(model: string, chat: string | undefined, follows: boolean, ratio: number): void {
		if (chat === undefined || !Number.isFinite(ratio) || ratio <= 0) {
			this.runs.delete(model);
			return;
		}
		const run = this.runs.get(model);
		if (!follows || run === undefined || run.chat !== chat) {
			this.runs.set(model, { chat, ratios: [ratio] });
			return;
		}
		run.ratios.push(ratio);
		if (run.ratios.length > AGREEMENT_WINDOW) run.ratios.splice(0, run.ratios.length - AGREEMENT_WINDOW);
	}

	/** The recent predictions of `chat`'s prompts, when that chat's run is the model's current one. */
	of(model: string, chat: string | undefined): readonly number[] {
		const run = this.runs.get(model);
		return chat !== undefined && run?.chat === chat ? run.ratios : [];
	}

	delete(model: string): void {
		this.runs.delete(model);
	}
}

/**
 * The margin the chat's recent predictions support, once AGREEMENTS_TO_CLEAR of them agree (each
 * within `agreed`, the highest ratio the margins they were sent with allowed); undefined before.
 */
export function agreedMargin(ratios: readonly number[], agreed: number, record: MarginRecord | undefined): SafetyMargin | undefined {
	const recent = ratios.slice(-AGREEMENTS_TO_CLEAR);
	if (recent.length < AGREEMENTS_TO_CLEAR || recent.some((r) => r > agreed)) return undefined;
	const tail = Math.max(...ratios) + TAIL_CONSTANT + AGREEMENT_EXTRA / (ratios.length + 1);
	return marginFromTail(tail, ratios.length, record);
}
