// @vitest-environment happy-dom
// What the plugin's load leaves for later (bench/pluginLoad.ts measures the load): with the layout
// already there (the plugin turned on, or reloaded), the vault index's build starts in the next task,
// not inside onload, and no note is read before onload settles; then it builds as before.
import { describe, expect, it } from "vitest";
import { createTestApp, loadPlugin, unloadPlugin } from "../obsidian/harness";
import DiscoverPlugin from "../../src/main";
import type { NoteIndexService } from "../../src/wiring/noteIndexService";

describe("the plugin's load", () => {
	it("starts the vault index after onload has settled, then builds it", async () => {
		const app = await createTestApp({ files: { "Notes/Apples.md": "# Apples\n\nAn orchard of apple trees.\n", "Notes/Boats.md": "# Boats\n\nA sailboat.\n" } });
		const reads: string[] = [];
		const read = app.vault.cachedRead.bind(app.vault);
		app.vault.cachedRead = (file) => {
			reads.push(file.path);
			return read(file);
		};
		const { plugin } = await loadPlugin(DiscoverPlugin, { app });
		const index = plugin.vaultSearch as unknown as NoteIndexService;
		expect({ state: index.state, reads }).toEqual({ state: "waiting", reads: [] });
		await index.whenBuilt();
		expect(index.state).toBe("ready");
		expect(reads.sort()).toEqual(["Notes/Apples.md", "Notes/Boats.md"]);
		expect(index.search("orchard").map((hit) => hit.id)).toContain("Notes/Apples.md");
		unloadPlugin(plugin);
	});

	it("starts nothing when unloaded before the next task", async () => {
		const app = await createTestApp({ files: { "Notes/Apples.md": "# Apples\n\nAn orchard.\n" } });
		const { plugin } = await loadPlugin(DiscoverPlugin, { app });
		const index = plugin.vaultSearch as unknown as NoteIndexService;
		unloadPlugin(plugin);
		await index.whenBuilt();
		expect(index.state).toBe("waiting");
		expect(index.size).toBe(0);
	});
});
