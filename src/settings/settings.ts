// Discover's saved settings: their type, defaults and validation. Engine-safe: never imports
// 'obsidian' (scripts and tests use it headless). Migration of saved data: settingsMigration.ts.
import { DEFAULT_CHAT_SETTINGS, type ChatSettings } from "../core/types";
import { DEFAULT_BASE_URLS, PROVIDERS, type ProviderName } from "../providers/types";

/** How a message is sent: Enter (Shift+Enter adds a line), or Ctrl/Cmd+Enter (Enter adds a line, for long prompts). */
export const SEND_KEYS = ["enter", "mod-enter"] as const;
export type SendKey = (typeof SEND_KEYS)[number];

/** The version written by this code; migrateSettings brings older data up to it. */
export const SETTINGS_VERSION = 1;

export interface DiscoverSettings extends ChatSettings {
	provider: ProviderName;
	/** The server's address; for OpenAI-compatible servers it includes `/v1`. */
	baseUrl: string;
	model: string;
	/** The NAME of the secret in Obsidian's secret storage holding the API key; never the key. */
	apiKeySecret: string;
	includeActiveNote: boolean;
	/** Remote images in answers load as they render; off: they wait for a click (a note could leak through one). */
	loadRemoteImages: boolean;
	/** Which key sends a message; the other combination adds a line. */
	sendKey: SendKey;
	sessionsFolder: string;
	exportFolder: string;
	/** Exported notes show each answer's thinking (folded). Off: thinking is the model's scratch work. */
	includeThinkingInExports: boolean;
	activeSessionId?: string;
	/** Token calibration data, owned by the engine; opaque here. */
	calibration?: unknown;
	settingsVersion: number;
}

export const DEFAULT_SETTINGS: DiscoverSettings = {
	...DEFAULT_CHAT_SETTINGS,
	provider: "ollama",
	baseUrl: DEFAULT_BASE_URLS.ollama,
	model: "",
	apiKeySecret: "",
	includeActiveNote: true,
	loadRemoteImages: false,
	sendKey: "enter",
	sessionsFolder: "Discover/Chats",
	exportFolder: "Discover/Exports",
	includeThinkingInExports: false,
	settingsVersion: SETTINGS_VERSION,
};

/** What each setting is called in the settings tab; messages about a field use these names. */
export const FIELD_LABELS: Record<keyof DiscoverSettings, string> = {
	maxPromptTokens: "Context size",
	reservedResponseTokens: "Tokens reserved for the answer",
	recentMessagesToKeep: "Recent messages to keep",
	minRecentMessagesToKeep: "Fewest recent messages to keep",
	systemPrompt: "System prompt",
	provider: "Provider",
	baseUrl: "Base URL",
	model: "Model",
	apiKeySecret: "API key",
	includeActiveNote: "Include the active note",
	loadRemoteImages: "Load images from the web in answers",
	sendKey: "Send with",
	sessionsFolder: "Chats folder",
	exportFolder: "Export folder",
	includeThinkingInExports: "Include thinking in exports",
	activeSessionId: "Active chat",
	calibration: "Token calibration",
	settingsVersion: "Settings version",
};

/**
 * Limits the budget settings must respect; the settings tab shows them as input minimums. They are
 * a sensible range for a person to type, inside the engine's own limits (BUDGET_LIMITS, which only
 * keep the arithmetic sound for headless callers): whatever the tab accepts, the engine keeps as is.
 */
export const LIMITS = {
	maxPromptTokens: { min: 1024, max: 10_000_000 },
	reservedResponseTokens: { min: 64 },
	/** At least this many tokens of the window must remain for the prompt itself. */
	promptRoom: 512,
	recentMessagesToKeep: { min: 1, max: 1000 },
	minRecentMessagesToKeep: { min: 1 },
} as const;

/** Obsidian's secret ids: lowercase letters and digits, with single dashes between. */
export const SECRET_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export interface SettingsIssue {
	/** The field whose value is wrong (the one reset to its default when loading). */
	field: keyof DiscoverSettings;
	/** Plain language, sentence case, with what would be right. */
	message: string;
	/** Another field the rule compares with: editing it can cause or fix the issue. */
	related?: keyof DiscoverSettings;
}

const fmt = (n: number): string => n.toLocaleString("en-US");

function wholeNumberIssue(field: keyof DiscoverSettings, value: unknown, min: number, max: number | undefined, unit: string): SettingsIssue | null {
	if (typeof value !== "number" || !Number.isFinite(value)) return { field, message: "Enter a number." };
	if (!Number.isInteger(value)) return { field, message: "Enter a whole number." };
	if (value < min) return { field, message: `Must be at least ${fmt(min)}${unit}.` };
	if (max !== undefined && value > max) return { field, message: `Must be at most ${fmt(max)}${unit}.` };
	return null;
}

