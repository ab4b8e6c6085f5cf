// Lifecycle only: load the settings, register the settings tab, the panel and its commands.
// Everything heavy (the engine, providers, sessions) is built when the panel first opens.
import { getLanguage, Notice, Plugin } from "obsidian";
import { setLanguage, t } from "./i18n";
import type { DiscoverSettings } from "./settings/settings";
import { defaultSettings, SettingsStore } from "./settings/settingsStore";
import { DiscoverSettingTab } from "./ui/settings/SettingTab";
import { pluginAdapterFactory } from "./wiring/factories";
import { registerDiscoverCommands } from "./wiring/commands";
import { registerEditWithDiscover } from "./wiring/editorCommands";
import { refreshDiscoverPanels, registerDiscoverPanel } from "./wiring/registerPanel";
import { NoteIndexService } from "./wiring/noteIndexService";
import { pluginDir } from "./wiring/pluginFile";
import { showIndexProgress } from "./ui/indexProgress";
import type { VaultSearchPort } from "./ui/ports";
import type { AgentsPort } from "./ui/agents/agentsPort";
import { AgentLibrary } from "./wiring/agentLibrary";
import { OAUTH_ACTION, OAuthRedirects } from "./wiring/oauthRedirect";
import { closePdfWorkers } from "./context/pdfWorker";
import type { McpHubPort } from "./ui/mcpPort";

export default class DiscoverPlugin extends Plugin {
	override settings: DiscoverSettings = defaultSettings();
	private settingTab: DiscoverSettingTab | undefined;
	private noteIndex: NoteIndexService | undefined;
	private agentLibrary: AgentLibrary | undefined;
	/** The MCP servers' hub: created (and the MCP code loaded) the first time a chat or the settings need it. */
	private mcpHub: Promise<McpHubPort & { close(): Promise<void> }> | undefined;
	/** Sign-ins to MCP servers waiting for the browser to come back through obsidian://discover-mcp-oauth. */
	readonly oauthRedirects = new OAuthRedirects((url) => window.open(url));
	private readonly settingsStore = new SettingsStore({
		loadData: () => this.loadData(),
		saveData: (data) => this.saveData(data),
		secrets: { getSecret: (name) => this.app.secretStorage.getSecret(name), setSecret: (name, value) => this.app.secretStorage.setSecret(name, value) },
	});

	override async onload(): Promise<void> {
		// Obsidian restarts when its language changes, so reading it once, first, is enough.
		setLanguage(getLanguage());
		await this.loadSettings();
		this.settingTab = new DiscoverSettingTab(this.app, this, pluginAdapterFactory);
		this.addSettingTab(this.settingTab);
		// The chat panel: view, ribbon icon and "Open chat"; the view builds its engine on first open.
		registerDiscoverPanel(this);
		// Commands that act on the panel, and "Ask about selection" in the editor's menu.
		registerDiscoverCommands(this);
		// Edit with Discover: the prompt and the review inside the note, its command and menu item.
		registerEditWithDiscover(this);
		// The vault index for @vault: built in the background once the layout is ready.
		// Its progress in the status bar while it builds ("Indexing 41,200 of 100,000 notes").
		const status = this.addStatusBarItem();
		showIndexProgress(status, undefined);
		this.noteIndex = this.addChild(new NoteIndexService({ app: this.app, settings: () => this.settings, dir: pluginDir(this), onProgress: (p) => showIndexProgress(status, p) }));
		// The way back from an MCP server's sign-in page; the MCP code itself loads only when used.
		this.registerObsidianProtocolHandler(OAUTH_ACTION, (params) => void this.oauthRedirects.handle(params));
	}

	/** Every MCP server's process and session ends with the plugin. */
	override onunload(): void {
		this.oauthRedirects.close();
		closePdfWorkers();
		const hub = this.mcpHub;
		this.mcpHub = undefined;
		if (hub !== undefined) void hub.then((h) => h.close()).catch(() => undefined);
	}

	/** The MCP servers' hub, loaded on first use (never at startup). */
	readonly mcp = (): Promise<McpHubPort> => {
		this.mcpHub ??= import("./wiring/mcpHub").then((m) => m.createPluginMcpHub(this));
		return this.mcpHub;
	};

	get vaultSearch(): VaultSearchPort | undefined {
		return this.noteIndex;
	}

	/** The agent notes, read when a chat or the settings tab first asks. */
	get agents(): AgentsPort {
		this.agentLibrary ??= new AgentLibrary(this, { newAgent: () => t("agents.newName"), defaultAgent: () => t("agents.defaultName") });
		return this.agentLibrary;
	}

	async loadSettings(): Promise<void> {
		const { settings, notes } = await this.settingsStore.load();
		this.settings = settings;
		if (notes.length) new Notice(t("plugin.notice", { text: notes.join(" ") }), 10000);
	}

	/** Sync (or another device) changed data.json: take the new settings. */
	override async onExternalSettingsChange(): Promise<void> {
		await this.loadSettings();
		if (this.mcpHub !== undefined) void this.mcpHub.then((h) => h.sync()).catch(() => undefined);
		// An open settings tab shows what sync brought, not the values it was opened with.
		const tab = this.settingTab;
		if (tab && tab.containerEl.isConnected && tab.containerEl.hasChildNodes()) tab.redraw();
		this.noteIndex?.settingsChanged();
		refreshDiscoverPanels(this);
	}

	async saveSettings(): Promise<void> {
		await this.settingsStore.save(this.settings);
		// A server removed, turned off or changed stops now, not at its next use.
		if (this.mcpHub !== undefined) void this.mcpHub.then((h) => h.sync()).catch(() => undefined);
		this.noteIndex?.settingsChanged();
		refreshDiscoverPanels(this);
	}
}
