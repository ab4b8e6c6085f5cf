// Test helpers around the runtime. NOT part of Obsidian's API: tests import them from here.
import type * as O from "obsidian";
import { App } from "./app";
import { SecretComponent } from "./components";
import { Platform, setAppLanguage, setRequestUrlHandler, Tasks, type RequestUrlHandler } from "./misc";
import { shownNotices } from "./modal";
import { normalizePath, parentPath } from "./paths";
import type { Plugin } from "./plugin";
import type { PluginSettingTab } from "./setting";
import { clearAddedIcons } from "./icons";
import { setBrowserTagOpenings } from "./markdownHtml";
import { clearPostProcessors } from "./markdownProcessors";
import { Menu } from "./menu";
import { MarkdownView } from "./views";
import type { WorkspaceLeaf } from "./workspace";

export { setAppLanguage, setRequestUrlHandler, type RequestUrlHandler };
export { setBrowserTagOpenings } from "./markdownHtml";
export { App } from "./app";
export { InMemoryAdapter } from "./adapter";

export interface TestAppOptions {
	/** Vault files by path, e.g. { "Notes/a.md": "# A" }; folders are created as needed. */
	files?: Record<string, string>;
	/** Files under the config dir or other hidden paths, written through the adapter only. */
	hiddenFiles?: Record<string, string>;
	secrets?: Record<string, string>;
	configDir?: string;
	/** Defaults to true: most tests start after the layout is ready. */
	layoutReady?: boolean;
}

export const TEST_MANIFEST: O.PluginManifest = {
	id: "discover-chat",
	name: "Discover",
	author: "Discover contributors",
	version: "0.0.0-test",
	minAppVersion: "1.11.4",
	description: "Test manifest.",
};

async function ensureFolder(app: App, folder: string): Promise<void> {
	if (!folder || app.vault.getFolderByPath(folder)) return;
	await app.vault.createFolder(folder);
}

/** An App with an in-memory vault, its workspace attached to the document when there is one. */
export async function createTestApp(opts: TestAppOptions = {}): Promise<App> {
	const app = new App(opts.configDir ? { configDir: opts.configDir } : {});
	await app.vault.adapter.mkdir(app.vault.configDir);
	for (const [path, data] of Object.entries(opts.files ?? {})) {
		const p = normalizePath(path);
		await ensureFolder(app, parentPath(p));
		await app.vault.create(p, data);
	}
	for (const [path, data] of Object.entries(opts.hiddenFiles ?? {})) {
		const p = normalizePath(path);
		await app.vault.adapter.mkdir(parentPath(p));
		await app.vault.adapter.write(p, data);
	}
	for (const [id, secret] of Object.entries(opts.secrets ?? {})) app.secretStorage.setSecret(id, secret);
	if (typeof document !== "undefined") document.body.appendChild(app.workspace.containerEl);
	if (opts.layoutReady !== false) app.workspace.setLayoutReady();
	return app;
}

/** The runtime App typed as Obsidian's, for code under test that expects `App`. */
export function asObsidianApp(app: App): O.App {
	return app as unknown as O.App;
}

/** The runtime object behind an Obsidian-typed App (the inverse of asObsidianApp). */
export function runtimeApp(app: O.App): App {
	if (!(app instanceof App)) throw new Error("Not a test runtime App.");
	return app;
}

type PluginClass<T extends O.Plugin> = new (app: O.App, manifest: O.PluginManifest) => T;

/** Constructs and loads a plugin as Obsidian does, awaiting an async onload. */
export async function loadPlugin<T extends O.Plugin>(
	PluginCtor: PluginClass<T>,
	opts: { app?: App; manifest?: Partial<O.PluginManifest>; data?: unknown } = {},
): Promise<{ plugin: T; app: App }> {
	const app = opts.app ?? (await createTestApp());
	const manifest = { ...TEST_MANIFEST, ...opts.manifest };
	if (opts.data !== undefined) await writePluginData(app, opts.data, manifest.id);
	const plugin = new PluginCtor(asObsidianApp(app), manifest);
	plugin.load();
	await (plugin as unknown as Plugin).loading;
	return { plugin, app };
}

