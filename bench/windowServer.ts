// The simulated server of the window-use benchmark (bench/windowUse.ts): it counts every prompt
// exactly with a tokenizer, refuses one that does not fit its window (as OpenAI-compatible servers
// do, naming both numbers), and reports its prompt count with each answer (or not, like a server
// without usage data).
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import type { GenerateRequest, GenerateResult, LLMAdapter, PromptMessage } from "../src/core/types";
import { LLMError } from "../src/providers/errors";

export type Tokenizer = "o200k" | "cl100k" | "claude";

/** Chat framing as servers count it: OpenAI's cookbook figures, 3 per message and 3 priming the reply. */
export const SERVER_TOKENS_PER_MESSAGE = 3;
export const SERVER_TOKENS_PER_PROMPT = 3;

/** One text of the corpus: its lines carry its Claude/o200k ratio into whatever prompt quotes them. */
export interface CorpusText {
	category: string;
	text: string;
	o200k: number;
	claude2: number;
}

function memo(count: (text: string) => number): (text: string) => number {
	const cache = new Map<string, number>();
	return (text) => {
		let n = cache.get(text);
		if (n === undefined) {
			n = count(text);
			if (cache.size > 50_000) cache.clear();
			cache.set(text, n);
		}
		return n;
	};
}

/**
 * Exact o200k and cl100k counts (gpt-tokenizer), and a Claude count modelled from the corpus: no
 * Claude tokenizer runs here, but every corpus sample has its Claude-2 count, so each line of a
 * sample carries that sample's Claude/o200k ratio. A message's Claude count is its exact o200k
 * count times the o200k-weighted mean ratio of its lines (a line of no sample, such as the
 * engine's own headings, counts at the ratio of its script's category, English otherwise).
 */
export class TokenCounter {
	readonly o200k = memo((text) => countO200k(text));
	readonly cl100k = memo((text) => countCl100k(text));
	private readonly lineRatio = new Map<string, number>();
	private readonly categoryRatio = new Map<string, number>();

	constructor(corpus: readonly CorpusText[]) {
		const sums = new Map<string, { claude: number; o200k: number }>();
		for (const s of corpus) {
			const ratio = s.claude2 / s.o200k;
			for (const line of s.text.split("\n")) if (line.trim() !== "") this.lineRatio.set(line, ratio);
			const sum = sums.get(s.category) ?? { claude: 0, o200k: 0 };
			sum.claude += s.claude2;
			sum.o200k += s.o200k;
			sums.set(s.category, sum);
		}
		for (const [category, sum] of sums) this.categoryRatio.set(category, sum.claude / sum.o200k);
	}

	private scriptRatio(line: string): number {
		const category = /[\u3040-\u30ff\u4e00-\u9fff]/.test(line) ? "prose-ja" : /[\u0400-\u04ff]/.test(line) ? "man-ru" : "prose-en";
		return this.categoryRatio.get(category) ?? 1;
	}

	readonly claude = memo((text: string): number => {
		const exact = this.o200k(text);
		let weighted = 0;
		let weight = 0;
		for (const line of text.split("\n")) {
			if (line.trim() === "") continue;
			const n = this.o200k(line);
			weighted += n * (this.lineRatio.get(line) ?? this.scriptRatio(line));
			weight += n;
		}
		return Math.round(weight > 0 ? (exact * weighted) / weight : exact);
	});

	count(tokenizer: Tokenizer, text: string): number {
		return tokenizer === "o200k" ? this.o200k(text) : tokenizer === "cl100k" ? this.cl100k(text) : this.claude(text);
	}

	/** A chat prompt as the server counts it: every message's text and framing, and the reply's priming. */
	prompt(tokenizer: Tokenizer, messages: readonly PromptMessage[]): number {
		let total = SERVER_TOKENS_PER_PROMPT;
		for (const m of messages) total += SERVER_TOKENS_PER_MESSAGE + this.count(tokenizer, m.content);
		return total;
	}
}

/** One request as the server saw it. */
export interface ServedRequest {
	purpose: GenerateRequest["purpose"];
	/** The server's count of the prompt. */
	promptTokens: number;
	maxTokens: number;
	window: number;
	/** Refused as too long (prompt plus the answer's room over the window). */
	overflowed: boolean;
}

export interface SimulatedServerOptions {
	counter: TokenCounter;
	tokenizer: Tokenizer;
	window: number;
	/** false: answers carry no usage, so the engine never calibrates. */
	reportsUsage: boolean;
	/** The chat answer for the n-th chat request. */
	answer: (n: number) => string;
	/** A summary of the request's text in at most `maxTokens` tokens. */
	summary: (req: GenerateRequest) => string;
}

/** An LLMAdapter that behaves like a server with a fixed window and an exact tokenizer. */
export class SimulatedServer implements LLMAdapter {
	readonly served: ServedRequest[] = [];
	private chats = 0;

	constructor(private readonly opts: SimulatedServerOptions) {}

	generate(req: GenerateRequest): Promise<GenerateResult> {
		const { counter, tokenizer, window } = this.opts;
		const promptTokens = counter.prompt(tokenizer, req.messages);
		const overflowed = promptTokens + req.maxTokens > window;
		this.served.push({ purpose: req.purpose, promptTokens, maxTokens: req.maxTokens, window, overflowed });
		if (overflowed) {
			const message = `This model's maximum context length is ${window} tokens. However, you requested ${promptTokens + req.maxTokens} tokens (${promptTokens} in the messages, ${req.maxTokens} in the completion).`;
			return Promise.reject(new LLMError("context_overflow", message, { status: 400, overflow: { window, promptTokens } }));
		}
		const text = req.purpose === "summary" ? this.opts.summary(req) : this.opts.answer(this.chats++);
		return Promise.resolve({ text, usage: this.opts.reportsUsage ? { promptTokens } : undefined });
	}
}
