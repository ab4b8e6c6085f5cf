import type { Plugin, WorkspaceLeaf } from "obsidian";
import { VIEW_TYPE_DISCOVER } from "../ui/viewType";

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
