import type { App } from "obsidian";

/** Obsidian's settings window: internal API (not in obsidian.d.ts), so each part is checked before use. */
interface SettingsWindow {
	open(): void;
	openTabById(id: string): unknown;
}

/**
 * Opens Obsidian's settings at the plugin's own tab (plugin tabs are keyed by the manifest id).
 * False when this Obsidian has no settings window to open: the caller says where to go instead.
 */
export function openPluginSettings(app: App, pluginId: string | undefined): boolean {
	const setting = (app as App & { setting?: Partial<SettingsWindow> }).setting;
	if (typeof setting?.open !== "function") return false;
	setting.open();
	if (pluginId !== undefined && typeof setting.openTabById === "function") setting.openTabById(pluginId);
	return true;
}
