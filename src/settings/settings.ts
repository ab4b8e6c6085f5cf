// Discover's saved settings: their type, defaults and validation. Engine-safe: never imports
// 'obsidian' (scripts and tests use it headless). Migration of saved data: settingsMigration.ts.
import { DEFAULT_CHAT_SETTINGS, type ChatSettings } from "../core/types";
import { DEFAULT_OLLAMA_IMAGE_TOKENS } from "../core/imageSize";
import { DEFAULT_BASE_URLS, PROVIDERS, type ProviderName } from "../providers/types";
import type { AlwaysRule } from "../tools/permissions";
import { isModelBudgets, type ModelBudget } from "./modelBudget";
import { isAgentApprovals, type AgentApproval } from "../agents/agentTrust";
import { t, type PlainKey } from "../i18n";
import { DEFAULT_CURRENCY, isCurrencyCode, isModelPrices, type ModelPrice } from "./prices";
import { isMcpServers, type McpServerSetting } from "./mcpServers";
import { DEFAULT_PROMPT_LAYOUT, isPromptLayout, type PromptLayout } from "./promptLayout";

/** How a message is sent: Enter (Shift+Enter adds a line), or Ctrl/Cmd+Enter (Enter adds a line, for long prompts). */
export const SEND_KEYS = ["enter", "mod-enter"] as const;
export type SendKey = (typeof SEND_KEYS)[number];

/** The version written by this code; migrateSettings brings older data up to it. */
export const SETTINGS_VERSION = 3;

// The tool rounds are not a saved setting yet (the engine's default holds until the panel offers tools);
// the image rule is derived from the provider (wiring), not saved.
export interface DiscoverSettings extends Omit<ChatSettings, "maxToolRounds" | "imageTokens"> {
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
	/** Fill the window, or keep each prompt the next one's prefix for the server's cache (promptLayout.ts). */
	promptLayout: PromptLayout;
	sessionsFolder: string;
	exportFolder: string;
	/** Exported notes show each answer's thinking (folded). Off: thinking is the model's scratch work. */
	includeThinkingInExports: boolean;
	/** Tokens one image takes in an Ollama model's context (OpenAI and Anthropic price images by their own rules). */
	ollamaImageTokens: number;
	/** Images embedded in the active note or selection (`![[diagram.png]]`) go with the message. Off: they cost budget. */
	sendNoteImages: boolean;
	/** The vault index and `@vault` (the whole feature); off: no index is built, kept or searched. */
	vaultIndex: boolean;
	/** Folders the vault index leaves out (the chats and export folders always are). */
	indexExcludedFolders: string[];
	/** Notes longer than this many megabytes (of characters) are indexed in part: their start only. */
	indexNoteLimitMb: number;
	/** PDFs join the vault index (their text, page by page, read in the background); off by default. */
	indexPdfs: boolean;
	/** Read tools (search, list, read notes) run without asking; off: every tool call asks. */
	toolsReadAllowed: boolean;
	/** Tools the person chose to "always allow", with when; listed and revocable in the settings tab. */
	toolRules: AlwaysRule[];
	/** Prices per million tokens per model, entered by the person (never fetched): they give answers a cost. */
	modelPrices: ModelPrice[];
	/** The currency those prices are in (ISO 4217, e.g. "USD"). */
	priceCurrency: string;
	/** Budget settings kept per model (by name): a model's own context size and the like; the rest follow the general ones. */
	modelBudgets: Record<string, ModelBudget>;
	/** Where the agent notes live (one Markdown note each). */
	agentsFolder: string;
	/** The agent (its note's path) the last chat used: a new chat starts with it. */
	lastAgent?: string;
	/**
	 * The agents the person approved on the review card (or made with "New agent"): each note's path
	 * and the digest of its privileged fields. Kept here, never in the note, so a change to the note
	 * (by sync, by a model) cannot approve itself.
	 */
	agentApprovals: AgentApproval[];
	/** The MCP servers (Settings → MCP servers); a secret value is saved as its secret's name, never as the value. */
	mcpServers: McpServerSetting[];
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
	promptLayout: DEFAULT_PROMPT_LAYOUT,
	sessionsFolder: "Discover/Chats",
	exportFolder: "Discover/Exports",
	includeThinkingInExports: false,
	ollamaImageTokens: DEFAULT_OLLAMA_IMAGE_TOKENS,
	sendNoteImages: false,
	vaultIndex: true,
	indexExcludedFolders: [],
	indexNoteLimitMb: 4,
	indexPdfs: false,
	toolsReadAllowed: true,
	toolRules: [],
	modelPrices: [],
	priceCurrency: DEFAULT_CURRENCY,
	modelBudgets: {},
	agentsFolder: "Discover/Agents",
	agentApprovals: [],
	mcpServers: [],
	settingsVersion: SETTINGS_VERSION,
};

