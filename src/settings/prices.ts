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
	for (const value of [price.input, price.output]) {
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

/** An ISO 4217 code Intl can format ("USD", "EUR", "JPY"). */
export function isCurrencyCode(value: unknown): value is string {
	if (typeof value !== "string" || !/^[A-Za-z]{3}$/.test(value)) return false;
	try {
		new Intl.NumberFormat("en", { style: "currency", currency: value });
		return true;
	} catch {
		return false;
	}
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
	return tokensCost(price, billed.promptTokens, billed.answerTokens);
}

/**
 * What a chat cost, model by model; undefined when none of its models has prices. `complete` is
 * false when some answers' models have none (the cost then leaves them out, and says so).
 */
export function chatCost(usage: ChatUsage, prices: readonly ModelPrice[]): { cost: number; complete: boolean } | undefined {
	let cost = 0;
	let priced = 0;
	for (const m of usage.models) {
		const price = priceFor(prices, m.model);
		if (price === undefined) continue;
		cost += tokensCost(price, m.promptTokens, m.answerTokens);
		priced++;
	}
	return priced === 0 ? undefined : { cost, complete: priced === usage.models.length };
}
