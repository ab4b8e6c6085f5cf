// What a turn's tool results may take in the chat file: 2 MB of text in all. Each result is
// already fitted to its share of the prompt, but a large window and many rounds can still add up
// to megabytes of saved text; past the limit, a result is saved cut, with a note saying so.

import { utf8Length as utf8Bytes } from "../sessions/fileText";

/** The most UTF-8 bytes of tool results one turn saves. */
export const MAX_TURN_RESULT_BYTES = 2 * 1024 * 1024;

/** Ends a result cut at the turn's limit (and stands for one that had no room left at all). */
export const TURN_RESULTS_CUT_NOTE =
	"[Result cut: this message's tool results reached their limit of 2 MB. Ask for less at once (one section of a note, a line range, fewer notes), or answer with what you have.]";

const NOTE_BYTES = TURN_RESULTS_CUT_NOTE.length + 1;

/** The longest start of `text` within `limit` UTF-8 bytes, never ending inside a character. */
function headWithin(text: string, limit: number): string {
	if (limit <= 0) return "";
	const room = new Uint8Array(limit);
	const { read } = new TextEncoder().encodeInto(text, room);
	return text.slice(0, read);
}

/** One turn's running total: what each result may still take of the limit. */
export class TurnResultBytes {
	private used = 0;

	constructor(private readonly limit = MAX_TURN_RESULT_BYTES) {}

	/**
	 * The result as saved: whole while the turn's results stay within the limit; else what is left
	 * of it, cut at a character, then the note (only the note once nothing is left). A result no
	 * longer than the note (a "not run" error, a denial) is kept whole: the note would be no shorter,
	 * and a call always gets a result that says what happened. So a turn saves at most the limit
	 * plus one note's length a call.
	 */
	take(text: string): string {
		const size = utf8Bytes(text);
		if (this.used + size <= this.limit) {
			this.used += size;
			return text;
		}
		if (size <= NOTE_BYTES) return text;
		const head = headWithin(text, this.limit - this.used);
		this.used = this.limit;
		return head === "" ? TURN_RESULTS_CUT_NOTE : `${head}\n${TURN_RESULTS_CUT_NOTE}`;
	}
}
