// Brings saved data.json up to the current settings version. Engine-safe (no 'obsidian'): pure
// data in, data out. One function per version step; damaged fields fall back to defaults with a
// warning; nothing throws; a plaintext API key is handed back so the plugin moves it to secret storage.
import { RETIRED_DEFAULT_SYSTEM_PROMPTS } from "../core/types";
import { PROVIDERS } from "../providers/types";
import { DEFAULT_SETTINGS, FIELD_LABELS, isIndexNoteLimit, isToolRules, SEND_KEYS, SETTINGS_VERSION, type DiscoverSettings } from "./settings";
import { isCurrencyCode, isModelPrices } from "./prices";
import { t } from "../i18n";
import { isModelBudgets } from "./modelBudget";
import { isAgentApprovals } from "../agents/agentTrust";
import { isMcpServers } from "./mcpServers";
import { isPromptLayout } from "./promptLayout";

type Raw = Record<string, unknown>;

export interface MigrationResult {
	settings: DiscoverSettings;
	/** Plain-language notes about what was changed or could not be kept. */
	warnings: string[];
	/** A plaintext API key found in old data: store it in secret storage, never in data.json. */
	legacyApiKey?: string;
}

/** The secret name a migrated plaintext key is stored under when none was chosen. */
export const LEGACY_SECRET_NAME = "discover-api-key";

interface StepContext {
	warnings: string[];
	legacyApiKey?: string;
}

/** Takes a plaintext key out of the data, wherever it sits, so it can never be saved again. */
function extractApiKey(raw: Raw, ctx: StepContext): Raw {
	if (!("apiKey" in raw)) return raw;
	const { apiKey, ...rest } = raw;
	if (typeof apiKey === "string" && apiKey.trim()) {
		ctx.legacyApiKey = apiKey.trim();
		if (typeof rest.apiKeySecret !== "string" || !rest.apiKeySecret) rest.apiKeySecret = LEGACY_SECRET_NAME;
		ctx.warnings.push(t("migration.keyMoved"));
	}
	return rest;
}

/**
 * v0 → v1. v0 is what Discover saved before settings carried a version: the same fields, plus
 * the API key in plaintext (`apiKey`).
 */
function migrateV0toV1(raw: Raw, ctx: StepContext): Raw {
	return { ...extractApiKey(raw, ctx), settingsVersion: 1 };
}

/**
 * v1 → v2: vault tools arrive. Read tools run unasked (toolsReadAllowed) and no tool is always
 * allowed (toolRules: []) — the defaults, so data from before tools never grants a write.
 */
function migrateV1toV2(raw: Raw): Raw {
	return { ...raw, toolsReadAllowed: DEFAULT_SETTINGS.toolsReadAllowed, toolRules: [], settingsVersion: 2 };
}

/**
 * v2 → v3: "Always allow" rules gain a scope. A rule saved before had none and allowed its tool
 * everywhere, so it becomes a whole-vault rule (folder ""), shown as such in the settings; nothing
 * is widened or silently narrowed. Rules that are not objects are left for the field check.
 */
function migrateV2toV3(raw: Raw): Raw {
	const rules = raw.toolRules;
	const toolRules = Array.isArray(rules) ? rules.map((r: unknown) => (typeof r === "object" && r !== null && !("folder" in r) ? { ...r, folder: "" } : r)) : rules;
	return { ...raw, toolRules, settingsVersion: 3 };
}

/** MIGRATIONS[n] turns version-n data into version n+1. Add the next step here; never edit old ones. */
export const MIGRATIONS: Record<number, (raw: Raw, ctx: StepContext) => Raw> = {
	0: migrateV0toV1,
	1: migrateV1toV2,
	2: migrateV2toV3,
};

type FieldCheck = (value: unknown) => boolean;
const isString: FieldCheck = (v) => typeof v === "string";
const isNumber: FieldCheck = (v) => typeof v === "number" && Number.isFinite(v);

