import { createParser, type EventSourceMessage, type EventSourceParser } from "eventsource-parser";

/**
 * Server-sent events, via eventsource-parser (CRLF, comments, leading blank lines, fields split
 * across chunks). Events are handed over after each `feed` returns, so a handler that throws never
 * leaves the parser half-way through a chunk.
 */
export class SseReader {
	private readonly parser: EventSourceParser;
	private readonly pending: EventSourceMessage[] = [];
	/** Lines that are not SSE at all (a server writing a bare JSON error, for instance). */
	private readonly strayLines: string[] = [];

	constructor() {
		this.parser = createParser({
			onEvent: (event) => this.pending.push(event),
			onError: (error) => {
				if (error.type === "unknown-field" && error.line !== undefined) this.strayLines.push(error.line);
			},
		});
	}

	push(text: string, onEvent: (event: EventSourceMessage) => void, onStrayLine: (line: string) => void): void {
		this.parser.feed(text);
		this.drain(onEvent, onStrayLine);
	}

	/** The stream ended: a last event without its blank line still counts. */
	end(onEvent: (event: EventSourceMessage) => void, onStrayLine: (line: string) => void): void {
		this.parser.reset({ consume: true });
		this.drain(onEvent, onStrayLine);
	}

	private drain(onEvent: (event: EventSourceMessage) => void, onStrayLine: (line: string) => void): void {
		while (this.strayLines.length > 0) onStrayLine(this.strayLines.shift() ?? "");
		while (this.pending.length > 0) {
			const event = this.pending.shift();
			if (event) onEvent(event);
		}
	}
}
