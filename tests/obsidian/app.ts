// App and SecretStorage: the objects a plugin reaches through `this.app`.
import type * as O from "obsidian";
import { InMemoryAdapter } from "./adapter";
import { Events } from "./events";
import { MetadataCache } from "./metadataCache";
import { FileManager } from "./fileManager";
import { Vault } from "./vault";
import { MarkdownView } from "./views";
import { Workspace } from "./workspace";
import type { PluginSettingTab } from "./setting";

const SECRET_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Obsidian's secret storage (1.11.4+): secrets live outside data.json, keyed by a lowercase id. */
export class SecretStorage extends Events implements O.SecretStorage {
	private secrets = new Map<string, string>();

	setSecret(id: string, secret: string): void {
		if (!SECRET_ID.test(id)) throw new Error(`Invalid secret ID "${id}": use lowercase letters, digits and dashes.`);
		this.secrets.set(id, secret);
		this.trigger("changed", id);
	}

	getSecret(id: string): string | null {
		return this.secrets.get(id) ?? null;
	}

	listSecrets(): string[] {
		return [...this.secrets.keys()].sort();
	}
}

export interface RegisteredCommand extends O.Command {
	/** Not Obsidian API: the plugin that added it. */
	pluginId: string;
}

/** Not Obsidian API: the app's command registry (Obsidian's is internal). */
export class Commands {
	readonly commands = new Map<string, RegisteredCommand>();
	constructor(private readonly app: App) {}

	/** Runs a command the way the command palette does; false when it is unavailable. */
	executeCommandById(id: string): boolean {
		return this.run(id, false);
	}

	/** Not Obsidian API: whether the command palette would list the command now. */
	isAvailable(id: string): boolean {
		return this.run(id, true);
	}

	private run(id: string, checking: boolean): boolean {
		const cmd = this.commands.get(id);
		if (!cmd) return false;
		// As in Obsidian: editor commands need a Markdown editor in the active leaf, and
		// editorCheckCallback wins over editorCallback, which wins over the others.
		if (cmd.editorCheckCallback || cmd.editorCallback) {
			const view = this.app.workspace.activeLeaf?.view;
			if (!(view instanceof MarkdownView)) return false;
			const editor = view.editor as unknown as O.Editor;
			const ctx = view as unknown as O.MarkdownView;
			if (cmd.editorCheckCallback) {
				if (!cmd.editorCheckCallback(true, editor, ctx)) return false;
				if (!checking) cmd.editorCheckCallback(false, editor, ctx);
				return true;
			}
			if (!checking) void cmd.editorCallback?.(editor, ctx);
			return true;
		}
		if (checking) return cmd.checkCallback ? cmd.checkCallback(true) === true : cmd.callback !== undefined;
		if (cmd.checkCallback) {
			if (!cmd.checkCallback(true)) return false;
			cmd.checkCallback(false);
			return true;
		}
		if (cmd.callback) {
			void cmd.callback();
			return true;
		}
		return false;
	}
}

/**
 * Not Obsidian API: the settings window (`app.setting`, internal in Obsidian). Like Obsidian's,
 * `open()` shows the window and `openTabById(id)` shows a plugin's tab, keyed by its manifest id.
 */
export class SettingsRegistry {
	readonly tabs: PluginSettingTab[] = [];
	isOpen = false;
	activeTab: PluginSettingTab | undefined;

	open(): void {
		this.isOpen = true;
	}

	openTabById(id: string): PluginSettingTab | undefined {
		const tab = this.tabs.find((t) => t.ownerPlugin.manifest.id === id);
		if (!this.isOpen || !tab) return undefined;
		if (this.activeTab !== tab) {
			this.activeTab?.hide();
			this.activeTab?.containerEl.detach();
		}
		this.activeTab = tab;
		if (typeof document !== "undefined") document.body.appendChild(tab.containerEl);
		tab.display();
		return tab;
	}

	addSettingTab(tab: PluginSettingTab): void {
		this.tabs.push(tab);
	}
	removeSettingTab(tab: PluginSettingTab): void {
		const i = this.tabs.indexOf(tab);
		if (i >= 0) this.tabs.splice(i, 1);
	}
}

export class App implements Pick<O.App, "secretStorage" | "metadataCache" | "isDarkMode" | "loadLocalStorage" | "saveLocalStorage"> {
	vault: Vault;
	workspace: Workspace;
	metadataCache: MetadataCache;
	fileManager: FileManager;
	secretStorage = new SecretStorage();
	/** Not Obsidian API (Obsidian's are internal): commands and the settings tabs. */
	commands = new Commands(this);
	setting = new SettingsRegistry();
	/** Not Obsidian API: the plugins' `obsidian://` handlers by action. */
	readonly protocolHandlers = new Map<string, O.ObsidianProtocolHandler>();
	private storage = new Map<string, unknown>();
	private darkMode = false;

	constructor(opts: { adapter?: InMemoryAdapter; configDir?: string } = {}) {
		this.vault = new Vault(opts.adapter ?? new InMemoryAdapter());
		if (opts.configDir) this.vault.configDir = opts.configDir;
		this.workspace = new Workspace(this);
		this.metadataCache = new MetadataCache(this.vault);
		this.fileManager = new FileManager(this.vault);
	}

	isDarkMode(): boolean {
		return this.darkMode;
	}

	/** Not Obsidian API: switch the theme the way a user would. */
	setDarkMode(dark: boolean): void {
		this.darkMode = dark;
		if (typeof document !== "undefined") {
			document.body.toggleClass("theme-dark", dark);
			document.body.toggleClass("theme-light", !dark);
		}
		this.workspace.trigger("css-change");
	}

	loadLocalStorage(key: string): unknown {
		return this.storage.get(key) ?? null;
	}

	saveLocalStorage(key: string, data: unknown): void {
		if (data === null || data === undefined) this.storage.delete(key);
		else this.storage.set(key, data);
	}
}