/** Unloads a plugin (disable or app quit): onunload, then everything it registered. */
export function unloadPlugin(plugin: O.Plugin): void {
	plugin.unload();
}

export function pluginDataPath(app: App, pluginId = TEST_MANIFEST.id): string {
	return normalizePath(`${app.vault.configDir}/plugins/${pluginId}/data.json`);
}

/** The raw text of the plugin's data.json, or null when it was never saved. */
export async function readPluginDataText(app: App, pluginId = TEST_MANIFEST.id): Promise<string | null> {
	const path = pluginDataPath(app, pluginId);
	return (await app.vault.adapter.exists(path)) ? app.vault.adapter.read(path) : null;
}

/** Writes data.json before the plugin loads; a string is written verbatim (e.g. damaged JSON). */
export async function writePluginData(app: App, data: unknown, pluginId = TEST_MANIFEST.id): Promise<void> {
	const path = pluginDataPath(app, pluginId);
	await app.vault.adapter.mkdir(parentPath(path));
	await app.vault.adapter.write(path, typeof data === "string" ? data : JSON.stringify(data));
}

/** What Obsidian does when Sync rewrites data.json: write it, then tell the plugin. */
export async function changeSettingsExternally(app: App, plugin: O.Plugin, data: unknown): Promise<void> {
	await writePluginData(app, data, plugin.manifest.id);
	await plugin.onExternalSettingsChange?.();
}

/** Opens a vault note in a root leaf and makes it active, as clicking it in the file explorer does. */
export async function openNote(app: App, path: string, opts: { newLeaf?: boolean } = {}): Promise<MarkdownView> {
	const file = app.vault.getFileByPath(path);
	if (!file) throw new Error(`No such note: ${path}`);
	const leaf = app.workspace.getLeaf(opts.newLeaf ?? false);
	await leaf.openFile(file);
	if (!(leaf.view instanceof MarkdownView)) throw new Error("The leaf did not open a note.");
	return leaf.view;
}

/** Focuses a leaf (e.g. the chat panel), firing active-leaf-change. */
export function activateLeaf(app: App, leaf: WorkspaceLeaf): void {
	app.workspace.setActiveLeaf(leaf);
}

/** Displays the plugin's settings tab the way opening Settings → the plugin does. */
export function openSettingTab(app: App, pluginId = TEST_MANIFEST.id): PluginSettingTab {
	const tab = app.setting.tabs.find((t) => t.ownerPlugin.manifest.id === pluginId);
	if (!tab) throw new Error(`No settings tab for ${pluginId}.`);
	if (typeof document !== "undefined") document.body.appendChild(tab.containerEl);
	tab.display();
	return tab;
}

/** Shows a settings tab a test built itself, as Obsidian does when the tab is opened: display(). */
export function showSettingTab(tab: { display(): void }): void {
	tab.display();
}

/** Leaves the settings tab: hide() then detach. */
export function closeSettingTab(tab: PluginSettingTab): void {
	tab.hide();
	tab.containerEl.detach();
}

export function runCommand(app: App, fullId: string): boolean {
	return app.commands.executeCommandById(fullId);
}

/** Whether the command palette lists the command now (its check callback says it applies). */
export function commandAvailable(app: App, fullId: string): boolean {
	return app.commands.isAvailable(fullId);
}

/** A right-click in the note's editor: the "editor-menu" event with a fresh Menu, as Obsidian fires it. */
export function openEditorMenu(app: App, view: MarkdownView): Menu {
	const menu = new Menu();
	app.workspace.trigger("editor-menu", menu, view.editor, view);
	return menu;
}

export function ribbonIcon(app: App, title: string): HTMLElement {
	const el = app.workspace.ribbonEl.findAll(".side-dock-ribbon-action").find((e) => e.getAttr("aria-label") === title);
	if (!el) throw new Error(`No ribbon icon titled "${title}".`);
	return el;
}

