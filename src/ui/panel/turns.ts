import type { ChatMessage, ImageRef } from "../../core/types";
import type { ChatPort, SendOptions } from "../ports";
import type { SlashCommand } from "./slashCommands";

/** One message on its way to the model, and how it was asked for. */
export interface Turn {
	text: string;
	includeHistory: boolean;
	/** Whether to attach the note (or selection) as it is when the turn is sent. */
	withContext: boolean;
	/** Commands always send the whole note, never a selection. */
	wholeNote: boolean;
	/** The turn came from the input (not Retry), so the input is cleared when it goes out. */
	fromInput: boolean;
	/** false: no tools for this turn whatever the chat's switch says (slash commands). */
	tools?: boolean;
	/** Images attached in the composer, already saved as files. */
	images?: ImageRef[];
	/**
	 * Runs the turn instead of sending `text` as a new message (regenerate, edit, continue): it
	 * streams, stops and fails like any turn. Absent: `sendMessage(text)`.
	 */
	run?: (chat: ChatPort, options: SendOptions) => Promise<ChatMessage>;
	/**
	 * The text was never saved (no model, stopped or refused before it was): puts it back where the
	 * person wrote it (an edit: its box) and says true, or false when that place is gone (then the
	 * input takes it). Absent: the input's own rules apply (`fromInput`).
	 */
	giveBack?: (text: string) => boolean;
	/** The text is on record already (a regenerated or continued answer's question): a failure never puts it back in the input. */
	onRecord?: boolean;
}

/** What the person typed: with the conversation and the note (or selection). */
export function typedTurn(text: string, images?: ImageRef[]): Turn {
	const turn: Turn = { text, includeHistory: true, withContext: true, wholeNote: false, fromInput: true };
	if (images !== undefined && images.length > 0) turn.images = images;
	return turn;
}

/** A `/` command: the whole note and deliberately no history (and no tools), so the answer is about the note alone. */
export function commandTurn(command: SlashCommand): Turn {
	return { text: command.prompt, includeHistory: false, withContext: true, wholeNote: true, fromInput: true, tools: false };
}

/** The same turn again (Retry): whatever is in the input now stays there. */
export function retryTurn(turn: Turn): Turn {
	return { ...turn, fromInput: false };
}
