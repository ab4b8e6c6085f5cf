// What answers and chats cost, as the panel and the history browser show it: tokens, and money
// when the person entered prices for the model.
import type { ChatUsage } from "../core/answerStats";
import { chatCost, type ModelPrice } from "../settings/prices";
import { formatMoney, formatTokenCount, t } from "../i18n";

/** The prices the person entered and their currency (from settings). */
export interface PriceList {
	prices: readonly ModelPrice[];
	currency: string;
}

/** A chat's total: "12K tokens", or "12K tokens · $0.03" when its models are priced; undefined without stats. */
export function chatTotalText(usage: ChatUsage | undefined, prices: PriceList): string | undefined {
	if (usage === undefined) return undefined;
	const tokens = formatTokenCount(usage.promptTokens + usage.answerTokens);
	const cost = chatCost(usage, prices.prices);
	// What the server's cache saved: money where the models are priced, else the tokens it served.
	const cached = usage.models.reduce((n, m) => n + (m.cachedPromptTokens ?? 0), 0);
	if (cost === undefined) {
		const total = t("stats.tokensTotal", { tokens });
		return cached > 0 ? `${total} · ${t("stats.cacheTokens", { tokens: formatTokenCount(cached) })}` : total;
	}
	const money = formatMoney(cost.cost, prices.currency);
	const total = t("stats.tokensAndCost", { tokens, cost: cost.complete ? money : t("stats.costPartial", { cost: money }) });
	return cost.saved > 0 ? `${total} · ${t("stats.cacheSaved", { saved: formatMoney(cost.saved, prices.currency) })}` : total;
}
