import type { SlashCommand } from "./slashCommands";
import type { ImageRef } from "../../core/types";

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