/** Refused in folder names: Obsidian and Windows reject some, the others break links to notes inside. */
const FOLDER_UNSAFE = /[*"<>:|?#^[\]]/;
const hasControlCharacter = (text: string): boolean => [...text].some((c) => c.charCodeAt(0) < 0x20 || c === "\u007f");

function folderIssue(field: keyof DiscoverSettings, value: unknown): SettingsIssue | null {
	if (typeof value !== "string" || !value.replace(/[\\/]/g, "").trim()) return { field, message: "Enter a folder path inside the vault." };
	const parts = value.split(/[\\/]/).map((part) => part.trim());
	if (parts.includes("..")) return { field, message: "The folder must be inside the vault: remove “..”." };
	if (parts.includes(".")) return { field, message: "Remove “.” from the path: name each folder." };
	if (FOLDER_UNSAFE.test(value) || hasControlCharacter(value)) return { field, message: "Folder names cannot contain * \" < > : | ? # ^ [ ] or control characters." };
	return null;
}

/** True for an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
	} catch {
		return false;
	}
}

/**
 * Every problem with `s`, in field order; [] when the settings are usable. Cross-field rules
 * (reserved < max with room for a prompt, min ≤ keep) report on the dependent field, naming the other.
 */
export function validateSettings(s: DiscoverSettings): SettingsIssue[] {
	const issues: SettingsIssue[] = [];
	const push = (issue: SettingsIssue | null): void => {
		if (issue) issues.push(issue);
	};

	const maxIssue = wholeNumberIssue("maxPromptTokens", s.maxPromptTokens, LIMITS.maxPromptTokens.min, LIMITS.maxPromptTokens.max, " tokens");
	push(maxIssue);
	const reservedIssue = wholeNumberIssue("reservedResponseTokens", s.reservedResponseTokens, LIMITS.reservedResponseTokens.min, undefined, " tokens");
	push(reservedIssue);
	if (!maxIssue && !reservedIssue && s.reservedResponseTokens > s.maxPromptTokens - LIMITS.promptRoom) {
		const most = s.maxPromptTokens - LIMITS.promptRoom;
		push({
			field: "reservedResponseTokens",
			related: "maxPromptTokens",
			// Shown under both fields, so it names both.
			message: `${FIELD_LABELS.reservedResponseTokens} (${fmt(s.reservedResponseTokens)}) must leave ${fmt(LIMITS.promptRoom)} of the context size (${fmt(s.maxPromptTokens)}) for the prompt: use at most ${fmt(most)}, or a larger context size.`,
		});
	}

	const keepIssue = wholeNumberIssue("recentMessagesToKeep", s.recentMessagesToKeep, LIMITS.recentMessagesToKeep.min, LIMITS.recentMessagesToKeep.max, "");
	push(keepIssue);
	const minIssue = wholeNumberIssue("minRecentMessagesToKeep", s.minRecentMessagesToKeep, LIMITS.minRecentMessagesToKeep.min, undefined, "");
	push(minIssue);
	if (!keepIssue && !minIssue && s.minRecentMessagesToKeep > s.recentMessagesToKeep) {
		push({
			field: "minRecentMessagesToKeep",
			related: "recentMessagesToKeep",
			message: `${FIELD_LABELS.minRecentMessagesToKeep} (${fmt(s.minRecentMessagesToKeep)}) must not be more than ${FIELD_LABELS.recentMessagesToKeep.toLowerCase()} (${fmt(s.recentMessagesToKeep)}).`,
		});
	}

	if (typeof s.systemPrompt !== "string") push({ field: "systemPrompt", message: "Enter the instructions as text." });
	if (!PROVIDERS.includes(s.provider)) push({ field: "provider", message: "Choose Ollama, an OpenAI-compatible server or Anthropic." });
	if (typeof s.baseUrl !== "string" || !isHttpUrl(s.baseUrl.trim())) {
		push({ field: "baseUrl", message: "Enter an address starting with http:// or https://, such as http://localhost:11434." });
	}
	if (typeof s.model !== "string") push({ field: "model", message: "Enter a model name." });
	if (typeof s.apiKeySecret !== "string" || (s.apiKeySecret !== "" && !SECRET_NAME.test(s.apiKeySecret))) {
		push({ field: "apiKeySecret", message: "Choose a secret: its name uses lowercase letters, digits and dashes." });
	}
	if (typeof s.includeActiveNote !== "boolean") push({ field: "includeActiveNote", message: "Must be on or off." });
	if (typeof s.includeThinkingInExports !== "boolean") push({ field: "includeThinkingInExports", message: "Must be on or off." });
	if (typeof s.loadRemoteImages !== "boolean") push({ field: "loadRemoteImages", message: "Must be on or off." });
	if (!(SEND_KEYS as readonly unknown[]).includes(s.sendKey)) push({ field: "sendKey", message: "Choose Enter or Ctrl/Cmd+Enter." });
	push(folderIssue("sessionsFolder", s.sessionsFolder));
	push(folderIssue("exportFolder", s.exportFolder));
	return issues;
}

/**
 * Replaces each invalid field with its default (the dependent field of a cross-field rule, never
 * the one it is compared with), so valid choices survive. Returns the fields it reset.
 */
export function sanitizeSettings(input: DiscoverSettings): { settings: DiscoverSettings; reset: SettingsIssue[] } {
	const settings: DiscoverSettings = { ...input };
	const reset: SettingsIssue[] = [];
	for (let round = 0; round < 3; round++) {
		const issues = validateSettings(settings);
		if (!issues.length) return { settings, reset };
		for (const issue of issues) {
			(settings as unknown as Record<string, unknown>)[issue.field] = DEFAULT_SETTINGS[issue.field];
			if (!reset.some((r) => r.field === issue.field)) reset.push(issue);
		}
		// The default minimum may still exceed a small (valid) window to keep.
		if (Number.isInteger(settings.recentMessagesToKeep) && settings.minRecentMessagesToKeep > settings.recentMessagesToKeep) {
			settings.minRecentMessagesToKeep = Math.max(1, settings.recentMessagesToKeep);
		}
	}
	// Unreachable with these rules; still, never hand back settings that fail validation.
	return { settings: { ...DEFAULT_SETTINGS, activeSessionId: input.activeSessionId, calibration: input.calibration }, reset };
}
