// @vitest-environment happy-dom
// Runtime side of conformance.ts: the members the type check covers exist on real instances,
// every value src/ imports from 'obsidian' is provided by the runtime, and every Obsidian member
// src/ uses is one the type check covers (so the runtime cannot drift where the plugin depends on it).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as runtime from "obsidian";
import { obsidianUses } from "../lint/obsidianUsage";
import { fileImports, ROOT, sourceFiles } from "../lint/sourceGraph";
import { CHECKED_APART, COVERED, INHERITED_BY, WHOLE } from "./conformance";
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

/** DOM and JavaScript globals obsidian.d.ts augments: the runtime's dom.ts installs them. */
const GLOBALS = new Set(["Node", "Element", "HTMLElement", "Document", "Window", "String", "Array", "Math", "Number", "Object", "UIEvent", "DocumentFragment"]);

/** `Owner.member` uses that neither the whole-class checks nor COVERED account for. */
export function uncoveredUses(uses: { owner: string | undefined; name: string }[]): string[] {
	const whole = new Set<string>(WHOLE);
	const covered = COVERED as Record<string, readonly string[]>;
	const apart = new Set<string>(CHECKED_APART);
	return uses
		.filter(({ owner, name }) => {
			if (owner === undefined || whole.has(owner) || GLOBALS.has(owner) || apart.has(`${owner}.${name}`)) return false;
			const listed = covered[owner] ?? covered[INHERITED_BY[owner] ?? ""] ?? [];
			return !listed.includes(name);
		})
		.map(({ owner, name }) => `${owner ?? ""}.${name}`);
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

	it("covers every member of Obsidian's classes that src/ uses", () => {
		const uses = obsidianUses();
		expect(uses.filter((u) => u.owner !== undefined).length).toBeGreaterThan(50);
		// The rule itself: an unlisted member of a partly covered class, or of an unknown class, is reported.
		expect(uncoveredUses([{ owner: "Workspace", name: "getLeaf" }, { owner: "Workspace", name: "splitActiveLeaf" }, { owner: "FileManager", name: "renameFile" }, { owner: "View", name: "app" }])).toEqual(["Workspace.splitActiveLeaf", "FileManager.renameFile"]);
		expect(uncoveredUses(uses)).toEqual([]);
		// A type-checked program of src/: seconds, not milliseconds, on a busy machine.
	}, 60_000);
});
