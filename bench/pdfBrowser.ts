// PDFs read in Chromium (what Obsidian runs on), with pdf.js and its real worker: pdfjs-dist's
// build/pdf.mjs and build/pdf.worker.mjs served from 127.0.0.1 (no network). The page runs
// Discover's own PDF code unchanged, bundled with esbuild as the browser test bundles its page
// (bench/pdfBrowserPage.ts): the panel's reading of an `@`-attached PDF (PdfNotes.read) and the
// index's ("Index PDFs": PdfIndexTexts, then indexInSlices). The main thread is watched with
// PerformanceObserver (long tasks, over 50 ms) and Discover's own work on each page is timed apart.
// On the fixtures of tests/fixtures/pdf and the dense 200-page PDF of bench/pdfIndex.ts; then once
// more with pdf.js's worker code on the main thread (what a missing worker would do), to compare.
// Run with `npx tsx bench/run.ts pdfBrowser` (or `npx tsx bench/pdfBrowser.ts`).
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { servePage } from "./pageServer";
import { densePdf } from "./pdfIndex";
import { median, runStandalone } from "./stats";
import type { RunOptions, RunResult } from "./pdfBrowserPage";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ROOT = join(import.meta.dirname, "..");
const FIXTURES = join(ROOT, "tests", "fixtures", "pdf");
const PDFJS_BUILD = join(ROOT, "node_modules", "pdfjs-dist", "build");
const RUNS = 3;

async function bundle(): Promise<string> {
	const out = await build({
		entryPoints: [join(import.meta.dirname, "pdfBrowserPage.ts")],
		bundle: true,
		format: "iife",
		platform: "browser",
		target: "es2020",
		alias: { obsidian: join(import.meta.dirname, "pdfBrowserObsidian.ts") },
		write: false,
		logLevel: "error",
	});
	return out.outputFiles[0]?.text ?? "";
}

const f1 = (v: number): string => v.toFixed(1);

interface Row {
	name: string;
	path: RunOptions["path"];
	pdfjs: RunOptions["pdfjs"];
	runs: RunResult[];
}

function rowText(r: Row): string {
	const first = r.runs[0];
	const pages = first?.pages ?? 0;
	const m = (pick: (x: RunResult) => number): number => median(r.runs.map(pick));
	const per = (v: number): string => (pages > 0 ? f1(v / pages) : "-");
	const all = r.runs.flatMap((x) => x.longTasks);
	const worst = r.runs.reduce<RunResult | undefined>((a, x) => (a === undefined || Math.max(0, ...x.longTasks) > Math.max(0, ...a.longTasks) ? x : a), undefined);
	const longest = Math.max(0, ...all);
	const over = r.runs.map((x) => x.longTasks.length);
	const whose = longest > 0 ? (worst?.longestScripts.join("; ") ?? "") : "";
	const index = m((x) => x.indexMs) > 0 ? `${per(m((x) => x.indexMs))} / ${f1(Math.max(...r.runs.map((x) => x.indexLongestSliceMs)))}` : "-";
	const fit = r.path === "panel" && m((x) => x.fitMs) > 0 ? f1(Math.max(...r.runs.map((x) => x.fitMs))) : "-";
	const cpu = `${f1(Math.max(...r.runs.map((x) => x.cpuLongestMs)))} / ${r.runs.map((x) => x.cpuTasksOver50).join(", ")}`;
	return `| ${r.name} | ${r.path === "panel" ? "panel (@)" : "Index PDFs"} | ${r.pdfjs === "worker" ? "worker" : "**main thread**"} | ${pages} | ${f1(m((x) => x.openMs))} | ${per(m((x) => x.readMs - x.openMs))} | ${f1(Math.max(...r.runs.map((x) => x.ownLongestMs)))} | ${index} | ${fit} | ${cpu} | ${f1(longest)} / ${over.join(", ")} | ${whose} |`;
}

/** The bench's PDFs: the fixtures and the dense 200-page one, by name, with their bytes in base64 (for the page). */
export async function benchPdfs(): Promise<[string, string][]> {
	const fixture = (name: string): [string, string] => [name, readFileSync(join(FIXTURES, name)).toString("base64")];
	return [fixture("plain.pdf"), fixture("two-columns.pdf"), fixture("cjk.pdf"), fixture("scanned.pdf"), ["dense, 200 pages", Buffer.from(await densePdf(200)).toString("base64")]];
}

/**
 * The CPU time (ms) of each task the page's main thread ran, from a Chromium trace: its task events'
 * thread time (tdur; "toplevel" names them ThreadControllerImpl::RunTask). On a machine whose cores are shared, a task's wall clock also counts
 * the time it waited for a core; its thread time is what it cost.
 */
