// Prices per million tokens, per model, as the person entered them (never fetched), and what
// answers and chats cost at those prices. Engine-safe: no 'obsidian'.
import type { AnswerStats } from "../core/types";
import { billedTokens, type ChatUsage } from "../core/answerStats";
import { t } from "../i18n";

/** One model's prices, per million tokens, in the settings' currency. */
export interface ModelPrice {
	/** The model's name as the server knows it ("gpt-4o-mini", "llama3.2:3b"). */
	model: string;
	/** Per million prompt (input) tokens. */
	input: number;
	/** Per million answer (output) tokens. */
	output: number;
	/**
	 * Per million prompt tokens the server read from its cache; absent: the provider's published
	 * share of the input price (`CACHED_INPUT_SHARE`).
	 */
	cachedInput?: number;
}

/**
 * A cache read's price as a share of the input price, by provider, when no cached-input price was
 * entered: Anthropic bills a cache read at 0.1× input, OpenAI cached input at 0.5× (its older
 * models; newer ones list their own, lower price, which the person enters). Other servers: the
 * input price (no discount assumed).
 */
export const CACHED_INPUT_SHARE: Readonly<Record<string, number>> = { anthropic: 0.1, openai: 0.5 };
/** Anthropic bills a cache write (5-minute cache) at 1.25× the input price; other servers do not bill writes apart. */
export const CACHE_WRITE_SHARE: Readonly<Record<string, number>> = { anthropic: 1.25 };

/** The prompt tokens of an answer or a chat, with the parts its server read from and wrote to its cache. */
export interface PromptParts {
	promptTokens: number;
	answerTokens: number;
	cachedPromptTokens?: number;
	cacheWriteTokens?: number;
	provider?: string;
}

/** The price per million tokens of a cache read of `price`'s model served by `provider`. */
export function cachedInputPrice(price: ModelPrice, provider: string | undefined): number {
	return price.cachedInput ?? price.input * (CACHED_INPUT_SHARE[provider ?? ""] ?? 1);
}

/** What `parts` cost at `price`: cache reads at the cached rate, cache writes at the write rate, the rest at input. */
export function partsCost(price: ModelPrice, parts: PromptParts): number {
	const read = Math.min(parts.cachedPromptTokens ?? 0, parts.promptTokens);
	const written = Math.min(parts.cacheWriteTokens ?? 0, parts.promptTokens - read);
	const plain = parts.promptTokens - read - written;
	const writeRate = price.input * (CACHE_WRITE_SHARE[parts.provider ?? ""] ?? 1);
	return (plain * price.input + read * cachedInputPrice(price, parts.provider) + written * writeRate + parts.answerTokens * price.output) / 1_000_000;
}

/** What the cache saved on `parts` at `price`: reads below the input price, less writes above it (can be negative). */
export function cacheSaving(price: ModelPrice, parts: PromptParts): number {
	return tokensCost(price, parts.promptTokens, parts.answerTokens) - partsCost(price, parts);
}

export const DEFAULT_CURRENCY = "USD";

/** A price as typed: "0.15", "0,15" (a decimal comma), "2" → the number, or why it is not one. */
export function parsePrice(text: string): { value: number } | { error: string } {
	const trimmed = text.trim().replace(/[\s\u00a0\u202f']/g, "");
	if (trimmed === "") return { error: t("valid.priceNumber") };
	// The last comma or dot is the decimal separator (0,15 in de, fr, ru…; 1,234.5 in en); the other one groups digits.
	const decimal = Math.max(trimmed.lastIndexOf(","), trimmed.lastIndexOf("."));
	const normal = decimal < 0 ? trimmed : trimmed.slice(0, decimal).replace(/[.,]/g, "") + "." + trimmed.slice(decimal + 1);
	if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(normal)) return { error: t("valid.priceNumber") };
	const value = Number(normal);
	if (!Number.isFinite(value)) return { error: t("valid.priceNumber") };
	if (value < 0) return { error: t("valid.priceNegative") };
	return { value };
}

/** Why a model's prices cannot be kept (name missing, taken, prices not numbers or negative); null when they can. */
export function modelPriceIssue(price: ModelPrice, others: readonly ModelPrice[]): string | null {
	const name = typeof price.model === "string" ? price.model.trim() : "";
	if (name === "") return t("valid.priceModel");
	if (others.some((o) => o.model.trim() === name)) return t("valid.priceDuplicate", { model: name });
	for (const value of [price.input, price.output, ...(price.cachedInput === undefined ? [] : [price.cachedInput])]) {
		if (typeof value !== "number" || !Number.isFinite(value)) return t("valid.priceNumber");
		if (value < 0) return t("valid.priceNegative");
	}
	return null;
}

/** A saved price list: every entry a named model with two prices that are numbers, none negative. */
export function isModelPrices(value: unknown): value is ModelPrice[] {
	if (!Array.isArray(value)) return false;
	const seen: ModelPrice[] = [];
	for (const entry of value as unknown[]) {
		if (typeof entry !== "object" || entry === null) return false;
		const price = entry as ModelPrice;
		if (modelPriceIssue(price, seen) !== null) return false;
		seen.push(price);
	}
	return true;
}

/**
 * An ISO 4217 code Intl can format ("USD", "EUR", "JPY"): Intl formats any well-formed code, three
 * ASCII letters (ECMA-402's IsWellFormedCurrencyCode). No formatter is built to ask: the first one in
 * a window loads ICU's currency data, about 40 ms, and the settings are checked as the plugin loads.
 */
export function isCurrencyCode(value: unknown): value is string {
	return typeof value === "string" && /^[A-Za-z]{3}$/.test(value);
}

/** The prices entered for `model` (names compared without surrounding spaces). */
export function priceFor(prices: readonly ModelPrice[], model: string): ModelPrice | undefined {
	const name = model.trim();
	return prices.find((p) => p.model.trim() === name);
}

/** What `promptTokens` in and `answerTokens` out cost at `price`. */
export function tokensCost(price: ModelPrice, promptTokens: number, answerTokens: number): number {
	return (promptTokens * price.input + answerTokens * price.output) / 1_000_000;
}

/** What an answer cost, its turn's summary requests included; undefined when its model has no prices. */
export function answerCost(stats: AnswerStats, prices: readonly ModelPrice[]): number | undefined {
	const price = priceFor(prices, stats.model);
	if (price === undefined) return undefined;
	const billed = billedTokens(stats);
	return partsCost(price, { ...billed, cachedPromptTokens: stats.cachedPromptTokens, cacheWriteTokens: stats.cacheWriteTokens, provider: stats.provider });
}

/**
 * What a chat cost, model by model; undefined when none of its models has prices. `complete` is
 * false when some answers' models have none (the cost then leaves them out, and says so).
 */
export function chatCost(usage: ChatUsage, prices: readonly ModelPrice[]): { cost: number; complete: boolean; saved: number } | undefined {
	let cost = 0;
	let saved = 0;
	let priced = 0;
	for (const m of usage.models) {
		const price = priceFor(prices, m.model);
		if (price === undefined) continue;
		cost += partsCost(price, m);
		saved += cacheSaving(price, m);
		priced++;
	}
	return priced === 0 ? undefined : { cost, complete: priced === usage.models.length, saved };
}
