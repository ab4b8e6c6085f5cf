// The browser side of the end-to-end test: the in-memory Obsidian runtime, a `require` that
// provides it as `obsidian`, and a loader that runs main.js the way Obsidian loads a plugin.
import type * as O from "obsidian";
import * as obsidian from "../obsidian/index";
import * as codemirrorState from "@codemirror/state";
import * as codemirrorView from "@codemirror/view";
import * as harness from "../obsidian/harness";
import { drawIcons } from "./icons";

interface BootOptions {
	files: Record<string, string>;
	/** Written through the adapter (hidden or plugin-owned files, e.g. saved chats). */
	adapterFiles: Record<string, string>;
	manifest: O.PluginManifest;
	open: string;
	/** What getLanguage() reports, as Obsidian's language setting ("en", "ja", "zh"...); "en" by default. */
	language?: string;
}

interface PluginLike extends O.Plugin {
	loading?: Promise<unknown>;
	settings?: Record<string, unknown>;
	saveSettings?: () => Promise<void>;
}

type PluginCtor = new (app: O.App, manifest: O.PluginManifest) => PluginLike;

/** Where the plugin's code is served from; the long frames' scripts from it are the plugin's. */
const PLUGIN_SCRIPT = "/main.js";

interface FrameScript {
	invoker: string;
	sourceFunctionName: string;
	sourceURL: string;
	duration: number;
	forcedStyleAndLayoutDuration: number;
}

/** A long animation frame (50 ms or more): how long, and how much of it was the plugin's own script. */
export interface LongFrame {
	start: number;
	duration: number;
	blocking: number;
	/** Time in scripts whose entry point is the plugin's code (main.js), what they called included. */
	pluginMs: number;
	/** Time in every other script: this page's harness, the test's own evaluate calls. */
	otherMs: number;
	/** The frame's style, layout and paint, after its scripts. */
	renderMs: number;
	scripts: string[];
}