/** What each setting is called in the settings tab; messages about a field use these names. */
const FIELD_LABEL_KEYS: Record<keyof DiscoverSettings, PlainKey> = {
	maxPromptTokens: "field.maxPromptTokens",
	reservedResponseTokens: "field.reservedResponseTokens",
	recentMessagesToKeep: "field.recentMessagesToKeep",
	minRecentMessagesToKeep: "field.minRecentMessagesToKeep",
	systemPrompt: "field.systemPrompt",
	provider: "field.provider",
	baseUrl: "field.baseUrl",
	model: "field.model",
	apiKeySecret: "field.apiKeySecret",
	includeActiveNote: "field.includeActiveNote",
	loadRemoteImages: "field.loadRemoteImages",
	sendKey: "field.sendKey",
	promptLayout: "field.promptLayout",
	sessionsFolder: "field.sessionsFolder",
	exportFolder: "field.exportFolder",
	includeThinkingInExports: "field.includeThinkingInExports",
	ollamaImageTokens: "field.ollamaImageTokens",
	sendNoteImages: "field.sendNoteImages",
	vaultIndex: "field.vaultIndex",
	indexExcludedFolders: "field.indexExcludedFolders",
	indexNoteLimitMb: "field.indexNoteLimitMb",
	indexPdfs: "field.indexPdfs",
	toolsReadAllowed: "field.toolsReadAllowed",
	toolRules: "field.toolRules",
	modelPrices: "field.modelPrices",
	priceCurrency: "field.priceCurrency",
	modelBudgets: "field.modelBudgets",
	agentsFolder: "field.agentsFolder",
	lastAgent: "field.lastAgent",
	agentApprovals: "field.agentApprovals",
	mcpServers: "field.mcpServers",
	activeSessionId: "field.activeSessionId",
	calibration: "field.calibration",
	settingsVersion: "field.settingsVersion",
};

/** What each setting is called, in the person's language: read when shown (getters), never at load. */
export const FIELD_LABELS = {} as Record<keyof DiscoverSettings, string>;
for (const [field, key] of Object.entries(FIELD_LABEL_KEYS)) Object.defineProperty(FIELD_LABELS, field, { get: () => t(key), enumerable: true });

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


function wholeNumberIssue(field: keyof DiscoverSettings, value: unknown, min: number, max: number | undefined, tokens: boolean): SettingsIssue | null {
	if (typeof value !== "number" || !Number.isFinite(value)) return { field, message: t("valid.number") };
	if (!Number.isInteger(value)) return { field, message: t("valid.wholeNumber") };
	if (value < min) return { field, message: tokens ? t("valid.atLeastTokens", { min }) : t("valid.atLeast", { min }) };
	if (max !== undefined && value > max) return { field, message: tokens ? t("valid.atMostTokens", { max }) : t("valid.atMost", { max }) };
	return null;
}

