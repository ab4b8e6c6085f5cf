// Lifecycle only: load, migrate and validate settings, register the settings tab, the panel and its commands.
// Everything heavy (the engine, providers, sessions) is built when the panel first opens.
import { Notice, Plugin } from "obsidian";
import { DEFAULT_SETTINGS, FIELD_LABELS, SETTINGS_VERSION, sanitizeSettings, type DiscoverSettings } from "./settings";
import { LEGACY_SECRET_NAME, migrateSettings } from "./ui/settingsMigration";
import { DiscoverSettingTab } from "./ui/SettingTab";
import { registerDiscoverCommands } from "./wiring/commands";
import { refreshDiscoverPanels, registerDiscoverPanel } from "./wiring/registerPanel";

export default class DiscoverPlugin extends Plugin {
	override settings: DiscoverSettings = { ...DEFAULT_SETTINGS };
	/** A plaintext key from old data that secret storage refused: kept in data.json until it moves. */
	private unmovedApiKey: string | undefined;
	private settingTab: DiscoverSettingTab | undefined;
	/** data.json as a newer Discover saved it (through sync): what this version does not know survives its saves. */
	private newerData: Record<string, unknown> | undefined;

	override async onload(): Promise<void> {
		await this.loadSettings();
		this.settingTab = new DiscoverSettingTab(this.app, this);
		this.addSettingTab(this.settingTab);
		// The chat panel: view, ribbon icon and "Open chat"; the view builds its engine on first open.
		registerDiscoverPanel(this);
		// Commands that act on the panel, and "Ask about selection" in the editor's menu.
		registerDiscoverCommands(this);
	}

	async loadSettings(): Promise<void> {
		const notes: string[] = [];
		let raw: unknown = null;
		try {
			raw = await this.loadData();
		} catch {
			// A damaged data.json: start from defaults, but leave the file alone until something is saved.
			notes.push("The settings file could not be read; the defaults are in use.");
		}
		const migrated = migrateSettings(raw);
		const { settings, reset } = sanitizeSettings(migrated.settings);
		this.settings = settings;
		notes.push(...migrated.warnings);
		if (reset.length) {
			notes.push(`Some settings were invalid and were reset to their defaults: ${reset.map((r) => FIELD_LABELS[r.field]).join(", ")}.`);
		}

		let keySafe = true;
		this.unmovedApiKey = undefined;
		if (migrated.legacyApiKey !== undefined) {
			keySafe = this.storeLegacyApiKey(migrated.legacyApiKey, notes);
			if (!keySafe) this.unmovedApiKey = migrated.legacyApiKey;
		}

		const version = savedVersion(raw);
		this.newerData = undefined;
		if (version !== undefined && version > SETTINGS_VERSION && typeof raw === "object" && raw !== null) {
			// Never a plaintext key, which must leave data.json whatever version wrote it.
			const { apiKey: _key, ...rest } = raw as Record<string, unknown>;
			this.newerData = rest;
		}
		const changed = raw !== null && (reset.length > 0 || migrated.warnings.length > 0 || version !== SETTINGS_VERSION);
		// Data from a newer Discover (another device, through sync) is not rewritten: that would drop
		// what this version does not know. A plaintext key is the exception: it must leave data.json.
		const fromNewer = version !== undefined && version > SETTINGS_VERSION && migrated.legacyApiKey === undefined;
		// Saved once, so the notice below appears once; never while a plaintext key would be lost.
		if (changed && keySafe && !fromNewer) await this.saveSettings();
		if (notes.length) new Notice(`Discover: ${notes.join(" ")}`, 10000);
	}

	/**
	 * Moves a plaintext key from old data into secret storage; false when that failed. A secret the
	 * person picked that holds another key stays picked (it was set later); this key is then kept
	 * under a name of its own, never written over another.
	 */
	private storeLegacyApiKey(key: string, notes?: string[]): boolean {
		const storage = this.app.secretStorage;
		const named = this.settings.apiKeySecret;
		try {
			const existing = named ? storage.getSecret(named) : null;
			if (named && existing === null) storage.setSecret(named, key);
			if (named && (existing === null || existing === key)) return true;
			let name = LEGACY_SECRET_NAME;
			const held = storage.getSecret(name);
			if (held !== null && held !== key) name = `${LEGACY_SECRET_NAME}-${Date.now().toString(36)}`;
			if (held !== key) storage.setSecret(name, key);
			if (!named || named === LEGACY_SECRET_NAME) this.settings.apiKeySecret = name;
			else notes?.push(`Your old API key was kept in secret storage as “${name}”; the secret you chose stays in use.`);
			return true;
		} catch {
			notes?.push("The API key could not be moved into secret storage yet; it stays in the plugin's data file and is moved the next time settings are saved.");
			return false;
		}
	}

	/** Sync (or another device) changed data.json: take the new settings. */
	override async onExternalSettingsChange(): Promise<void> {
		await this.loadSettings();
		// An open settings tab shows what sync brought, not the values it was opened with.
		const tab = this.settingTab;
		if (tab && tab.containerEl.isConnected && tab.containerEl.hasChildNodes()) tab.redraw();
		refreshDiscoverPanels(this);
	}

	async saveSettings(): Promise<void> {
		// Never lose a key: one that could not move into secret storage yet is tried again, and
		// written back as it was found until it moves.
		if (this.unmovedApiKey !== undefined && this.storeLegacyApiKey(this.unmovedApiKey)) this.unmovedApiKey = undefined;
		// Settings from a newer version keep its fields and its version number; ours are updated.
		const newer = this.newerData;
		const data: Record<string, unknown> = newer ? { ...newer, ...this.settings, settingsVersion: newer.settingsVersion } : { ...this.settings };
		if (this.unmovedApiKey !== undefined) data.apiKey = this.unmovedApiKey;
		await this.saveData(data);
		refreshDiscoverPanels(this);
	}
}

function savedVersion(raw: unknown): number | undefined {
	const v = typeof raw === "object" && raw !== null ? (raw as { settingsVersion?: unknown }).settingsVersion : undefined;
	return typeof v === "number" ? v : undefined;
}