/** Types into an input as a person does: the value changes and an `input` event fires. */
export function typeInto(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
	el.value = value;
	el.dispatchEvent(new Event("input", { bubbles: true }));
}

/** Picks an option of a select and fires `change`. */
export function selectOption(el: HTMLSelectElement, value: string): void {
	if (!Array.from(el.options).some((o) => o.value === value)) throw new Error(`No option "${value}".`);
	el.value = value;
	el.dispatchEvent(new Event("change", { bubbles: true }));
}

export function pressKey(target: EventTarget, key: string, mods: { shift?: boolean; ctrl?: boolean; alt?: boolean; meta?: boolean } = {}): KeyboardEvent {
	const evt = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, shiftKey: !!mods.shift, ctrlKey: !!mods.ctrl, altKey: !!mods.alt, metaKey: !!mods.meta });
	target.dispatchEvent(evt);
	return evt;
}

/** What the person does in a SecretComponent's dialog: store a secret and link it. */
export function createSecretThroughUi(app: App, control: HTMLSelectElement, id: string, secret: string): void {
	app.secretStorage.setSecret(id, secret);
	control.dispatchEvent(new Event("focus"));
	selectOption(control, id);
}

export { SecretComponent };

/** Every notice shown since the last clearNotices(), as text. */
export function notices(): string[] {
	return shownNotices.map((n) => n.message);
}

export function clearNotices(): void {
	for (const n of shownNotices.splice(0)) n.hide();
}

const desktop = { ...Platform };

/** Switches Platform to a phone (mobile app, no Node); restorePlatform() undoes it. */
export function emulateMobile(): void {
	Object.assign(Platform, { isDesktop: false, isMobile: true, isDesktopApp: false, isMobileApp: true, isAndroidApp: true, isPhone: true, isLinux: false });
}

export function restorePlatform(): void {
	Object.assign(Platform, desktop);
	setRequestUrlHandler(null);
}

/**
 * The runtime's module state as at its first import: no notices, a desktop with no requestUrl
 * handler, English, happy-dom's tag openings, no other plugin's post-processors or added icons.
 * Test files that share their worker's modules (vitest.config.ts) start from here.
 */
export function resetRuntime(): void {
	clearNotices();
	restorePlatform();
	setAppLanguage("en");
	setBrowserTagOpenings(false);
	clearPostProcessors();
	clearAddedIcons();
}

/** Quits the app as Obsidian does: "quit" listeners add tasks, which finish before it closes. */
export async function quitApp(app: App): Promise<void> {
	const tasks = new Tasks();
	app.workspace.trigger("quit", tasks);
	await tasks.promise();
}

/** Lets pending promise callbacks and zero-delay timers run. */
export function flush(): Promise<void> {
	return new Promise((resolve) => window.setTimeout(resolve, 0));
}

/**
 * The person deletes a file in the file explorer (or sync removes it): the vault drops it and
 * reports "delete". Not the plugin's code path, which would trash through the FileManager.
 */
export async function deleteFromExplorer(app: App, path: string): Promise<void> {
	const file = app.vault.getAbstractFileByPath(path);
	if (!file) throw new Error(`No file at ${path}.`);
	const explorer: { delete(file: unknown): Promise<void> } = app.vault;
	await explorer.delete(file);
}

/** What Obsidian does when the browser opens `obsidian://action?a=b`: the plugin's handler gets the parameters. False: no handler. */
export function openObsidianUrl(app: App, url: string): boolean {
	const parsed = new URL(url);
	const action = parsed.host || parsed.pathname.replace(/^\/+/, "");
	const handler = app.protocolHandlers.get(action);
	if (handler === undefined) return false;
	const params: O.ObsidianProtocolData = { action };
	for (const [k, v] of parsed.searchParams) params[k] = v;
	void handler(params);
	return true;
}
