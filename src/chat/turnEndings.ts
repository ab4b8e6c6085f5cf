import type { Session, ChatMessage } from "../core/types";
import { settlesWithin, untilAborted } from "../core/abortable";
import type { AnswerCheckpoint } from "./answerCheckpoint";
import type { AnswerExtras } from "./streamedAnswer";
import type { TurnRecorder } from "./turnRecorder";

/** How long a stopped turn waits for its partial answer to be saved before it ends anyway. */
const STOPPED_SAVE_WAIT_MS = 100;

/**
 * How a turn ends in the chat's file: a whole answer, or a stopped one. It also keeps the answers
 * still being saved after their turn ended (a store that is slow or hangs), for flush.
 */
export class TurnEndings {
	private readonly saving = new Set<Promise<void>>();

	constructor(private readonly recorder: TurnRecorder) {}

	/** A whole answer: shown at once; a Stop while it is being saved stops the wait, not the save. */
	/** `cut`: why the answer is not whole (saved as its error, shown with it). */
	async answered(session: Session, content: string, thought: AnswerExtras, signal: AbortSignal, checkpoint?: AnswerCheckpoint, cut?: string): Promise<ChatMessage> {
		const { message, saved } = this.recorder.answer(session, content, false, { signal, keep: true }, thought, { checkpoint, ...(cut === undefined ? {} : { failure: cut }) });
		this.track(saved);
		await untilAborted(saved, signal).catch(() => undefined);
		return message;
	}

	/**
	 * A stopped answer: kept with what was shown. Its save is waited for briefly, so Stop ends the
	 * turn at once even when the store hangs; the save still lands (flush waits for it longer).
	 */
	async stopped(session: Session, partial: string, thought: AnswerExtras = {}, checkpoint?: AnswerCheckpoint): Promise<ChatMessage> {
		const letGo = new AbortController();
		const { message, saved } = this.recorder.answer(session, partial, true, { signal: letGo.signal, keep: true }, thought, { checkpoint });
		this.track(saved);
		if (!(await settlesWithin(saved, STOPPED_SAVE_WAIT_MS))) letGo.abort();
		return message;
	}

	/** A save that may outlive its turn. */
	track(saved: Promise<void>): void {
		this.saving.add(saved);
		void saved.finally(() => this.saving.delete(saved));
	}

	/** Waits (at most `ms`) for the answers still being saved. */
	async settled(ms: number): Promise<void> {
		if (this.saving.size > 0) await settlesWithin(Promise.all(this.saving), ms);
	}
}
