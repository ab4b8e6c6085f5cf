// Loading and saving data.json: migration, validation, the move of an old plaintext API key into
// secret storage, and data written by a newer Discover kept intact. Engine-safe (no 'obsidian'):
// the plugin hands in its data file and its secret storage.
import { DEFAULT_SETTINGS, FIELD_LABELS, SETTINGS_VERSION, sanitizeSettings, type DiscoverSettings } from "./settings";
import { LEGACY_SECRET_NAME, migrateSettings } from "./migration";
import { formatList, t } from "../i18n";

/** What the store needs from the plugin: its data file and Obsidian's secret storage. */
export interface SettingsHost {
	loadData(): Promise<unknown>;
	saveData(data: unknown): Promise<void>;
	readonly secrets: { getSecret(name: string): string | null; setSecret(name: string, value: string): void };
	now?: () => number;
}

export interface LoadedSettings {
	settings: DiscoverSettings;
	/** Plain-language notes for the person (one notice), empty when all went well. */
	notes: string[];
}

export class SettingsStore {
	/** A plaintext key from old data that secret storage refused: kept in data.json until it moves. */
	private unmovedApiKey: string | undefined;
	/** data.json as a newer Discover saved it (through sync): what this version does not know survives its saves. */
	private newerData: Record<string, unknown> | undefined;

	constructor(private readonly host: SettingsHost) {}

	/**
	 * Reads, migrates and validates data.json. Writes it back once when something changed, never
	 * while a plaintext key would be lost and never over a newer version's data.
	 */
	async load(): Promise<LoadedSettings> {
		const notes: string[] = [];
		let raw: unknown = null;
		try {
			raw = await this.host.loadData();
		} catch {
			// A damaged data.json: start from defaults, but leave the file alone until something is saved.
			notes.push(t("plugin.settingsUnreadable"));
		}
		const migrated = migrateSettings(raw);
		const { settings, reset } = sanitizeSettings(migrated.settings);
		notes.push(...migrated.warnings);
		if (reset.length) {
			notes.push(t("plugin.settingsReset", { fields: formatList(reset.map((r) => FIELD_LABELS[r.field])) }));
		}

		let keySafe = true;
		this.unmovedApiKey = undefined;
		if (migrated.legacyApiKey !== undefined) {
			keySafe = this.storeLegacyApiKey(settings, migrated.legacyApiKey, notes);
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
		if (changed && keySafe && !fromNewer) await this.save(settings);
		return { settings, notes };
	}

	async save(settings: DiscoverSettings): Promise<void> {
		// Never lose a key: one that could not move into secret storage yet is tried again, and
		// written back as it was found until it moves.
		if (this.unmovedApiKey !== undefined && this.storeLegacyApiKey(settings, this.unmovedApiKey)) this.unmovedApiKey = undefined;
		// Settings from a newer version keep its fields and its version number; ours are updated.
		const newer = this.newerData;
		const data: Record<string, unknown> = newer ? { ...newer, ...settings, settingsVersion: newer.settingsVersion } : { ...settings };
		if (this.unmovedApiKey !== undefined) data.apiKey = this.unmovedApiKey;
		await this.host.saveData(data);
	}

	/**
	 * Moves a plaintext key from old data into secret storage (naming it in `settings`); false when
	 * that failed. A secret the person picked that holds another key stays picked (it was set
	 * later); this key is then kept under a name of its own, never written over another.
	 */
	private storeLegacyApiKey(settings: DiscoverSettings, key: string, notes?: string[]): boolean {
		const storage = this.host.secrets;
		const named = settings.apiKeySecret;
		try {
			const existing = named ? storage.getSecret(named) : null;
			if (named && existing === null) storage.setSecret(named, key);
			if (named && (existing === null || existing === key)) return true;
			let name = LEGACY_SECRET_NAME;
			const held = storage.getSecret(name);
			if (held !== null && held !== key) name = `${LEGACY_SECRET_NAME}-${(this.host.now ?? Date.now)().toString(36)}`;
			if (held !== key) storage.setSecret(name, key);
			if (!named || named === LEGACY_SECRET_NAME) settings.apiKeySecret = name;
			else notes?.push(t("plugin.legacyKeyKeptAs", { name }));
			return true;
		} catch {
			notes?.push(t("plugin.legacyKeyNotMoved"));
			return false;
		}
	}
}

/** A fresh copy of the defaults, for the moment before data.json is read. */
export function defaultSettings(): DiscoverSettings {
	return { ...DEFAULT_SETTINGS };
}

function savedVersion(raw: unknown): number | undefined {
	const v = typeof raw === "object" && raw !== null ? (raw as { settingsVersion?: unknown }).settingsVersion : undefined;
	return typeof v === "number" ? v : undefined;
}
