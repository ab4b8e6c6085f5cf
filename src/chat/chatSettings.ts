import { DEFAULT_CHAT_SETTINGS, type ChatSettings } from "../core/types";

const MIN_PROMPT_ROOM = 128;
/** Far above any model's window; keeps the arithmetic exact for absurd inputs. */
const MAX_WINDOW = 100_000_000;

function whole(value: unknown, fallback: number): number {
	return typeof value === "number" && Number.isFinite(value) ? Math.floor(value) : fallback;
}

/**
 * The engine's own guard on budget settings: the settings tab validates what people type, but
 * headless callers can pass anything, and a turn must never run with a negative budget.
 */
export function normalizeChatSettings(partial: Partial<ChatSettings> = {}, base: ChatSettings = DEFAULT_CHAT_SETTINGS): ChatSettings {
	const maxPromptTokens = Math.min(MAX_WINDOW, Math.max(256, whole(partial.maxPromptTokens, base.maxPromptTokens)));
	// The answer's reserve must leave the prompt some room, or every message would be "too long".
	const reservedResponseTokens = Math.min(maxPromptTokens - MIN_PROMPT_ROOM, Math.max(16, whole(partial.reservedResponseTokens, base.reservedResponseTokens)));
	const recentMessagesToKeep = Math.max(0, whole(partial.recentMessagesToKeep, base.recentMessagesToKeep));
	const minRecentMessagesToKeep = Math.min(recentMessagesToKeep, Math.max(0, whole(partial.minRecentMessagesToKeep, base.minRecentMessagesToKeep)));
	const systemPrompt = typeof partial.systemPrompt === "string" ? partial.systemPrompt : base.systemPrompt;
	return { maxPromptTokens, reservedResponseTokens, recentMessagesToKeep, minRecentMessagesToKeep, systemPrompt };
}