const e2e = {
	obsidian,
	harness,
	app: undefined as harness.App | undefined,
	plugin: undefined as PluginLike | undefined,
	longTasks: [] as { start: number; duration: number }[],

	/** Obsidian's `require` for plugins: only the modules Obsidian provides (its editor's CodeMirror among them). */
	require(id: string): unknown {
		if (id === "obsidian") return obsidian;
		if (id === "@codemirror/state") return codemirrorState;
		if (id === "@codemirror/view") return codemirrorView;
		throw new Error(`Cannot find module '${id}'`);
	},

	async boot(opts: BootOptions): Promise<{ firstMs: number; firstSyncMs: number; medianMs: number }> {
		drawIcons(document.body);
		harness.setAppLanguage(opts.language ?? "en");
		const app = await harness.createTestApp({ files: opts.files });
		for (const [path, data] of Object.entries(opts.adapterFiles)) {
			await app.vault.adapter.mkdir(path.split("/").slice(0, -1).join("/"));
			await app.vault.adapter.write(path, data);
		}
		app.setDarkMode(false);
		const note = await harness.openNote(app, opts.open);
		// The runtime's editor has no DOM; show the note's text so screenshots look like a vault.
		const reading = note.contentEl.createDiv({ cls: "markdown-preview-view" });
		const noteComponent = new obsidian.Component();
		note.addChild(noteComponent);
		await obsidian.MarkdownRenderer.render(harness.asObsidianApp(app), note.editor.getValue(), reading, opts.open, noteComponent);
		this.app = app;

		// As Obsidian does: fetch main.js, run it as a CommonJS module, take its default export.
		// Named by a sourceURL, so the browser attributes the plugin's own work to main.js in long
		// animation frames (watchLongTasks), apart from this page's harness.
		const code = `${await (await fetch("/main.js")).text()}\n//# sourceURL=${new URL(PLUGIN_SCRIPT, location.href).href}\n`;
		const module = { exports: {} as Record<string, unknown> };
		// eslint-disable-next-line @typescript-eslint/no-implied-eval -- loading a plugin bundle is what this page is for
		const run = new Function("require", "module", "exports", code) as (r: (id: string) => unknown, m: typeof module, e: unknown) => void;
		run((id) => this.require(id), module, module.exports);
		const Ctor = (module.exports.default ?? module.exports) as PluginCtor;
		// Five loads and unloads first (as enabling and disabling the plugin does), then the one kept.
		const times: { total: number; sync: number }[] = [];
		let plugin: PluginLike | undefined;
		for (let i = 0; i < 6; i++) {
			plugin = new Ctor(harness.asObsidianApp(app), opts.manifest);
			const t0 = performance.now();
			plugin.load();
			const t1 = performance.now();
			await plugin.loading;
			times.push({ total: performance.now() - t0, sync: t1 - t0 });
			if (i < 5) plugin.unload();
		}
		this.plugin = plugin;
		const sorted = times.map((t) => t.total).sort((a, b) => a - b);
		return { firstMs: times[0]?.total ?? NaN, firstSyncMs: times[0]?.sync ?? NaN, medianMs: sorted[3] ?? NaN };
	},

	/** The editor of Edit with Discover's screens: a real EditorView on the open note, with the plugins' editor extensions, as Obsidian's editor holds them. */
	editor: undefined as codemirrorView.EditorView | undefined,

	mountEditor(): void {
		const app = this.app;
		const note = app?.workspace.activeLeaf?.view;
		if (!app || !(note instanceof obsidian.MarkdownView)) throw new Error("No note is open.");
		this.editor?.destroy();
		note.contentEl.empty();
		this.editor = new codemirrorView.EditorView({
			state: codemirrorState.EditorState.create({
				doc: note.editor.getValue(),
				extensions: [codemirrorView.EditorView.lineWrapping, obsidian.editorInfoField.init(() => note as unknown as O.MarkdownFileInfo), ...app.workspace.editorExtensions],
			}),
			parent: note.contentEl.createDiv({ cls: "markdown-source-view mod-cm6" }),
		});
	},

	/** Selects `text` in the editor (the first place it is), or puts the cursor before it when `cursor`. */
	selectInEditor(text: string, cursor = false): void {
		const view = this.editor;
		if (!view) throw new Error("No editor mounted.");
		const from = view.state.doc.toString().indexOf(text);
		if (from < 0) throw new Error(`Not in the note: ${text}`);
		view.dispatch({ selection: codemirrorState.EditorSelection.single(from, cursor ? from : from + text.length) });
		view.focus();
	},

	/** The open Discover panel's view, found the way the plugin finds it. */
	view(): (O.View & { chatRuntime?: unknown; openSession(id: string): Promise<void> }) | undefined {
		const leaf = this.app?.workspace.getLeavesOfType("discover-chat-view")[0];
		return leaf?.view as unknown as (O.View & { chatRuntime?: unknown; openSession(id: string): Promise<void> }) | undefined;
	},

	/** Long animation frames with the scripts that ran in them, to tell what a long task was. */
	longFrames: [] as LongFrame[],

	observers: [] as PerformanceObserver[],

	watchLongTasks(): void {
		for (const o of this.observers.splice(0)) o.disconnect();
		this.longTasks = [];
		this.longFrames = [];
		const frames = new PerformanceObserver((list) => {
			for (const e of list.getEntries() as (PerformanceEntry & { blockingDuration?: number; renderStart?: number; styleAndLayoutStart?: number; scripts?: FrameScript[] })[]) {
				if (e.duration < 50) continue;
				const all = e.scripts ?? [];
				const plugin = all.filter((s) => isPluginScript(s.sourceURL));
				const sum = (list: FrameScript[]): number => list.reduce((ms, s) => ms + s.duration, 0);
				const scripts = all.map((s) => `${s.invoker} ${s.sourceFunctionName} ${s.sourceURL.split("/").pop() ?? ""} ${s.duration.toFixed(0)}ms (layout ${s.forcedStyleAndLayoutDuration.toFixed(0)}ms)`);
				const render = e.renderStart && e.styleAndLayoutStart ? ` render@${(e.renderStart - e.startTime).toFixed(0)} layout@${(e.styleAndLayoutStart - e.startTime).toFixed(0)}` : "";
				// Style and layout to the frame's end (animation-frame callbacks, which run after
				// renderStart, are scripts already counted above).
				const renderMs = e.styleAndLayoutStart ? Math.max(0, e.startTime + e.duration - e.styleAndLayoutStart) : 0;
				this.longFrames.push({ start: e.startTime, duration: e.duration, blocking: e.blockingDuration ?? 0, pluginMs: sum(plugin), otherMs: sum(all) - sum(plugin), renderMs, scripts: [...scripts, render] });
			}
		});
		frames.observe({ type: "long-animation-frame", buffered: false });
		const tasks = new PerformanceObserver((list) => {
			for (const e of list.getEntries()) this.longTasks.push({ start: e.startTime, duration: e.duration });
		});
		tasks.observe({ type: "longtask", buffered: false });
		this.observers.push(frames, tasks);
	},
};

function isPluginScript(url: string): boolean {
	try {
		return new URL(url, location.href).pathname === PLUGIN_SCRIPT;
	} catch {
		return false;
	}
}

declare global {
	interface Window {
		e2e: typeof e2e;
	}
}

window.e2e = e2e;
