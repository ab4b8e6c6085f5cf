import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, SETTINGS_VERSION, type DiscoverSettings } from "../../src/settings/settings";
import { LEGACY_SECRET_NAME, MIGRATIONS, migrateSettings } from "../../src/settings/migration";
import { agentDigest, withApproval } from "../../src/agents/agentTrust";

const v1: DiscoverSettings = {
	...DEFAULT_SETTINGS,
	maxPromptTokens: 32768,
	reservedResponseTokens: 1024,
	recentMessagesToKeep: 10,
	minRecentMessagesToKeep: 3,
	provider: "openai",
	baseUrl: "http://localhost:1234/v1",
	model: "qwen3-8b",
	apiKeySecret: "lm-studio",
	includeActiveNote: false,
	sessionsFolder: "AI/Chats",
	exportFolder: "AI/Exports",
	activeSessionId: "01JABCDEF",
	calibration: { models: { "qwen3-8b": { ratio: 1.1 } } },
	toolRules: [
		{ tool: "edit_note", folder: "Projects", grantedAt: "2026-11-20T09:30:00.000Z" },
		{ tool: "create_note", folder: "", agent: "Discover/Agents/Writer.md", grantedAt: "2026-11-21T09:30:00.000Z" },
	],
	settingsVersion: SETTINGS_VERSION,
};

