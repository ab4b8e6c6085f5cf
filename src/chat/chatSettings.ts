import { DEFAULT_CHAT_SETTINGS, type ChatSettings, type ImageTokenRule } from "../core/types";

/** A usable image rule, or undefined (the default: the larger of tiles and area). */
function normalizeImageRule(rule: unknown): ImageTokenRule | undefined {
	if (rule === "tiles" || rule === "area") return rule;
	if (typeof rule === "object" && rule !== null && "perImage" in rule) {
		const n = rule.perImage;
		if (typeof n === "number" && Number.isFinite(n) && n >= 1) return { perImage: Math.min(100_000, Math.floor(n)) };
	}
	return undefined;
}

/**
 * The one set of limits on the budget settings: the settings tab validates what people type against
 * them, and the engine clamps what headless callers pass to them.
 */
export const BUDGET_LIMITS = {
	/**
	 * 256 at the bottom: headless callers and tests run small windows; far above any model's window
	 * at the top, which keeps the arithmetic exact for absurd inputs.
	 */
	maxPromptTokens: { min: 256, max: 100_000_000 },
	reservedResponseTokens: { min: 16 },
	/** At least this many tokens of the window must remain for the prompt itself. */
	promptRoom: 128,
} as const;

/** Rounds of tool calls in one turn when the settings name none. */
export const DEFAULT_MAX_TOOL_ROUNDS = 8;

/** B, the prompt budget: the window less what is kept for the answer (before the safety margin). */
export function promptBudget(settings: Pick<ChatSettings, "maxPromptTokens" | "reservedResponseTokens">): number {
	return settings.maxPromptTokens - settings.reservedResponseTokens;
}

function whole(value: unknown, fallback: number): number {
	return typeof value === "number" && Number.isFinite(value) ? Math.floor(value) : fallback;
}

/**
 * The engine's own guard on budget settings: the settings tab validates what people type, but
 * headless callers can pass anything, and a turn must never run with a negative budget.
 */
export function normalizeChatSettings(partial: Partial<ChatSettings> = {}, base: ChatSettings = DEFAULT_CHAT_SETTINGS): ChatSettings {
	const { min, max } = BUDGET_LIMITS.maxPromptTokens;
	const maxPromptTokens = Math.min(max, Math.max(min, whole(partial.maxPromptTokens, base.maxPromptTokens)));
	// The answer's reserve must leave the prompt some room, or every message would be "too long".
	const reservedResponseTokens = Math.min(maxPromptTokens - BUDGET_LIMITS.promptRoom, Math.max(BUDGET_LIMITS.reservedResponseTokens.min, whole(partial.reservedResponseTokens, base.reservedResponseTokens)));
	const recentMessagesToKeep = Math.max(0, whole(partial.recentMessagesToKeep, base.recentMessagesToKeep));
	const minRecentMessagesToKeep = Math.min(recentMessagesToKeep, Math.max(0, whole(partial.minRecentMessagesToKeep, base.minRecentMessagesToKeep)));
	const systemPrompt = typeof partial.systemPrompt === "string" ? partial.systemPrompt : base.systemPrompt;
	const normalized: ChatSettings = { maxPromptTokens, reservedResponseTokens, recentMessagesToKeep, minRecentMessagesToKeep, systemPrompt };
	const rounds = partial.maxToolRounds ?? base.maxToolRounds;
	if (rounds !== undefined) normalized.maxToolRounds = Math.min(100, Math.max(0, whole(rounds, DEFAULT_MAX_TOOL_ROUNDS)));
	const imageRule = normalizeImageRule("imageTokens" in partial ? partial.imageTokens : base.imageTokens);
	if (imageRule !== undefined) normalized.imageTokens = imageRule;
	return normalized;
}
