import { AnswerBuilder, isRecord, numberOrUndefined, type AnswerListener, type StreamDecoder } from "./answer";
import { classifyStreamError, type ErrorContext } from "./classify";
import { LLMError } from "./errors";
import { LineSplitter } from "./lines";
import type { ProviderGenerateResult } from "./types";

/** Ollama's `/api/chat` NDJSON stream: one JSON object a line, ending with `done: true`. */
export class OllamaStreamDecoder implements StreamDecoder {
	private readonly lines = new LineSplitter();
	private readonly answer: AnswerBuilder;
	private done = false;
	private calls = 0;
	private readonly seenIds = new Set<string>();
	private readonly onLine = (line: string): void => this.line(line);

	constructor(
		private readonly ctx: ErrorContext,
		listener: AnswerListener = {},
		maxChars?: number,
	) {
		this.answer = new AnswerBuilder(listener, maxChars);
	}

	push(text: string): void {
		this.lines.push(text, this.onLine);
	}

	progress(): number {
		return this.answer.progress + (this.done ? 1 : 0);
	}

	finish(): ProviderGenerateResult {
		this.lines.end(this.onLine);
		if (!this.done) throw new LLMError("protocol", "Ollama's stream ended before the answer was done; the answer is incomplete.", { provider: "ollama" });
		return this.answer.result();
	}

	/**
	 * Ollama sends each call whole, arguments as an object, in one line. Calls are numbered by
	 * arrival: some Ollama-compatible servers give every call of a batch `index` 0, so it is not a
	 * key. Newer Ollama sends an `id`; without one, the id comes from the line's time and the call's
	 * position, so a replay of the same stream gives the same ids.
	 */
	private toolCalls(list: unknown[], createdAt: string | undefined): void {
		for (const item of list) {
			if (!isRecord(item)) continue;
			const fn = isRecord(item.function) ? item.function : {};
			const id = typeof item.id === "string" ? item.id : undefined;
			if (id !== undefined && id !== "" && this.seenIds.has(id)) continue; // A repeat of a call already here.
			if (id) this.seenIds.add(id);
			const key = this.calls++;
			this.answer.tools.start(key, id, typeof fn.name === "string" ? fn.name : "", createdAt);
			this.answer.tools.whole(key, fn.arguments ?? {});
			this.answer.tools.end(key);
		}
	}

	private line(line: string): void {
		if (line.trim() === "") return;
		let parsed: unknown;
		try {
			parsed = JSON.parse(line);
		} catch {
			throw new LLMError("protocol", `Ollama sent a line that is not JSON: ${line.slice(0, 80)}`, { provider: "ollama" });
		}
		if (!isRecord(parsed)) throw new LLMError("protocol", "Ollama sent a line that is not a JSON object.", { provider: "ollama" });
		if (parsed.error !== undefined) throw classifyStreamError(this.ctx, parsed);
		if (this.done) return;
		const message = parsed.message;
		if (isRecord(message)) {
			if (typeof message.thinking === "string") this.answer.thinking(message.thinking);
			if (typeof message.content === "string") this.answer.text(message.content);
			if (Array.isArray(message.tool_calls)) this.toolCalls(message.tool_calls, typeof parsed.created_at === "string" ? parsed.created_at : undefined);
		}
		if (parsed.done === true) {
			this.done = true;
			// `prompt_eval_count` is the whole prompt where the server also sends the cached part
			// (ollama#17943, `prompt_eval_cached_count`); older versions may count only the newly
			// evaluated tokens, or send nothing when the prompt was cached (the engine allows for both).
			// A cached part larger than the count means the count left it out: the whole is their sum.
			const counted = numberOrUndefined(parsed.prompt_eval_count);
			const completionTokens = numberOrUndefined(parsed.eval_count);
			const cachedPromptTokens = numberOrUndefined(parsed.prompt_eval_cached_count);
			const promptTokens = counted !== undefined && cachedPromptTokens !== undefined && cachedPromptTokens > counted ? counted + cachedPromptTokens : counted;
			if (promptTokens !== undefined || completionTokens !== undefined) this.answer.addUsage({ promptTokens, completionTokens, ...(cachedPromptTokens === undefined ? {} : { cachedPromptTokens }) });
		}
	}
}
