import type { ChatMessage } from "../../core/types";
import type { Composer } from "./Composer";
import { diagnose } from "./errorDiagnosis";
import type { MessageList } from "./MessageList";
import type { DiagnosableAdapter } from "../ports";
import { t } from "../../i18n";
import { connectionText } from "../engine/connectionText";

export interface FailedTurn {
	err: unknown;
	text: string;
	/** A command's request: not the person's words, so never put back into the input. */
	wholeNote: boolean;
	/** Sends the same turn again. */
	retry: () => void;
	/** What to do about it, in place of the diagnosis's advice (the provider's words stay under Details). */
	detail?: string;
	/** Puts unsent text back where it was written (an edit's box) instead of the input. */
	giveBack?: () => void;
}

export interface FailureScene {
	list: MessageList;
	composer: Composer;
	/** The chat's messages after the failure, to tell whether the question was saved. */
	messages: readonly ChatMessage[];
	adapter: DiagnosableAdapter | undefined;
}

/**
 * What a failed turn leaves on screen: the diagnosis inline, Retry when sending again can help,
 * text the engine never recorded back in the input, and a connection check where the connection
 * may be the cause.
 */
export function showTurnFailure(scene: FailureScene, turn: FailedTurn): void {
	const diagnosed = diagnose(turn.err);
	const diagnosis = turn.detail === undefined ? diagnosed : { ...diagnosed, detail: turn.detail, probeConnection: false };
	const last = scene.messages[scene.messages.length - 1];
	// A question is on record when it is the last message, or followed only by its cut-off answer.
	const question = last?.role === "assistant" && last.error !== undefined ? scene.messages[scene.messages.length - 2] : last;
	const recorded = question?.role === "user" && question.content === turn.text;
	// Not a word is lost: unsent text goes back, ahead of anything typed while it was on its way.
	if ((diagnosis.unsent || !recorded) && turn.giveBack) turn.giveBack();
	else if ((diagnosis.unsent || !recorded) && !turn.wholeNote) {
		const draft = scene.composer.value;
		if (draft !== turn.text) scene.composer.setValue(draft.trim() === "" ? turn.text : `${turn.text}\n\n${draft}`);
	}
	const view = scene.list.showError(diagnosis, recorded || turn.wholeNote ? turn.retry : undefined);
	const adapter = scene.adapter;
	if (diagnosis.probeConnection && adapter?.testConnection) {
		view.setProbe(t("probe.checking"));
		adapter.testConnection().then(
			(d) => view.setProbe(d.ok ? t("probe.answersNow") : connectionText(d).text),
			() => view.setProbe(""),
		);
	}
}
