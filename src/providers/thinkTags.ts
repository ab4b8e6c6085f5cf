// Local reasoning models served without a reasoning parser (DeepSeek-R1 distills, Qwen3, QwQ on
// LM Studio, llama.cpp or vLLM) write their thinking into the answer text between <think> tags.
//
// The policy, decided once per answer:
// - An answer that opens with `<think>` (leading whitespace allowed) is thinking up to the first
//   `</think>`; the rest is the answer. Both are streamed as they arrive; only a possible tag's
//   first characters and trailing whitespace wait for the next chunk.
// - An answer that opens with anything else streams as answer text at once: nothing waits. Many
//   chat templates emit the opening tag themselves (the model starts inside its thinking), so the
//   first `</think>` that arrives re-classifies everything before it as thinking: the listener is
//   told to retract the text streamed so far, which then arrives as thinking. That `</think>` is
//   taken literally instead when the text before it shows it is written about, not emitted:
//   a `<think>` came before it, it sits in inline code or a code block. Only the first one counts.
// - After the first `</think>`, or once the server sends its own thinking field, every tag is text.
//   `<thinking>`, `<think >`, and `<think>` later in an answer are text as written.

const OPEN = "<think>";
const CLOSE = "</think>";

/** Where the split stream goes. */
export interface ThinkTagSink {
	text(delta: string): void;
	thinking(delta: string): void;
	/** Everything passed to `text` so far was thinking: forget it; it arrives through `thinking` next. */
	retract(): void;
}

type State =
	/** Nothing but whitespace and a possible `<think>` yet. */
	| "start"
	/** Inside `<think>`, looking for `</think>`. */
	| "thinking"
	/** Just after `</think>`: the answer's leading whitespace is dropped. */
	| "answerStart"
	/** An answer that did not open with `<think>`, watching for a `</think>` that re-classifies it. */
	| "watching"
	/** Plain text to the end. */
	| "plain";

/** The longest end of `text` that could be the start of `tag` (but is not all of it). */
function partialTagAtEnd(text: string, tag: string): number {
	for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
		if (tag.startsWith(text.slice(text.length - n))) return n;
	}
	return 0;
}

/** True when a `</think>` after `before` is written about rather than emitted by the template. */
function closeTagIsLiteral(before: string): boolean {
	if (before.includes(OPEN)) return true;
	if (before.endsWith("`")) return true;
	// An odd number of fences: the tag is inside a code block.
	return (before.split("```").length - 1) % 2 === 1;
}

/** Splits one answer's text stream into thinking and answer, across any chunk boundaries. */
export class ThinkTagSplitter {
	private state: State = "start";
	/** Text held until the next chunk decides it (whitespace, a tag's first characters). */
	private held = "";
	/** Everything streamed while watching, for re-classification. */
	private watched: string[] = [];
	private watchedLength = 0;
	/** The last characters streamed while watching: a `</think>` may straddle two chunks. */
	private tail = "";
	private thinkingStarted = false;
	private textStreamed = false;

	constructor(private readonly sink: ThinkTagSink) {}

	push(delta: string): void {
		if (delta === "") return;
		switch (this.state) {
			case "start":
				this.onStart(delta);
				break;
			case "thinking":
				this.onThinking(delta);
				break;
			case "answerStart":
				this.onAnswerStart(delta);
				break;
			case "watching":
				this.onWatching(delta);
				break;
			case "plain":
				this.emitText(delta);
				break;
		}
	}

	/** The server separates thinking itself: tags in the text are text from here on. */
	serverThinks(): void {
		if (this.state === "start") {
			const held = this.held;
			this.held = "";
			this.state = "plain";
			if (held !== "") this.emitText(held);
		} else if (this.state === "watching") {
			this.stopWatching();
		}
	}

	/** The stream ended: whatever was held is what it looked like. */
	end(): void {
		const held = this.held;
		this.held = "";
		if (this.state === "start" && held !== "") this.emitText(held);
		else if (this.state === "thinking") this.emitThinking(held.trimEnd());
		this.stopWatching();
	}

	private onStart(delta: string): void {
		this.held += delta;
		const opening = this.held.trimStart();
		if (opening === "" || (opening.length < OPEN.length && OPEN.startsWith(opening))) return;
		const held = this.held;
		this.held = "";
		if (opening.startsWith(OPEN)) {
			this.state = "thinking";
			this.onThinking(opening.slice(OPEN.length));
		} else {
			// Not thinking: the answer as written, its leading whitespace too.
			this.state = "watching";
			this.onWatching(held);
		}
	}

	private onThinking(delta: string): void {
		const text = this.held + delta;
		const close = text.indexOf(CLOSE);
		if (close >= 0) {
			this.held = "";
			this.emitThinking(text.slice(0, close).trimEnd());
			this.state = "answerStart";
			this.onAnswerStart(text.slice(close + CLOSE.length));
			return;
		}
		const keep = partialTagAtEnd(text, CLOSE);
		const body = text.slice(0, text.length - keep);
		const shown = body.trimEnd();
		// Trailing whitespace waits: the thinking's end is trimmed, and it may be that end.
		this.held = body.slice(shown.length) + text.slice(text.length - keep);
		this.emitThinking(shown);
	}

	private onAnswerStart(delta: string): void {
		const text = delta.trimStart();
		if (text === "") return;
		this.state = "plain";
		this.emitText(text);
	}

	private onWatching(delta: string): void {
		const window = this.tail + delta;
		const found = window.indexOf(CLOSE);
		if (found < 0) {
			this.watched.push(delta);
			this.watchedLength += delta.length;
			this.tail = window.slice(-(CLOSE.length - 1));
			this.emitText(delta);
			return;
		}
		// Where the tag ends inside `delta`.
		const end = found + CLOSE.length - this.tail.length;
		const all = this.watched.join("") + delta;
		const at = this.watchedLength + end - CLOSE.length;
		const before = all.slice(0, at);
		if (closeTagIsLiteral(before)) {
			this.stopWatching();
			this.emitText(delta);
			return;
		}
		this.stopWatching();
		if (this.textStreamed) this.sink.retract();
		this.textStreamed = false;
		this.emitThinking(before.trim());
		this.state = "answerStart";
		this.onAnswerStart(delta.slice(end));
	}

	private stopWatching(): void {
		if (this.state === "watching") this.state = "plain";
		this.watched = [];
		this.watchedLength = 0;
		this.tail = "";
	}

	private emitText(text: string): void {
		if (text === "") return;
		this.textStreamed = true;
		this.sink.text(text);
	}

	private emitThinking(text: string): void {
		let out = text;
		if (!this.thinkingStarted) {
			out = out.trimStart();
			if (out === "") return;
			this.thinkingStarted = true;
		}
		if (out !== "") this.sink.thinking(out);
	}
}
