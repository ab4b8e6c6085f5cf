import type { Plugin, WorkspaceLeaf } from "obsidian";
import { registerDiscoverCommands } from "./commands";
import { DiscoverView } from "./DiscoverView";
import type { DiscoverHost } from "./host";
import { VIEW_TYPE_DISCOVER } from "./viewType";

/**
 * Registers the chat panel, its ribbon icon, the "Open chat" command and the panel's other commands
 * (commands.ts). Nothing is built here:
 * the view constructs its engine when it first opens, so the plugin's onload stays fast.
 */
export function registerDiscoverPanel(plugin: Plugin & DiscoverHost): void {
	plugin.registerView(VIEW_TYPE_DISCOVER, (leaf) => new DiscoverView(leaf, plugin));
	plugin.addRibbonIcon("messages-square", "Open chat", () => void openDiscoverPanel(plugin));
	plugin.addCommand({ id: "open-chat", name: "Open chat", callback: () => void openDiscoverPanel(plugin) });
	registerDiscoverCommands(plugin);
}

/** Reveals the panel, opening it in the right sidebar if it is not open anywhere. */
export async function openDiscoverPanel(plugin: Plugin): Promise<WorkspaceLeaf | undefined> {
	const { workspace } = plugin.app;
	// Found through the workspace each time: the plugin keeps no reference to its views.
	let leaf = workspace.getLeavesOfType(VIEW_TYPE_DISCOVER)[0];
	if (!leaf) {
		const right = workspace.getRightLeaf(false);
		if (!right) return undefined;
		await right.setViewState({ type: VIEW_TYPE_DISCOVER, active: true });
		leaf = right;
	}
	await workspace.revealLeaf(leaf);
	return leaf;
}

/** Settings changed (the settings tab, or sync): every open panel shows what they now say. */
export function refreshDiscoverPanels(plugin: Plugin): void {
	for (const leaf of plugin.app.workspace.getLeavesOfType(VIEW_TYPE_DISCOVER)) {
		if (leaf.view instanceof DiscoverView) leaf.view.settingsChanged();
	}
}