describe("migrateSettings", () => {
	it("has one migration per version below the current one", () => {
		for (let v = 0; v < SETTINGS_VERSION; v++) expect(typeof MIGRATIONS[v]).toBe("function");
	});

	it("nothing saved yet: the defaults, silently", () => {
		expect(migrateSettings(null)).toEqual({ settings: DEFAULT_SETTINGS, warnings: [] });
		expect(migrateSettings(undefined).warnings).toEqual([]);
	});

	it("current data comes back unchanged, without warnings", () => {
		expect(migrateSettings(structuredClone(v1))).toEqual({ settings: v1, warnings: [] });
	});

	it("v0 → v1: keeps every field, adds the version, moves the plaintext key out", () => {
		const { settingsVersion: _drop, apiKeySecret: _none, ...rest } = v1;
		const v0 = { ...rest, apiKey: "sk-live-123" };
		const result = migrateSettings(v0);
		expect(result.legacyApiKey).toBe("sk-live-123");
		expect(result.settings).toEqual({ ...v1, apiKeySecret: LEGACY_SECRET_NAME, toolRules: [] });
		expect(JSON.stringify(result.settings)).not.toContain("sk-live-123");
		expect(result.warnings.join(" ")).toMatch(/secret storage/);
	});

	it("v0 → v1 keeps a secret name already chosen and drops an empty key quietly", () => {
		const named = migrateSettings({ apiKey: "k", apiKeySecret: "my-key" });
		expect(named.settings.apiKeySecret).toBe("my-key");
		expect(named.legacyApiKey).toBe("k");
		const empty = migrateSettings({ apiKey: "" });
		expect(empty.legacyApiKey).toBeUndefined();
		expect("apiKey" in empty.settings).toBe(false);
		expect(empty.warnings).toEqual([]);
	});

	it("v1 → v2: data saved before tools loads with read tools allowed and no tool always allowed, silently", () => {
		const { toolsReadAllowed: _a, toolRules: _b, ...rest } = v1;
		const saved = { ...rest, settingsVersion: 1, toolRules: [{ tool: "create_note", grantedAt: "2020-01-01T00:00:00Z" }] };
		expect(migrateSettings(saved)).toEqual({ settings: { ...v1, toolsReadAllowed: true, toolRules: [] }, warnings: [] });
		expect(MIGRATIONS[1]?.({ settingsVersion: 1 }, { warnings: [] })).toEqual({ settingsVersion: 2, toolsReadAllowed: true, toolRules: [] });
	});

	it("v2 → v3: rules saved without a scope become whole-vault rules (nothing widened, nothing lost), silently", () => {
		const saved = { ...v1, settingsVersion: 2, toolRules: [{ tool: "edit_note", grantedAt: "2026-11-20T09:30:00.000Z" }, { tool: "create_note", grantedAt: "2026-11-21T09:30:00.000Z" }] };
		const wholeVault = [
			{ tool: "edit_note", folder: "", grantedAt: "2026-11-20T09:30:00.000Z" },
			{ tool: "create_note", folder: "", grantedAt: "2026-11-21T09:30:00.000Z" },
		];
		expect(migrateSettings(saved)).toEqual({ settings: { ...v1, toolRules: wholeVault }, warnings: [] });
		expect(MIGRATIONS[2]?.({ settingsVersion: 2, toolRules: [{ tool: "edit_note", grantedAt: "2026-11-20T09:30:00.000Z" }] }, { warnings: [] })).toEqual({
			settingsVersion: 3,
			toolRules: [{ tool: "edit_note", folder: "", grantedAt: "2026-11-20T09:30:00.000Z" }],
		});
		// A damaged list is still dropped whole by the field check, with a warning.
		expect(migrateSettings({ ...saved, toolRules: [{ tool: "edit_note" }] }).settings.toolRules).toEqual([]);
	});

	it("always-allowed tool rules survive a reload; a damaged list is dropped whole with a warning", () => {
		expect(migrateSettings(structuredClone({ ...v1, toolsReadAllowed: false })).settings).toMatchObject({ toolsReadAllowed: false, toolRules: v1.toolRules });
		for (const toolRules of [
			[{ tool: "edit_note", folder: "" }],
			[{ tool: "", folder: "", grantedAt: "2026-01-01" }],
			[{ tool: "x", folder: "", grantedAt: "yesterday" }],
			[{ tool: "x", folder: 3, grantedAt: "2026-01-01" }],
			[{ tool: "x", folder: "", agent: "", grantedAt: "2026-01-01" }],
			"edit_note",
		]) {
			const damaged = migrateSettings({ ...v1, toolRules });
			expect(damaged.settings.toolRules).toEqual([]);
			expect(damaged.warnings.join(" ")).toContain("Always allowed tools");
		}
	});

	it("data saved before “Send with” existed sends with Enter, and a damaged choice falls back to Enter", () => {
		const { sendKey: _new, ...before } = v1;
		expect(migrateSettings(before)).toEqual({ settings: { ...v1, sendKey: "enter" }, warnings: [] });
		expect(migrateSettings({ ...v1, sendKey: "mod-enter" }).settings.sendKey).toBe("mod-enter");
		const damaged = migrateSettings({ ...v1, sendKey: "ctrl-space" });
		expect(damaged.settings.sendKey).toBe("enter");
		expect(damaged.warnings.join(" ")).toContain("Send with");
	});

	it("data saved before “Prompt layout” existed follows the server (auto), and a damaged choice falls back to auto", () => {
		const { promptLayout: _new, ...before } = v1;
		expect(migrateSettings(before)).toEqual({ settings: { ...v1, promptLayout: "auto" }, warnings: [] });
		expect(migrateSettings({ ...v1, promptLayout: "cache" }).settings.promptLayout).toBe("cache");
		const damaged = migrateSettings({ ...v1, promptLayout: "fastest" });
		expect(damaged.settings.promptLayout).toBe("auto");
		expect(damaged.warnings.join(" ")).toContain("Prompt layout");
	});

	it("data saved before “Load images from the web in answers” existed keeps remote images waiting for a click", () => {
		const { loadRemoteImages: _new, ...before } = v1;
		expect(migrateSettings(before)).toEqual({ settings: { ...v1, loadRemoteImages: false }, warnings: [] });
		expect(migrateSettings({ ...v1, loadRemoteImages: true }).settings.loadRemoteImages).toBe(true);
		const damaged = migrateSettings({ ...v1, loadRemoteImages: "yes" });
		expect(damaged.settings.loadRemoteImages).toBe(false);
		expect(damaged.warnings.join(" ")).toContain("Load images from the web in answers");
	});

	it("a plaintext key is removed even from data that claims the current version", () => {
		const result = migrateSettings({ ...v1, apiKey: "sk-x" });
		expect(result.legacyApiKey).toBe("sk-x");
		expect(JSON.stringify(result.settings)).not.toContain("sk-x");
	});

	it("wrong-typed fields fall back to their defaults with a warning; valid ones stay", () => {
		const result = migrateSettings({ ...v1, maxPromptTokens: "8192", provider: "gemini", includeActiveNote: "yes", calibration: [1], activeSessionId: 5 });
		expect(result.settings).toEqual({
			...v1,
			maxPromptTokens: DEFAULT_SETTINGS.maxPromptTokens,
			provider: DEFAULT_SETTINGS.provider,
			includeActiveNote: DEFAULT_SETTINGS.includeActiveNote,
			calibration: undefined,
			activeSessionId: undefined,
		});
		expect(result.warnings).toHaveLength(5);
		expect(result.warnings[0]).toMatch(/^Context size: the saved value "8192" was damaged; the default was used\.$/);
	});

	it("garbage (not an object) gives the defaults and says so", () => {
		for (const raw of [42, "text", [1, 2], true]) {
			const result = migrateSettings(raw);
			expect(result.settings).toEqual(DEFAULT_SETTINGS);
			expect(result.warnings).toHaveLength(1);
		}
	});

	it("data from a newer version keeps the fields it understands and warns", () => {
		const result = migrateSettings({ ...v1, settingsVersion: SETTINGS_VERSION + 1, futureThing: true });
		expect(result.settings).toEqual({ ...v1, settingsVersion: SETTINGS_VERSION });
		expect(result.warnings.join(" ")).toMatch(/newer version/);
	});

	it("never throws, always yields current, well-typed settings, never keeps a key", () => {
		fc.assert(
			fc.property(fc.oneof(fc.anything(), fc.dictionary(fc.constantFrom(...Object.keys(v1), "apiKey", "x"), fc.anything())), (raw) => {
				const { settings } = migrateSettings(raw);
				expect(settings.settingsVersion).toBe(SETTINGS_VERSION);
				expect(typeof settings.maxPromptTokens).toBe("number");
				expect(["ollama", "openai", "anthropic"]).toContain(settings.provider);
				expect("apiKey" in settings).toBe(false);
			}),
			{ numRuns: 500 },
		);
	});
});

