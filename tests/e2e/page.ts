// The browser side of the end-to-end test: the in-memory Obsidian runtime, a `require` that
// provides it as `obsidian`, and a loader that runs main.js the way Obsidian loads a plugin.
import type * as O from "obsidian";
import * as obsidian from "../obsidian/index";
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

const e2e = {
	obsidian,
	harness,
	app: undefined as harness.App | undefined,
	plugin: undefined as PluginLike | undefined,
	longTasks: [] as { start: number; duration: number }[],

	/** Obsidian's `require` for plugins: only the modules Obsidian provides. */
	require(id: string): unknown {
		if (id === "obsidian") return obsidian;
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
		const code = await (await fetch("/main.js")).text();
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

	/** The open Discover panel's view, found the way the plugin finds it. */
	view(): (O.View & { chatRuntime?: unknown; openSession(id: string): Promise<void> }) | undefined {
		const leaf = this.app?.workspace.getLeavesOfType("discover-chat-view")[0];
		return leaf?.view as unknown as (O.View & { chatRuntime?: unknown; openSession(id: string): Promise<void> }) | undefined;
	},

	/** Long animation frames with the scripts that ran in them, to tell what a long task was. */
	longFrames: [] as { start: number; duration: number; blocking: number; scripts: string[] }[],

	observers: [] as PerformanceObserver[],

	watchLongTasks(): void {
		for (const o of this.observers.splice(0)) o.disconnect();
		this.longTasks = [];
		this.longFrames = [];
		const frames = new PerformanceObserver((list) => {
			for (const e of list.getEntries() as (PerformanceEntry & { blockingDuration?: number; renderStart?: number; styleAndLayoutStart?: number; scripts?: { invoker: string; sourceFunctionName: string; sourceURL: string; duration: number; forcedStyleAndLayoutDuration: number }[] })[]) {
				if (e.duration < 50) continue;
				const scripts = (e.scripts ?? []).map((s) => `${s.invoker} ${s.sourceFunctionName} ${s.sourceURL.split("/").pop() ?? ""} ${s.duration.toFixed(0)}ms (layout ${s.forcedStyleAndLayoutDuration.toFixed(0)}ms)`);
				const render = e.renderStart && e.styleAndLayoutStart ? ` render@${(e.renderStart - e.startTime).toFixed(0)} layout@${(e.styleAndLayoutStart - e.startTime).toFixed(0)}` : "";
				this.longFrames.push({ start: e.startTime, duration: e.duration, blocking: e.blockingDuration ?? 0, scripts: [...scripts, render] });
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

declare global {
	interface Window {
		e2e: typeof e2e;
	}
}

window.e2e = e2e;
