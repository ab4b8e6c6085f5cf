// Newline-delimited messages from a byte stream (MCP's stdio framing), with a bound: a line longer
// than the limit is not held; its first and last few kilobytes are kept so the caller can tell whose
// answer it was, the rest is dropped until its newline.
const EDGE_CHARS = 4096;

export type LineEvent = { kind: "line"; text: string } | { kind: "oversized"; chars: number; head: string; tail: string };

export class LineSplitter {
	private parts: string[] = [];
	private length = 0;
	private skipping = false;
	private skipped = 0;
	private head = "";
	private tail = "";

	constructor(private readonly maxChars: number) {}

	/** Feeds decoded text; returns the complete lines (without "\n", a trailing "\r" dropped). */
	push(text: string): LineEvent[] {
		const out: LineEvent[] = [];
		let from = 0;
		for (;;) {
			const nl = text.indexOf("\n", from);
			const piece = nl < 0 ? text.slice(from) : text.slice(from, nl);
			this.take(piece);
			if (nl < 0) break;
			out.push(this.finish());
			from = nl + 1;
		}
		return out;
	}

	/** The stream ended: a last line without its newline still counts. */
	end(): LineEvent[] {
		return this.length > 0 || this.skipping ? [this.finish()] : [];
	}

	private take(piece: string): void {
		if (piece === "") return;
		if (this.skipping) {
			this.skipped += piece.length;
			this.tail = (this.tail + piece).slice(-EDGE_CHARS);
			return;
		}
		if (this.length + piece.length > this.maxChars) {
			const held = this.parts.join("") + piece;
			this.head = held.slice(0, EDGE_CHARS);
			this.tail = held.slice(-EDGE_CHARS);
			this.skipped = held.length;
			this.parts = [];
			this.length = 0;
			this.skipping = true;
			return;
		}
		this.parts.push(piece);
		this.length += piece.length;
	}

	private finish(): LineEvent {
		if (this.skipping) {
			const event: LineEvent = { kind: "oversized", chars: this.skipped, head: this.head, tail: this.tail };
			this.skipping = false;
			this.skipped = 0;
			this.head = "";
			this.tail = "";
			return event;
		}
		let text = this.parts.join("");
		this.parts = [];
		this.length = 0;
		if (text.endsWith("\r")) text = text.slice(0, -1);
		return { kind: "line", text };
	}
}