/** The type each saved field must have; a value of another type falls back to the default. */
const FIELD_TYPES: { [K in keyof DiscoverSettings]-?: FieldCheck } = {
	maxPromptTokens: isNumber,
	reservedResponseTokens: isNumber,
	recentMessagesToKeep: isNumber,
	minRecentMessagesToKeep: isNumber,
	systemPrompt: isString,
	provider: (v) => typeof v === "string" && (PROVIDERS as readonly string[]).includes(v),
	baseUrl: isString,
	model: isString,
	apiKeySecret: isString,
	includeActiveNote: (v) => typeof v === "boolean",
	loadRemoteImages: (v) => typeof v === "boolean",
	sendKey: (v) => (SEND_KEYS as readonly unknown[]).includes(v),
	// Added without a version step: absent means "auto", the default.
	promptLayout: isPromptLayout,
	sessionsFolder: isString,
	exportFolder: isString,
	includeThinkingInExports: (v) => typeof v === "boolean",
	ollamaImageTokens: isNumber,
	sendNoteImages: (v) => typeof v === "boolean",
	vaultIndex: (v) => typeof v === "boolean",
	indexExcludedFolders: (v) => Array.isArray(v) && v.every((f) => typeof f === "string"),
	// Added without a version step: absent means the default (4 MB), what the index used before it was a setting.
	indexNoteLimitMb: isIndexNoteLimit,
	// Added without a version step: absent means off, the default (PDFs were never indexed before).
	indexPdfs: (v) => typeof v === "boolean",
	toolsReadAllowed: (v) => typeof v === "boolean",
	// A damaged list is dropped whole: losing a grant only means being asked again.
	toolRules: isToolRules,
	// Added without a version step: absent means none entered (the default), so older data needs no migration.
	modelPrices: isModelPrices,
	priceCurrency: isCurrencyCode,
	// A damaged list is dropped whole: the models follow the general budget again.
	modelBudgets: isModelBudgets,
	agentsFolder: isString,
	lastAgent: isString,
	// Added without a version step: absent means no agent approved yet, so every agent note already
	// in the folder asks once (an upgrade approves nothing). A damaged list is dropped whole: each
	// agent then asks again, which loses no note.
	agentApprovals: isAgentApprovals,
	// Added without a version step: absent means no server. A damaged list falls back to none, with a
	// warning naming it (data.json still holds it until the next save).
	mcpServers: isMcpServers,
	activeSessionId: isString,
	calibration: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
	settingsVersion: isNumber,
};

const OPTIONAL = new Set<keyof DiscoverSettings>(["activeSessionId", "calibration", "lastAgent"]);

function versionOf(raw: Raw): number {
	const v = raw.settingsVersion;
	return typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : 0;
}

function describe(value: unknown): string {
	const text = JSON.stringify(value) ?? typeof value;
	return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** Keeps every well-typed known field; defaults (with a warning) for the rest. */
function coerce(raw: Raw, warnings: string[]): DiscoverSettings {
	const settings: DiscoverSettings = { ...DEFAULT_SETTINGS };
	const out = settings as unknown as Raw;
	for (const key of Object.keys(FIELD_TYPES) as (keyof DiscoverSettings)[]) {
		if (!(key in raw) || raw[key] === undefined) continue;
		const value = raw[key];
		if (FIELD_TYPES[key](value)) out[key] = value;
		else if (OPTIONAL.has(key)) warnings.push(t("migration.cleared", { field: FIELD_LABELS[key] }));
		else warnings.push(t("migration.defaulted", { field: FIELD_LABELS[key], value: describe(value) }));
	}
	const unknown = Object.keys(raw).filter((k) => !(k in FIELD_TYPES));
	if (unknown.length) warnings.push(t("migration.unknown", { names: unknown.join(", ") }));
	// A default prompt never edited follows the default (today's asks for the person's language).
	if (RETIRED_DEFAULT_SYSTEM_PROMPTS.includes(settings.systemPrompt)) settings.systemPrompt = DEFAULT_SETTINGS.systemPrompt;
	settings.settingsVersion = SETTINGS_VERSION;
	return settings;
}

/** Turns whatever data.json held (null, garbage, old or current data) into current settings. */
export function migrateSettings(input: unknown): MigrationResult {
	const ctx: StepContext = { warnings: [] };
	if (input === null || input === undefined) return { settings: { ...DEFAULT_SETTINGS }, warnings: [] };
	if (typeof input !== "object" || Array.isArray(input)) {
		return { settings: { ...DEFAULT_SETTINGS }, warnings: [t("migration.unreadable")] };
	}
	let raw: Raw = { ...(input as Raw) };
	let version = versionOf(raw);
	if (version > SETTINGS_VERSION) {
		ctx.warnings.push(t("migration.newer", { version: String(version) }));
	}
	while (version < SETTINGS_VERSION) {
		const step = MIGRATIONS[version];
		if (!step) break;
		try {
			raw = step(raw, ctx);
		} catch {
			ctx.warnings.push(t("migration.stepFailed", { version: String(version) }));
		}
		version++;
	}
	// Whatever the version said, a plaintext key never survives into the settings.
	raw = extractApiKey(raw, ctx);
	const settings = coerce(raw, ctx.warnings);
	const result: MigrationResult = { settings, warnings: ctx.warnings };
	if (ctx.legacyApiKey !== undefined) result.legacyApiKey = ctx.legacyApiKey;
	return result;
}
