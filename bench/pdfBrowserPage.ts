// The browser side of bench/pdfBrowser.ts: in Chromium, with pdf.js and its own worker, the panel's
// PDF reading (PdfNotes.read, what an `@`-attached PDF goes through) and the index's (PdfIndexTexts
// then indexInSlices, what "Index PDFs" goes through), unchanged: `obsidian` is the tests' runtime
// whose loadPdfJs() loads pdfjs-dist as Obsidian loads its own (bench/pdfBrowserObsidian.ts). The
// main thread is watched with PerformanceObserver: every long task (over 50 ms), and the long
// animation frames' scripts, which say whose code a long task ran. Discover's own synchronous work
// per page (from pdf.js handing over a page's text items to the next page asked for, or the next
// yield) is timed apart.
import { asObsidianApp, createTestApp, type App } from "../tests/obsidian/harness";
import { TFile } from "obsidian";
import { pdfJsHooks, PDFJS_WORKER_URL } from "./pdfBrowserObsidian";
import { PdfNotes } from "../src/ui/panel/sources/pdfNotes";
import { PdfIndexTexts } from "../src/wiring/pdfIndexTexts";
import { indexInSlices } from "../src/context/indexInSlices";
import { NoteIndex } from "../src/context/NoteIndex";
import type { PdfJsDocument, PdfJsLib } from "../src/context/pdfSources";
import { preparePassages } from "../src/context/passageCache";
import { fitSource } from "../src/context/relevanceFit";
import type { SliceTiming } from "../src/context/steps";
import { estimateTokens } from "../src/chat/tokens";

/** The vault index service's slice and yield (INDEX_SLICE_MS, a zero-delay timer); the panel prepares sources with the same (PREPARE_SLICE_MS). */
const INDEX_SLICE_MS = 8;
/** A send's share for the PDF when it is fitted (tokens), and its question. */
const FIT_TOKENS = 4000;
const FIT_QUERY = "when did the lighthouse keeper close the harbour in winter";
const nextTask = (): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, 0));

export interface RunOptions {
	/** The PDF in the page's vault (put there by `put`). */
	file: string;
	/** "panel": PdfNotes.read; "index": PdfIndexTexts.text, then indexInSlices. */
	path: "panel" | "index";
	/** "worker": pdf.js in its own worker (the app); "main": pdf.js's worker code on the main thread (a missing worker). */
	pdfjs: "worker" | "main";
}

export interface RunResult {
	pages: number;
	chars: number;
	openMs: number;
	/** From the read's start to its text in hand (open included). */
	readMs: number;
	/** The longest synchronous run of Discover's own code on one page's items, and how many were timed. */
	ownLongestMs: number;
	ownRuns: number;
	/** After the reading: the index's work ("index"), or the panel's preparing of the source's passages ("panel"); and its longest slice. */
	indexMs: number;
	indexLongestSliceMs: number;
	/** The panel: the first send's fit of the prepared PDF to FIT_TOKENS. */
	fitMs: number;
	/** The main thread's long tasks while it ran (ms each, wall clock: a task waiting for a core counts). */
	longTasks: number[];
	/** The main thread's tasks of 50 ms of its own CPU time or more, and its longest task's CPU time (ms; from Chromium's trace, filled by the bench). */
	cpuTasksOver50: number;
	cpuLongestMs: number;
	/** The scripts of the long animation frame around the longest task (file:function ms). */
	longestScripts: string[];
}

interface LongFrame {
	startTime: number;
	duration: number;
	scripts: { sourceURL: string; sourceFunctionName: string; invoker: string; duration: number }[];
}

const longTasks: { start: number; duration: number }[] = [];
const frames: LongFrame[] = [];
new PerformanceObserver((list) => {
	for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: "longtask", buffered: true });
try {
	new PerformanceObserver((list) => {
		for (const e of list.getEntries()) frames.push(e as unknown as LongFrame);
	}).observe({ type: "long-animation-frame", buffered: true });
} catch {
	// A Chromium without long animation frames: the long tasks are still counted.
}

/** Times Discover's synchronous work on each page: from a page's items handed over to the next ask of pdf.js or the next timer. */
class OwnClock {
	private mark: number | undefined;
	readonly spans: number[] = [];
	openMs = 0;
	pages = 0;

	close(): void {
		if (this.mark === undefined) return;
		this.spans.push(performance.now() - this.mark);
		this.mark = undefined;
	}

	/** `sharedWorker` false: pdf.js's worker class hidden, so pdf.js makes each document its own (fake, on the main thread, when pdfjsWorker is loaded). */
	wrap(lib: PdfJsLib, sharedWorker: boolean): PdfJsLib {
		return {
			// The library's worker class and options, as the app's code sees them (a shared worker is made from them).
			...(sharedWorker ? { PDFWorker: lib.PDFWorker } : {}),
			GlobalWorkerOptions: lib.GlobalWorkerOptions,
			getDocument: (src) => {
				const asked = performance.now();
				return {
					promise: lib.getDocument(src).promise.then((doc): PdfJsDocument => {
						this.openMs = performance.now() - asked;
						this.pages = doc.numPages;
						return {
							numPages: doc.numPages,
							getPage: async (n) => {
								this.close();
								const page = await doc.getPage(n);
								return {
									getTextContent: () =>
										page.getTextContent().then((content) => {
											this.mark = performance.now();
											return content;
										}),
									cleanup: () => page.cleanup(),
								};
							},
							destroy: () => {
								this.close();
								return doc.destroy();
							},
						};
					}),
				};
			},
		};
	}
}