function mainThreadCpu(trace: Buffer): number[] {
	type Event = { ph: string; name: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string } };
	const parsed = JSON.parse(trace.toString("utf8")) as { traceEvents: Event[] } | Event[];
	const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
	const main = new Set(events.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`));
	// The run's span, from the page's marks (its setup before, and the wait for the last long task after, are not counted).
	const start = events.find((e) => e.name === "pdfBench:start")?.ts ?? -Infinity;
	const end = events.find((e) => e.name === "pdfBench:end")?.ts ?? Infinity;
	return events
		.filter((e) => e.ph === "X" && (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") && main.has(`${e.pid}:${e.tid}`) && e.ts + (e.dur ?? 0) > start && e.ts < end)
		.map((e) => (e.tdur ?? e.dur ?? 0) / 1000);
}

export interface BenchPage {
	/** Puts the PDF in the page's vault, then reads it as `options` say, traced. */
	run(base64: string, options: Omit<RunOptions, "file">): Promise<RunResult>;
	chromiumVersion: string;
	/** What the page said went wrong (errors on its console, uncaught errors). */
	errors: string[];
	close(): Promise<void>;
}

/** Chromium on a page that serves pdf.js, its worker and Discover's code bundled (bench/pdfBrowserPage.ts). */
export async function openBenchPage(): Promise<BenchPage> {
	const pageJs = await bundle();
	const served: Record<string, [string, string | Uint8Array]> = {
		"/pdfjs/pdf.mjs": ["text/javascript", readFileSync(join(PDFJS_BUILD, "pdf.mjs"), "utf8")],
		"/pdfjs/pdf.worker.mjs": ["text/javascript", readFileSync(join(PDFJS_BUILD, "pdf.worker.mjs"), "utf8")],
		"/favicon.ico": ["image/x-icon", new Uint8Array()],
	};
	const { url, server } = await servePage("PDF bench", pageJs, served);
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update"] });
	const errors: string[] = [];
	const page = await browser.newPage();
	page.on("pageerror", (err) => errors.push(err.message));
	page.on("console", (msg) => {
		if (msg.type() === "error") errors.push(msg.text());
	});
	await page.goto(url);
	await page.waitForFunction(() => "pdfBench" in window);
	// tsx names functions with a helper the page does not have.
	await page.addScriptTag({ content: "window.__name = (f) => f;" });
	type Api = { pdfBench: { put(b: string): Promise<string>; run(o: RunOptions): Promise<RunResult> } };
	return {
		run: async (base64, options) => {
			const file = await page.evaluate((b) => (window as unknown as Api).pdfBench.put(b), base64);
			await browser.startTracing(page, { categories: ["toplevel", "blink.user_timing"] });
			const result = await page.evaluate((o) => (window as unknown as Api).pdfBench.run(o), { ...options, file });
			const cpu = mainThreadCpu(await browser.stopTracing());
			return { ...result, cpuTasksOver50: cpu.filter((ms) => ms >= 50).length, cpuLongestMs: Math.max(0, ...cpu) };
		},
		chromiumVersion: browser.version(),
		errors,
		close: async () => {
			await browser.close();
			server.close();
		},
	};
}

export async function runPdfBrowserBench(): Promise<string> {
	const pdfs = await benchPdfs();
	const load = loadavg().map((l) => l.toFixed(1)).join(", ");
	const page = await openBenchPage();
	const rows: Row[] = [];
	try {
		// One read first, not counted: the page compiles pdf.js and Discover's code once.
		await page.run(pdfs[0]?.[1] ?? "", { path: "panel", pdfjs: "worker" });
		for (const pdfjs of ["worker", "main"] as const) {
			for (const path of ["panel", "index"] as const) {
				for (const [name, base64] of pdfs) {
					const runs: RunResult[] = [];
					for (let r = 0; r < RUNS; r++) runs.push(await page.run(base64, { path, pdfjs }));
					rows.push({ name, path, pdfjs, runs });
				}
			}
		}
		const head =
			"| PDF | read by | pdf.js parses on | pages | open (ms) | read (ms/page) | Discover's longest step on a page (ms) | then: prepare (panel) or index (ms/page) / longest slice (ms) | first fit (ms) | main thread, CPU: longest task (ms) / tasks over 50 ms, each run | main thread, wall clock: longest task (ms) / tasks over 50 ms, each run | the longest (wall) task's scripts |\n|---|---|---|---|---|---|---|---|---|---|---|---|";
		const notes = [
			`Median of ${RUNS} runs each (longest: the worst of them), after one read not counted. Chromium ${page.chromiumVersion}, headless; pdfjs-dist's build/pdf.mjs and build/pdf.worker.mjs from 127.0.0.1; ${cpus().length} CPUs, load average ${load} when it started.`,
			"Open: getDocument until the document is in hand (on the one pdf.js worker Discover's readings share, src/context/pdfWorker.ts; a worker started for each PDF took 300-800 ms here). Read: the rest of the reading, per page. Discover's longest step: its synchronous work on one page's text items (from pdf.js handing them over to the next page asked for, or the next yield). Then: the panel prepares the PDF's passages in slices (preparePassages, as chatRuntime's prepareSource does for a new source), and a send fits it to 4,000 tokens (fitSource, the first fit; the worst of the runs); the index indexes its text (indexInSlices). Main thread, CPU: each task's own CPU time (thread time of Chromium's trace, its tasks on the renderer's main thread), from the reading's start to the end of what followed it. Main thread, wall clock: PerformanceObserver 'longtask' over the same span; on a loaded machine a task's wall clock also counts the time it waited for a core (here an 80 ms busy loop measured 90–112 ms of wall clock and 8–25 ms of CPU at load 8–9), so the CPU column is what the code costs and the wall column what this machine showed.",
			'"main thread": pdf.js\'s worker module loaded into the page (globalThis.pdfjsWorker), and no shared worker handed to it, so pdf.js parses on the main thread, as it would in the app if its worker could not start; then "Discover\'s longest step" also holds pdf.js\'s own work in the same task.',
		];
		if (page.errors.length > 0) notes.push(`Page errors: ${[...new Set(page.errors)].slice(0, 5).join(" | ")}`);
		return `${head}\n${rows.map(rowText).join("\n")}\n\n${notes.join("\n\n")}`;
	} finally {
		await page.close();
	}
}

runStandalone(import.meta.url, runPdfBrowserBench);
