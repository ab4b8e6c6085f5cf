import { LLMError } from "./errors";
import { createParser, type EventSourceMessage, type EventSourceParser } from "eventsource-parser";

export const MAX_EVENT_SIZE = 16 * 1024 * 1024;

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
	private overflowed = false;

	constructor() {
		this.parser = createParser({
			// A server that never ends an event must not exhaust memory.
			maxBufferSize: MAX_EVENT_SIZE,
			onEvent: (event) => this.pending.push(event),
			onError: (error) => {
				if (error.type === "unknown-field" && error.line !== undefined) this.strayLines.push(error.line);
				if (error.type === "max-buffer-size-exceeded") this.overflowed = true;
			},
		});
	}

	push(text: string, onEvent: (event: EventSourceMessage) => void, onStrayLine: (line: string) => void): void {
		this.parser.feed(text);
		if (this.overflowed) throw new LLMError("protocol", `The server sent an event of more than ${MAX_EVENT_SIZE} characters without ending it.`);
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