let app: App | undefined;
let serial = 0;

/** Puts a PDF (its bytes in base64) into the page's vault, before a run (so the run's trace has none of this). */
async function put(base64: string): Promise<string> {
	app ??= await createTestApp({ files: { "Papers/Readme.md": "PDFs read by the bench." } });
	const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
	return (await app.vault.createBinary(`Papers/${++serial}.pdf`, bytes)).path;
}

async function run(options: RunOptions): Promise<RunResult> {
	if (!app) throw new Error("Nothing was put in the vault.");
	const file = app.vault.getAbstractFileByPath(options.file);
	if (!(file instanceof TFile)) throw new Error(`No PDF at ${options.file}.`);
	const worker = window as unknown as { pdfjsWorker?: unknown };
	// pdf.js uses a worker module already loaded on the main thread instead of starting a worker.
	// eslint-disable-next-line no-unsanitized/method -- a fixed URL of the bench's own page server
	if (options.pdfjs === "main") worker.pdfjsWorker ??= await import(PDFJS_WORKER_URL);
	else delete worker.pdfjsWorker;
	const clock = new OwnClock();
	// pdf.js on the main thread: the shared (real) worker of the earlier runs is not handed over.
	pdfJsHooks.wrap = (lib): unknown => clock.wrap(lib as PdfJsLib, options.pdfjs === "worker");
	// A yield of the app's code (a zero-delay timer) ends the page's synchronous run.
	const setTimer = window.setTimeout.bind(window);
	window.setTimeout = ((handler: TimerHandler, ms?: number, ...rest: unknown[]) => {
		clock.close();
		return setTimer(handler, ms, ...rest);
	}) as typeof window.setTimeout;
	const obsidianApp = asObsidianApp(app);
	let chars = 0;
	let readMs = 0;
	let indexMs = 0;
	let indexLongestSliceMs = 0;
	let fitMs = 0;
	// A frame first, so what came before is not counted.
	await new Promise((resolve) => window.requestAnimationFrame(resolve));
	const started = performance.now();
	// Marks in Chromium's trace too: the bench counts the main thread's tasks between them.
	performance.mark("pdfBench:start");
	try {
		if (options.path === "panel") {
			const sources = await new PdfNotes(obsidianApp).read(file);
			readMs = performance.now() - started;
			const source = sources[0];
			chars = source?.text.length ?? 0;
			if (source) {
				// What the panel does with a source it was given (chatRuntime's prepareSource), then a send's fit.
				const preparing = performance.now();
				const timing: SliceTiming = { slices: 0, longestSliceMs: 0 };
				await preparePassages(source.id, source.text, source.name, nextTask, { sliceMs: INDEX_SLICE_MS, estimate: estimateTokens, timing });
				indexMs = performance.now() - preparing;
				indexLongestSliceMs = timing.longestSliceMs;
				const fitting = performance.now();
				fitSource(source, FIT_TOKENS, FIT_QUERY, estimateTokens);
				fitMs = performance.now() - fitting;
			}
		} else {
			const text = await new PdfIndexTexts(obsidianApp, { yieldNow: nextTask, sliceMs: INDEX_SLICE_MS }).text(file);
			readMs = performance.now() - started;
			chars = text.length;
			const indexStarted = performance.now();
			const report = await indexInSlices(new NoteIndex({ keepText: false }), [{ id: file.path, name: file.basename, text, mtime: 1 }], nextTask, { sliceMs: INDEX_SLICE_MS });
			indexMs = performance.now() - indexStarted;
			indexLongestSliceMs = report.longestSliceMs;
		}
	} finally {
		window.setTimeout = setTimer;
		pdfJsHooks.wrap = undefined;
	}
	const ended = performance.now();
	performance.mark("pdfBench:end");
	// Long tasks are told after they end: a moment for the last.
	await new Promise((resolve) => setTimer(resolve, 200));
	const during = longTasks.filter((t) => t.start >= started && t.start < ended);
	const longest = during.reduce<{ start: number; duration: number } | undefined>((a, t) => (a === undefined || t.duration > a.duration ? t : a), undefined);
	const frame = longest ? frames.find((f) => f.startTime <= longest.start + 1 && f.startTime + f.duration >= longest.start + longest.duration - 1) : undefined;
	const longestScripts = (frame?.scripts ?? [])
		.filter((s) => s.duration >= 5)
		.map((s) => `${s.sourceURL.replace(location.origin, "") || "(none)"}:${s.sourceFunctionName || s.invoker} ${s.duration.toFixed(0)} ms`);
	return { pages: clock.pages, chars, openMs: clock.openMs, readMs, ownLongestMs: Math.max(0, ...clock.spans), ownRuns: clock.spans.length, indexMs, indexLongestSliceMs, fitMs, longTasks: during.map((t) => t.duration), cpuTasksOver50: 0, cpuLongestMs: 0, longestScripts };
}

(window as unknown as { pdfBench: unknown }).pdfBench = { put, run };
