// @vitest-environment happy-dom
// Runtime side of conformance.ts: the members the type check covers exist on real instances, and
// every value src/ imports from 'obsidian' is provided by the runtime. That every Obsidian member
// src/ uses is one the type check covers is checked in tests/lint/obsidianCoverage.test.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as runtime from "obsidian";
import { fileImports, ROOT, sourceFiles } from "../lint/sourceGraph";
import { COVERED } from "./conformance";
import { createTestApp } from "./harness";
import { ItemView, MarkdownView, Modal, Plugin, PluginSettingTab, Setting } from "./index";

class SampleView extends ItemView {
	getViewType(): string {
		return "sample";
	}
	getDisplayText(): string {
		return "Sample";
	}
}
class SamplePlugin extends Plugin {}
class SampleTab extends PluginSettingTab {
	display(): void {}
}

describe("runtime conformance", () => {
	it("implements every covered member", async () => {
		const app = await createTestApp();
		const leaf = app.workspace.getLeaf(true);
		const instances: Record<keyof typeof COVERED, object> = {
			App: app,
			Workspace: app.workspace,
			WorkspaceLeaf: leaf,
			Setting: new Setting(createDiv()),
			Plugin: new SamplePlugin(app, { id: "x", name: "X", author: "", version: "1", minAppVersion: "1", description: "" }),
			Modal: new Modal(app),
			ItemView: new SampleView(leaf),
			MarkdownView: new MarkdownView(leaf),
			Editor: new MarkdownView(leaf).editor,
			MetadataCache: app.metadataCache,
			FileManager: app.fileManager,
			PluginSettingTab: new SampleTab(app, new SamplePlugin(app, { id: "x", name: "X", author: "", version: "1", minAppVersion: "1", description: "" })),
		};
		const missing = Object.entries(COVERED).flatMap(([cls, members]) =>
			members.filter((m) => !(m in instances[cls as keyof typeof COVERED])).map((m) => `${cls}.${m}`),
		);
		expect(missing).toEqual([]);
	});

	it("provides every value src/ imports from 'obsidian'", () => {
		const needed = new Set<string>();
		for (const file of sourceFiles()) {
			for (const ref of fileImports(file)) {
				if (ref.specifier === "obsidian" && ref.kind === "static") ref.names.forEach((n) => needed.add(n));
			}
		}
		// Interfaces and type aliases have no runtime value; neither does a class imported only for
		// its type without `type` (esbuild drops such imports). Editor is such a class here.
		const dts = readFileSync(join(ROOT, "node_modules/obsidian/obsidian.d.ts"), "utf8");
		const typeNames = new Set([...dts.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1] ?? ""));
		typeNames.add("Editor");
		const provided = new Set(Object.keys(runtime));
		const missing = [...needed].filter((n) => !provided.has(n) && !typeNames.has(n));
		expect(needed.size).toBeGreaterThan(5);
		expect(missing).toEqual([]);
	});

});
