// The terminal chat's answer as it streams, with whole lines in between: a tool card or a write's
// diff and question always start on a line of their own, and the answer's text after them starts
// again behind "discover> ".
import { StreamingWordWrap } from "./wordWrap";

export const ANSWER_PREFIX = "discover> ";

export class AnswerPrinter {
	private readonly wrap: StreamingWordWrap;
	/** Whether a line of the answer is open (the prefix written, no line end yet). */
	private open = false;
	/** Whether the open line has answer text after its prefix. */
	private written = false;

	/** `canErase`: the output is a terminal, where a bare prefix can be taken back ("\r", erase line). */
	constructor(
		private readonly write: (text: string) => void,
		width: () => number,
		private readonly canErase = false,
	) {
		this.wrap = new StreamingWordWrap(write, width, ANSWER_PREFIX.length);
	}

	/** Starts the answer's first line. */
	begin(): void {
		this.write(ANSWER_PREFIX);
		this.wrap.restart(ANSWER_PREFIX.length);
		this.open = true;
		this.written = false;
	}

	/** Answer text; after a whole line, it starts on a new prefixed line. */
	text(delta: string): void {
		if (!this.open) this.begin();
		if (delta !== "") this.written = true;
		this.wrap.push(delta);
	}

	/** A whole line between pieces of the answer (the open answer line is ended first). */
	line(text: string): void {
		this.close();
		this.write(`${text}\n`);
	}

	/** Text that was shown as the answer turned out to be thinking: say so and start again. */
	retracted(): void {
		this.line("(that was the model's thinking)");
		this.begin();
	}

	/** Ends the open answer line, if any. */
	close(): void {
		if (!this.open) return;
		this.wrap.end();
		// A prefix with nothing after it (a tool call came first) is taken back where it can be.
		this.write(!this.written && this.canErase ? "\r\x1b[K" : "\n");
		this.open = false;
	}
}
