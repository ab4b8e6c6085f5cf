// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { flush, loadPlugin, ribbonIcon, runCommand, unloadPlugin } from "../obsidian/harness";
import DiscoverPlugin from "../../src/main";
import { DiscoverView } from "../../src/ui/panel/DiscoverView";
import { VIEW_TYPE_DISCOVER } from "../../src/ui/viewType";

afterEach(() => document.body.empty());

async function until(cond: () => boolean): Promise<void> {
	for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => window.setTimeout(r, 2));
}

describe("the panel's registration", () => {
	it("opens one panel in the right sidebar from the ribbon and from \"Open chat\", without a default hotkey", async () => {
		const { plugin, app } = await loadPlugin(DiscoverPlugin);
		expect(app.workspace.getLeavesOfType(VIEW_TYPE_DISCOVER)).toHaveLength(0);
		const command = app.commands.commands.get("discover-chat:open-chat");
		expect(command?.name).toMatch(/Open chat$/);
		expect(command?.hotkeys ?? []).toEqual([]);

		ribbonIcon(app, "Open chat").click();
		await until(() => app.workspace.getLeavesOfType(VIEW_TYPE_DISCOVER).length === 1);
		runCommand(app, "discover-chat:open-chat");
		await flush();
		const leaves = app.workspace.getLeavesOfType(VIEW_TYPE_DISCOVER);
		expect(leaves).toHaveLength(1);
		expect(leaves[0]!.side).toBe("right");
		expect(leaves[0]!.view).toBeInstanceOf(DiscoverView);
		// The plugin keeps no reference to its view.
		expect(Object.values(plugin).some((v) => v instanceof DiscoverView)).toBe(false);
		await until(() => (leaves[0]!.view as unknown as DiscoverView).chatRuntime !== undefined);
		expect((leaves[0]!.view as unknown as DiscoverView).chatRuntime).toBeDefined();
		unloadPlugin(plugin);
	});
});
