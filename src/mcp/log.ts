// A server's log: its notifications/message and stderr lines, the newest MAX_LOG_LINES kept. A
// server that floods it costs a bounded ring, never more.
import { MAX_LOG_LINE_CHARS, MAX_LOG_LINES } from "./protocol";

export interface LogLine {
	/** ms since the epoch */
	at: number;
	/** The MCP logging level ("info", "error"…), or "stderr" / "stdout" for a process's output. */
	level: string;
	text: string;
}

export class ServerLog {
	private readonly lines: LogLine[] = [];
	private start = 0;
	private dropped = 0;

	constructor(
		private readonly max = MAX_LOG_LINES,
		private readonly now: () => number = Date.now,
	) {}

	add(level: string, text: string): void {
		const cut = text.length > MAX_LOG_LINE_CHARS ? `${text.slice(0, MAX_LOG_LINE_CHARS)}… [line cut]` : text;
		const line = { at: this.now(), level: level.slice(0, 20), text: cut };
		if (this.lines.length < this.max) {
			this.lines.push(line);
			return;
		}
		this.lines[this.start] = line;
		this.start = (this.start + 1) % this.max;
		this.dropped++;
	}

	/** Oldest first. */
	all(): LogLine[] {
		return [...this.lines.slice(this.start), ...this.lines.slice(0, this.start)];
	}

	/** Lines dropped to keep the newest `max`. */
	get droppedCount(): number {
		return this.dropped;
	}
}
