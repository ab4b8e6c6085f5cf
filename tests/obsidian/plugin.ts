// Plugin: data.json through the adapter, commands, ribbon icons, views and setting tabs.
import type * as O from "obsidian";
import type { Extension } from "@codemirror/state";
import type { App } from "./app";
import { Component } from "./events";
import { setIcon } from "./icons";
import type { PluginSettingTab } from "./setting";
import type { ViewCreator } from "./workspace";
import { normalizePath } from "./paths";
import { codeBlockPostProcessor, registerPostProcessor } from "./markdownProcessors";

export abstract class Plugin extends Component {
	app: App;
	manifest: O.PluginManifest;

	constructor(app: App, manifest: O.PluginManifest) {
		super();
		this.app = app;
		this.manifest = manifest;
	}

	/** Where Obsidian keeps the plugin: `<configDir>/plugins/<id>` unless the manifest says. */
	private get dataPath(): string {
		const dir = this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
		return normalizePath(`${dir}/data.json`);
	}

	// eslint-disable-next-line @typescript-eslint/no-misused-promises -- obsidian.d.ts: a plugin's onload may be async, Component's is not.
	override onload(): Promise<void> | void {}

	async loadData(): Promise<unknown> {
		const adapter = this.app.vault.adapter;
		if (!(await adapter.exists(this.dataPath))) return null;
		// A damaged data.json makes Obsidian's loadData reject; plugins must cope.
		return JSON.parse(await adapter.read(this.dataPath)) as unknown;
	}

	async saveData(data: unknown): Promise<void> {
		const adapter = this.app.vault.adapter;
		const dir = this.dataPath.slice(0, this.dataPath.lastIndexOf("/"));
		await adapter.mkdir(dir);
		await adapter.write(this.dataPath, JSON.stringify(data, null, 2));
	}

	addCommand(command: O.Command): O.Command {
		// Obsidian prefixes ids with the plugin id and names with the plugin name.
		const full = { ...command, id: `${this.manifest.id}:${command.id}`, name: `${this.manifest.name}: ${command.name}`, pluginId: this.manifest.id };
		this.app.commands.commands.set(full.id, full);
		this.register(() => this.app.commands.commands.delete(full.id));
		return full;
	}

	/** The extension joins every note's editor (the workspace keeps them; a test builds its EditorView with them). */
	registerEditorExtension(extension: Extension): void {
		this.app.workspace.editorExtensions.push(extension);
		this.register(() => {
			const list = this.app.workspace.editorExtensions;
			const at = list.indexOf(extension);
			if (at >= 0) list.splice(at, 1);
		});
	}

	removeCommand(commandId: string): void {
		this.app.commands.commands.delete(`${this.manifest.id}:${commandId}`);
	}

	addRibbonIcon(icon: O.IconName, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
		const el = this.app.workspace.ribbonEl.createDiv({ cls: "clickable-icon side-dock-ribbon-action", attr: { "aria-label": title } });
		setIcon(el, icon);
		el.addEventListener("click", (evt) => void callback(evt));
		this.register(() => el.detach());
		return el;
	}

	addStatusBarItem(): HTMLElement {
		const el = createDiv("status-bar-item");
		this.register(() => el.detach());
		return el;
	}

	addSettingTab(settingTab: PluginSettingTab): void {
		this.app.setting.addSettingTab(settingTab);
		this.register(() => this.app.setting.removeSettingTab(settingTab));
	}

	registerView(type: string, viewCreator: ViewCreator): void {
		this.app.workspace.registerViewType(type, viewCreator);
		this.register(() => this.app.workspace.unregisterViewType(type));
	}

	/** Runs on every MarkdownRenderer.render of any plugin, until this plugin unloads (markdownProcessors.ts). */
	registerMarkdownPostProcessor(postProcessor: O.MarkdownPostProcessor, sortOrder?: number): O.MarkdownPostProcessor {
		this.register(registerPostProcessor(postProcessor, sortOrder ?? postProcessor.sortOrder ?? 0));
		return postProcessor;
	}

	/** A post-processor that hands ```language blocks to `handler` (markdownProcessors.ts). */
	registerMarkdownCodeBlockProcessor(language: string, handler: (source: string, el: HTMLElement, ctx: O.MarkdownPostProcessorContext) => Promise<unknown> | void, sortOrder?: number): O.MarkdownPostProcessor {
		const processor = codeBlockPostProcessor(language, handler);
		// Obsidian runs code block processors before ordinary post-processors.
		return this.registerMarkdownPostProcessor(processor, sortOrder ?? -100);
	}

	registerExtensions(_extensions: string[], _viewType: string): void {}

	/** `obsidian://<action>?…` calls `handler` (harness.openObsidianUrl), until this plugin unloads. */
	registerObsidianProtocolHandler(action: string, handler: O.ObsidianProtocolHandler): void {
		this.app.protocolHandlers.set(action, handler);
		this.register(() => {
			if (this.app.protocolHandlers.get(action) === handler) this.app.protocolHandlers.delete(action);
		});
	}

	onUserEnable(): void {}
}
