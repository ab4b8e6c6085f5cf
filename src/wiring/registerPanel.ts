import type { Plugin } from "obsidian";
import { DiscoverView } from "../ui/panel/DiscoverView";
import type { DiscoverHost } from "../ui/host";
import { pluginRuntimeFactory } from "./factories";
import { openDiscoverPanel } from "./openPanel";
import { VIEW_TYPE_DISCOVER } from "../ui/viewType";
import { t } from "../i18n";

/**
 * Registers the chat panel, its ribbon icon and the "Open chat" command. Nothing is built here:
 * the view constructs its engine when it first opens, so the plugin's onload stays fast.
 */
export function registerDiscoverPanel(plugin: Plugin & DiscoverHost): void {
	plugin.registerView(VIEW_TYPE_DISCOVER, (leaf) => new DiscoverView(leaf, plugin, pluginRuntimeFactory));
	plugin.addRibbonIcon("messages-square", t("command.openChat"), () => void openDiscoverPanel(plugin));
	plugin.addCommand({ id: "open-chat", name: t("command.openChat"), callback: () => void openDiscoverPanel(plugin) });
}

/** Settings changed (the settings tab, or sync): every open panel shows what they now say. */
export function refreshDiscoverPanels(plugin: Plugin): void {
	for (const leaf of plugin.app.workspace.getLeavesOfType(VIEW_TYPE_DISCOVER)) {
		if (leaf.view instanceof DiscoverView) leaf.view.settingsChanged();
	}
}