describe("vault search settings", () => {
	it("data saved before vault search existed loads with it on and no folders left out", () => {
		const { vaultIndex: _a, indexExcludedFolders: _b, ...before } = { ...DEFAULT_SETTINGS, model: "llama3.2" };
		expect(migrateSettings(before)).toEqual({ settings: { ...DEFAULT_SETTINGS, model: "llama3.2" }, warnings: [] });
	});

	it("a damaged switch or folder list falls back to the default with a warning, keeping the rest", () => {
		const result = migrateSettings({ ...DEFAULT_SETTINGS, model: "m", vaultIndex: "yes", indexExcludedFolders: [1, 2] });
		expect(result.settings).toEqual({ ...DEFAULT_SETTINGS, model: "m" });
		expect(result.warnings).toHaveLength(2);
		expect(migrateSettings({ ...DEFAULT_SETTINGS, vaultIndex: false, indexExcludedFolders: ["Private", "Work/Old"] }).settings).toMatchObject({ vaultIndex: false, indexExcludedFolders: ["Private", "Work/Old"] });
	});
});

describe("agent approvals", () => {
	const agent = { path: "Discover/Agents/Writer.md", name: "Writer", tools: ["read_note"], sources: [], instructions: "Verse." };

	it("data saved before approvals existed approves no agent: each agent note already in the folder asks once", () => {
		const { agentApprovals: _none, ...before } = { ...v1 };
		const result = migrateSettings(structuredClone(before));
		expect(result.settings.agentApprovals).toEqual([]);
		expect(result.warnings).toEqual([]);
	});

	it("approvals survive a reload; a forged or damaged list is dropped whole with a warning", () => {
		const approvals = withApproval([], agent, new Date("2026-11-28T00:00:00Z"));
		expect(migrateSettings(structuredClone({ ...v1, agentApprovals: approvals })).settings.agentApprovals).toEqual(approvals);
		const forged = [{ ...approvals[0]!, fields: { ...approvals[0]!.fields, baseUrl: "https://evil.example" } }];
		for (const agentApprovals of [forged, [{ path: agent.path, digest: agentDigest(agent) }], "all"]) {
			const damaged = migrateSettings({ ...v1, agentApprovals });
			expect(damaged.settings.agentApprovals).toEqual([]);
			expect(damaged.warnings.join(" ")).toContain("Approved agents");
		}
	});
});