/** Refused in folder names: Obsidian and Windows reject some, the others break links to notes inside. */
const FOLDER_UNSAFE = /[*"<>:|?#^[\]]/;
const hasControlCharacter = (text: string): boolean => [...text].some((c) => c.charCodeAt(0) < 0x20 || c === "\u007f");

function folderIssue(field: keyof DiscoverSettings, value: unknown): SettingsIssue | null {
	if (typeof value !== "string" || !value.replace(/[\\/]/g, "").trim()) return { field, message: t("valid.folderEmpty") };
	const parts = value.split(/[\\/]/).map((part) => part.trim());
	if (parts.includes("..")) return { field, message: t("valid.folderOutside") };
	if (parts.includes(".")) return { field, message: t("valid.folderDot") };
	if (FOLDER_UNSAFE.test(value) || hasControlCharacter(value)) return { field, message: t("valid.folderChars") };
	return null;
}

/** A saved "always allow" rule: a tool name, its folder ("" = the whole vault), an optional agent note and a real ISO date. */
export function isToolRule(value: unknown): value is AlwaysRule {
	if (typeof value !== "object" || value === null) return false;
	const r = value as Partial<AlwaysRule>;
	return (
		typeof r.tool === "string" &&
		r.tool.trim() !== "" &&
		typeof r.folder === "string" &&
		(r.agent === undefined || (typeof r.agent === "string" && r.agent.trim() !== "")) &&
		typeof r.grantedAt === "string" &&
		!Number.isNaN(Date.parse(r.grantedAt))
	);
}

export const isToolRules = (value: unknown): value is AlwaysRule[] => Array.isArray(value) && value.every(isToolRule);

/** True for an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
	} catch {
		return false;
	}
}

/** The per-note index limit the settings tab accepts, in MB. */
export const INDEX_NOTE_LIMIT_MB = { min: 1, max: 256 };

/** A per-note index limit in MB: a number from INDEX_NOTE_LIMIT_MB.min to .max (fractions allowed). */
export function isIndexNoteLimit(value: unknown): value is number {
	return typeof value === "number" && Number.isFinite(value) && value >= INDEX_NOTE_LIMIT_MB.min && value <= INDEX_NOTE_LIMIT_MB.max;
}

/** The folders left out of the vault index: a list of folder paths, each one valid. */
function excludedFoldersIssue(value: unknown): SettingsIssue | null {
	if (!Array.isArray(value)) return { field: "indexExcludedFolders", message: t("valid.folderList") };
	for (const folder of value) {
		const issue = folderIssue("indexExcludedFolders", folder);
		if (issue) return issue;
	}
	return null;
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

	const maxIssue = wholeNumberIssue("maxPromptTokens", s.maxPromptTokens, LIMITS.maxPromptTokens.min, LIMITS.maxPromptTokens.max, true);
	push(maxIssue);
	const reservedIssue = wholeNumberIssue("reservedResponseTokens", s.reservedResponseTokens, LIMITS.reservedResponseTokens.min, undefined, true);
	push(reservedIssue);
	if (!maxIssue && !reservedIssue && s.reservedResponseTokens > s.maxPromptTokens - LIMITS.promptRoom) {
		const most = s.maxPromptTokens - LIMITS.promptRoom;
		push({
			field: "reservedResponseTokens",
			related: "maxPromptTokens",
			// Shown under both fields, so it names both.
			message: t("valid.reserveRoom", { reserved: FIELD_LABELS.reservedResponseTokens, value: s.reservedResponseTokens, room: LIMITS.promptRoom, size: s.maxPromptTokens, most }),
		});
	}

	push(wholeNumberIssue("ollamaImageTokens", s.ollamaImageTokens, 1, 100_000, true));
	const keepIssue = wholeNumberIssue("recentMessagesToKeep", s.recentMessagesToKeep, LIMITS.recentMessagesToKeep.min, LIMITS.recentMessagesToKeep.max, false);
	push(keepIssue);
	const minIssue = wholeNumberIssue("minRecentMessagesToKeep", s.minRecentMessagesToKeep, LIMITS.minRecentMessagesToKeep.min, undefined, false);
	push(minIssue);
	if (!keepIssue && !minIssue && s.minRecentMessagesToKeep > s.recentMessagesToKeep) {
		push({
			field: "minRecentMessagesToKeep",
			related: "recentMessagesToKeep",
			message: t("valid.minAboveKeep", { min: FIELD_LABELS.minRecentMessagesToKeep, value: s.minRecentMessagesToKeep, keep: FIELD_LABELS.recentMessagesToKeep, keepValue: s.recentMessagesToKeep }),
		});
	}

	if (typeof s.systemPrompt !== "string") push({ field: "systemPrompt", message: t("valid.systemPrompt") });
	if (!PROVIDERS.includes(s.provider)) push({ field: "provider", message: t("valid.provider") });
	if (typeof s.baseUrl !== "string" || !isHttpUrl(s.baseUrl.trim())) {
		push({ field: "baseUrl", message: t("valid.baseUrl") });
	}
	if (typeof s.model !== "string") push({ field: "model", message: t("valid.model") });
	if (typeof s.apiKeySecret !== "string" || (s.apiKeySecret !== "" && !SECRET_NAME.test(s.apiKeySecret))) {
		push({ field: "apiKeySecret", message: t("valid.secret") });
	}
	if (typeof s.includeActiveNote !== "boolean") push({ field: "includeActiveNote", message: t("valid.onOff") });
	if (typeof s.includeThinkingInExports !== "boolean") push({ field: "includeThinkingInExports", message: t("valid.onOff") });
	if (typeof s.sendNoteImages !== "boolean") push({ field: "sendNoteImages", message: t("valid.onOff") });
	if (typeof s.loadRemoteImages !== "boolean") push({ field: "loadRemoteImages", message: t("valid.onOff") });
	if (!(SEND_KEYS as readonly unknown[]).includes(s.sendKey)) push({ field: "sendKey", message: t("valid.sendKey") });
	if (!isPromptLayout(s.promptLayout)) push({ field: "promptLayout", message: t("valid.promptLayout") });
	if (typeof s.toolsReadAllowed !== "boolean") push({ field: "toolsReadAllowed", message: t("valid.onOff") });
	if (!isToolRules(s.toolRules)) push({ field: "toolRules", message: t("valid.toolRules") });
	if (!isModelPrices(s.modelPrices)) push({ field: "modelPrices", message: t("valid.prices") });
	if (!isCurrencyCode(s.priceCurrency)) push({ field: "priceCurrency", message: t("valid.currency") });
	push(folderIssue("sessionsFolder", s.sessionsFolder));
	push(folderIssue("exportFolder", s.exportFolder));
	push(folderIssue("agentsFolder", s.agentsFolder));
	if (!isModelBudgets(s.modelBudgets)) push({ field: "modelBudgets", message: t("valid.modelBudgets") });
	if (typeof s.vaultIndex !== "boolean") push({ field: "vaultIndex", message: t("valid.onOff") });
	if (typeof s.indexPdfs !== "boolean") push({ field: "indexPdfs", message: t("valid.onOff") });
	if (!isAgentApprovals(s.agentApprovals)) push({ field: "agentApprovals", message: t("valid.agentApprovals") });
	if (!isMcpServers(s.mcpServers)) push({ field: "mcpServers", message: t("valid.mcpServers") });
	push(excludedFoldersIssue(s.indexExcludedFolders));
	if (!isIndexNoteLimit(s.indexNoteLimitMb)) push({ field: "indexNoteLimitMb", message: t("valid.indexNoteLimit") });
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
	return { settings: { ...DEFAULT_SETTINGS, activeSessionId: input.activeSessionId, calibration: input.calibration, lastAgent: input.lastAgent }, reset };
}
