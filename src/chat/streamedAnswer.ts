import type { AnswerStats, GenerateRequest, GenerateResult, SourceFit, ToolCall } from "../core/types";

/** The caller's streaming listeners (SendOptions). */
export interface AnswerListeners {
	onToken?: (delta: string) => void;
	onThinking?: (delta: string) => void;
	onTextRetracted?: () => void;
}

/** What an answer saves beside its text. */
export interface ThinkingRecord {
	thinking?: string;
	thinkingMs?: number;
}

/** Everything an answer saves beside its text: its thinking and what it was given. */
export interface AnswerExtras extends ThinkingRecord {
	sources?: SourceFit[];
	/** The calls the answer made (a round of the tool loop). */
	toolCalls?: ToolCall[];
	/** What the answer cost (only on the answer that ends a turn). */
	stats?: AnswerStats;
}

/**
 * One attempt's answer as it streams: text and thinking collected apart (so a stopped answer keeps
 * both), passed on to the caller's listeners, and how long the model thought before it answered.
 */
export class StreamedAnswer {
	private text: string[] = [];
	private readonly thought: string[] = [];
	private firstAt: number | undefined;
	private answerAt: number | undefined;

	constructor(
		private readonly listeners: AnswerListeners,
		private readonly now: () => number,
	) {}

	/** The listeners to hand the adapter. */
	get request(): Pick<GenerateRequest, "onToken" | "onThinking" | "onTextRetracted"> {
		return {
			onToken: (delta) => {
				this.firstAt ??= this.now();
				if (this.text.length === 0) this.answerAt = this.now();
				this.text.push(delta);
				this.forward(() => this.listeners.onToken?.(delta));
			},
			onThinking: (delta) => {
				this.firstAt ??= this.now();
				this.thought.push(delta);
				this.forward(() => this.listeners.onThinking?.(delta));
			},
			onTextRetracted: () => {
				this.text = [];
				this.answerAt = undefined;
				this.forward(() => this.listeners.onTextRetracted?.());
			},
		};
	}

	/** When the first token (text or thinking) came, on the injected clock; undefined before any. */
	get firstTokenAt(): number | undefined {
		return this.firstAt;
	}

	/** The text streamed so far (a stopped answer's). */
	get partialText(): string {
		return this.text.join("");
	}

	/** The answer's text: the adapter's result, or what streamed when it returned none. */
	finalText(result: GenerateResult): string {
		return result.text !== "" ? result.text : this.partialText;
	}

	/** The thinking to save with the answer; `result` when the turn completed. */
	thinking(result?: GenerateResult): ThinkingRecord {
		const streamed = this.thought.join("");
		const thinking = typeof result?.thinking === "string" && result.thinking !== "" ? result.thinking : streamed;
		if (thinking.trim() === "") return {};
		const record: ThinkingRecord = { thinking };
		if (this.firstAt !== undefined) record.thinkingMs = Math.max(0, (this.answerAt ?? this.now()) - this.firstAt);
		return record;
	}

	private forward(call: () => void): void {
		try {
			call();
		} catch (err) {
			// A failing renderer must not turn a good answer into a failed turn.
			console.error("Discover: answer listener failed", err);
		}
	}
}
