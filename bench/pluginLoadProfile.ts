// Where the plugin's load goes: main.js built unminified (so the profile can say which source file a
// sample is in), run and loaded as bench/pluginLoad.ts does, in Chromium under its CPU profiler.
// Prints self time by source file (and by function, for the top ones) for main.js's top level and
// for onload until its promise settles, and for what runs until the profiler is stopped (the vault
// index's first slices, which the load leaves for the next task, among them): read it with the
// bench's table beside it, which times the load alone. `npx tsx bench/pluginLoadProfile.ts [runs]`; writes the
// last profile to /tmp/plugin-load.cpuprofile (open it in Chromium's DevTools).
import { servePage } from "./pageServer";
import { join } from "node:path";
import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const RUNS = Number(process.argv[2] ?? 3);

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; scriptId: string; url: string; lineNumber: number };
	children?: number[];
	positionTicks?: { line: number; ticks: number }[];
}
interface Profile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

/** Runs in the page: the load as Obsidian does it, marked for the profile by two console.time calls. */
async function inPage(args: { manifest: unknown; mainJs: string }): Promise<{ requireMs: number; onloadMs: number }> {
	type Harness = { createTestApp(o: { files: Record<string, string> }): Promise<unknown>; asObsidianApp(a: unknown): unknown; writePluginData(a: unknown, d: unknown, id: string): Promise<void> };
	const e2e = (window as unknown as { e2e: { harness: Harness; require(id: string): unknown } }).e2e;
	const app = await e2e.harness.createTestApp({ files: { "Notes/A.md": "# A\n\nA note.\n" } });
	await e2e.harness.writePluginData(app, { settingsVersion: 3 }, (args.manifest as { id: string }).id);
	const code = `${args.mainJs}\n//# sourceURL=${location.origin}/main.js\n`;
	type PluginLike = { load(): void; loading?: Promise<unknown> };
	const t0 = performance.now();
	const module = { exports: {} as Record<string, unknown> };
	// eslint-disable-next-line @typescript-eslint/no-implied-eval -- loading a plugin bundle, as Obsidian does, is what this measures
	const run = new Function("require", "module", "exports", code) as (r: (id: string) => unknown, m: typeof module, e: unknown) => void;
	run((id) => e2e.require(id), module, module.exports);
	const t1 = performance.now();
	const Ctor = (module.exports.default ?? module.exports) as new (app: unknown, manifest: unknown) => PluginLike;
	const plugin = new Ctor(e2e.harness.asObsidianApp(app), args.manifest);
	plugin.load();
	await plugin.loading;
	const t2 = performance.now();
	return { requireMs: t1 - t0, onloadMs: t2 - t1 };
}

function fileMarks(source: string): [number, string][] {
	const marks: [number, string][] = [];
	source.split("\n").forEach((line, i) => {
		const m = /^\s*\/\/ ((?:\.\.\/)*(?:src|node_modules|main\/node_modules)\/\S+)$/.exec(line);
		if (m?.[1]) marks.push([i, m[1].replace(/^(\.\.\/)+(main\/)?/, "")]);
	});
	return marks;
}

function summarize(profile: Profile, marks: [number, string][], url: string): string {
	const fileOf = (line: number): string => {
		let file = "(bundle helpers)";
		for (const [l, f] of marks) if (l <= line) file = f;
		else break;
		return file;
	};
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const self = new Map<number, number>();
	profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));
	const files = new Map<string, number>();
	const fns = new Map<string, number>();
	let inMain = 0;
	let other = 0;
	for (const n of profile.nodes) {
		const ms = self.get(n.id) ?? 0;
		if (!ms) continue;
		// The nearest frame in main.js: time in a browser builtin or the harness counts for its caller there.
		let m: ProfileNode | undefined = n;
		while (m && m.callFrame.url !== url) m = byId.get(parent.get(m.id) ?? -1);
		if (!m) {
			other += ms;
			continue;
		}
		inMain += ms;
		const file = fileOf(m.callFrame.lineNumber);
		files.set(file, (files.get(file) ?? 0) + ms);
		const fn = `${file} ${m.callFrame.functionName || "(top level)"}${n === m ? "" : ` → ${n.callFrame.functionName || "?"}`}`;
		fns.set(fn, (fns.get(fn) ?? 0) + ms);
	}
	const top = (m: Map<string, number>, k: number): string =>
		[...m]
			.sort((a, b) => b[1] - a[1])
			.slice(0, k)
			.map(([name, ms]) => `| ${name} | ${ms.toFixed(1)} |`)
			.join("\n");
	return `main.js's frames (and what they called): ${inMain.toFixed(1)} ms; elsewhere (harness, idle, GC) ${other.toFixed(1)} ms.\n\n| source file | ms |\n|---|---|\n${top(files, 15)}\n\n| function (→ callee outside main.js) | ms |\n|---|---|\n${top(fns, 20)}`;
}

async function main(): Promise<void> {
	const root = join(import.meta.dirname, "..");
	// eslint-disable-next-line no-unsanitized/method -- the project's own build options, by path
	const config = (await import(pathToFileURL(join(root, "esbuild.config.mjs")).href)) as { buildOptions(prod: boolean): import("esbuild").BuildOptions };
	const main = await build({ ...config.buildOptions(true), minify: false, absWorkingDir: root, write: false, logLevel: "silent" });
	const mainJs = main.outputFiles[0]?.text ?? "";
	const page = await build({ entryPoints: [join(root, "tests/e2e/page.ts")], bundle: true, format: "iife", platform: "browser", target: "es2020", write: false, logLevel: "silent" });
	const pageJs = page.outputFiles[0]?.text ?? "";
	const manifest = JSON.parse(await readFile(join(root, "manifest.json"), "utf8")) as { id: string };
	const { url, server } = await servePage("plugin load profile", pageJs);
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
	try {
		for (let i = 0; i < RUNS; i++) {
			const context = await browser.newContext();
			const tab = await context.newPage();
			await tab.goto(url);
			await tab.waitForFunction(() => "e2e" in window);
			await tab.addScriptTag({ content: "window.__name = (f) => f;" });
			const cdp = await context.newCDPSession(tab);
			await cdp.send("Profiler.enable");
			await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
			await cdp.send("Profiler.start");
			const times = await tab.evaluate(inPage, { manifest, mainJs });
			const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: Profile };
			await context.close();
			if (i === RUNS - 1) {
				await writeFile("/tmp/plugin-load.cpuprofile", JSON.stringify(profile));
				console.log(`Run ${i + 1} of ${RUNS} (unminified main.js, profiler on): require ${times.requireMs.toFixed(1)} ms, onload until settled ${times.onloadMs.toFixed(1)} ms.\n`);
				console.log(summarize(profile, fileMarks(mainJs), `${url.replace(/\/$/, "")}/main.js`));
			}
		}
	} finally {
		await browser.close();
		server.close();
	}
}

void main();
