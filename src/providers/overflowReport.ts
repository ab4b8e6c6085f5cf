// When a server refuses a prompt as too long, it often says how long it was and how much it can
// take. Those numbers are the truth the engine's estimate is not: the real window for a retry, and
// a calibration point for the estimator.

/** What a server reported about a prompt it found too long, in its own tokens. */
export interface OverflowReport {
	/** The context window the server has loaded (prompt and answer together). */
	window?: number;
	/** What the server counted for the prompt that was sent. */
	promptTokens?: number;
}

const NUMBER = String.raw`(\d[\d,]*)`;

/** [pattern, what its first and second numbers are] for each server's wording. */
const WORDINGS: readonly [RegExp, "window" | "prompt", ("window" | "prompt")?][] = [
	// OpenAI, vLLM: "maximum context length is 8192 tokens. However, your messages resulted in 9999 tokens"
	[new RegExp(`maximum context length is ${NUMBER}`, "i"), "window"],
	[new RegExp(`messages resulted in ${NUMBER}`, "i"), "prompt"],
	// OpenAI (older), vLLM: "you requested 5000 tokens (4500 in the messages, 500 in the completion)"
	[new RegExp(`${NUMBER} in the messages`, "i"), "prompt"],
	// Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
	[new RegExp(`prompt is too long: ${NUMBER} tokens > ${NUMBER}`, "i"), "prompt", "window"],
	// llama.cpp: "request (5000 tokens) exceeds the available context size (4096 tokens)"
	[new RegExp(`request \\(${NUMBER} tokens\\) exceeds the (?:available )?context size \\(${NUMBER}`, "i"), "prompt", "window"],
	// llama.cpp, LM Studio: "n_keep (15028) >= n_ctx (7424)", "n_keep: 5120>= n_ctx: 4096"
	[new RegExp(`n_keep\\W{0,3}${NUMBER}\\W{0,6}n_ctx\\W{0,3}${NUMBER}`, "i"), "prompt", "window"],
	[new RegExp(`n_ctx\\W{0,3}${NUMBER}`, "i"), "window"],
	// LM Studio: "Trying to keep the first 5120 tokens … loaded with context length of only 4096 tokens"
	[new RegExp(`keep the first ${NUMBER} tokens`, "i"), "prompt"],
	[new RegExp(`context length of only ${NUMBER}`, "i"), "window"],
	// LM Studio: "Input length 5120 exceeds context length 4096"
	[new RegExp(`length ${NUMBER} exceeds (?:the )?(?:maximum )?context length (?:of )?${NUMBER}`, "i"), "prompt", "window"],
	// vLLM V1: "The decoder prompt (length 5120) is longer than the maximum model length of 4096"
	[new RegExp(`prompt \\((?:total )?length ${NUMBER}\\)`, "i"), "prompt"],
	[new RegExp(`maximum model length (?:of )?${NUMBER}`, "i"), "window"],
];

/** A plausible token count, or undefined. */
function tokens(value: unknown): number | undefined {
	const n = typeof value === "string" ? Number(value.replace(/,/g, "")) : value;
	return typeof n === "number" && Number.isInteger(n) && n > 0 && n < 1e9 ? n : undefined;
}

/** llama.cpp's error object carries the numbers as fields: `n_ctx`, `n_prompt_tokens`. */
function fromFields(body: unknown): OverflowReport {
	if (typeof body !== "object" || body === null) return {};
	const record = body as Record<string, unknown>;
	const inner = typeof record.error === "object" && record.error !== null ? (record.error as Record<string, unknown>) : record;
	return { window: tokens(inner.n_ctx), promptTokens: tokens(inner.n_prompt_tokens) };
}

/** The numbers in an overflow error's message (and body, when there is one); {} when it names none. */
export function parseOverflowReport(message: string, body?: unknown): OverflowReport {
	const report = fromFields(body);
	// Long bodies are cut before this point; a bounded slice keeps the patterns cheap anyway.
	const text = message.slice(0, 4000);
	for (const [pattern, first, second] of WORDINGS) {
		const match = pattern.exec(text);
		if (match === null) continue;
		for (const [slot, raw] of [
			[first, match[1]],
			[second, match[2]],
		] as const) {
			const n = tokens(raw);
			if (slot === undefined || n === undefined) continue;
			if (slot === "window") report.window ??= n;
			else report.promptTokens ??= n;
		}
	}
	const clean: OverflowReport = {};
	if (report.window !== undefined) clean.window = report.window;
	if (report.promptTokens !== undefined) clean.promptTokens = report.promptTokens;
	return clean;
}
