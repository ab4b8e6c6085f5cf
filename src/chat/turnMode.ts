import type { PreparedHistory } from "./turnPrompt";
import type { ChatMessage, PromptMessage } from "../core/types";

/**
 * What a turn does besides answering a new message: open a branch first (regenerate, edit), answer
 * a message already saved again (regenerate), or go on with a stopped answer (continue).
 */
export interface TurnMode {
	/**
	 * Runs after the message is checked, before it is saved: opens the branch the turn goes to and
	 * returns the person's message to answer again, or undefined to save `text` as a new message there.
	 */
	open?: () => Promise<ChatMessage | undefined>;
	/** The person's message was saved (a new one, or the one answered again): from here on nothing they wrote can be lost. */
	recorded?: (user: ChatMessage) => void;
	/** The stopped or interrupted answer this turn goes on with: its text is kept and the continuation appended. */
	continues?: ChatMessage;
}

/**
 * Sent after the partial answer. The continuation is appended to the same answer rather than saved
 * as a message of its own: the person asked one question and gets one answer, the next prompt
 * holds it once, and providers that want user and assistant turns to alternate (Anthropic) never
 * see two answers in a row.
 */
export const CONTINUE_INSTRUCTION = "Your answer above was cut off. Continue it exactly where it stopped, without repeating anything you already wrote.";

/** The history with the partial answer (when the tail does not hold it already) and the instruction after it. */
export function continuationOf(prepared: PreparedHistory, answer: ChatMessage): PreparedHistory {
	const after: PromptMessage[] = [...prepared.after];
	const last = after[after.length - 1];
	if (last === undefined || last.role !== "assistant" || last.content !== answer.content) after.push({ role: "assistant", content: answer.content });
	after.push({ role: "user", content: CONTINUE_INSTRUCTION });
	return { ...prepared, after };
}
