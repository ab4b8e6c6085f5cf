import { LLMError } from "./errors";

export const MAX_LINE_LENGTH = 16 * 1024 * 1024;


/**
 * Splits streamed text into lines. Keeps the unfinished tail until its newline arrives, so a line
 * split across chunks is never parsed in pieces. Tolerates CRLF.
 */
export class LineSplitter {
	private tail = "";

	/** A line longer than this is an error: a server that never sends a newline must not exhaust memory. */
	constructor(private readonly maxLineLength = MAX_LINE_LENGTH) {}

	push(text: string, onLine: (line: string) => void): void {
		const data = this.tail + text;
		let start = 0;
		for (let nl = data.indexOf("\n", start); nl !== -1; nl = data.indexOf("\n", start)) {
			const end = nl > start && data.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
			onLine(data.slice(start, end));
			start = nl + 1;
		}
		this.tail = data.slice(start);
		if (this.tail.length > this.maxLineLength) throw new LLMError("protocol", `The server sent a line of more than ${this.maxLineLength} characters without ending it.`);
	}

	/** Hands over a last line that ended without a newline. */
	end(onLine: (line: string) => void): void {
		const last = this.tail.endsWith("\r") ? this.tail.slice(0, -1) : this.tail;
		this.tail = "";
		if (last) onLine(last);
	}
}
