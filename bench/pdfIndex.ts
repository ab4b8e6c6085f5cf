// "Index PDFs": the time per page to read a PDF's text (pdfjs-dist, the pdf.js Obsidian ships,
// through the app's own reader code: openPdfWith, readPdf) and to index it (NoteIndex through
// indexInSlices, as the vault index service does), on the fixtures of tests/fixtures/pdf and a
// 200-page PDF of dense text made here with pdf-lib. The longest task is the event loop's longest
// delay (perf_hooks.monitorEventLoopDelay) while pdf.js read the PDF, and while it was indexed. In
// Node pdf.js runs its "fake worker" on the main thread, so its parsing counts in the first; in
// Obsidian it parses in its own worker. The second is the index's own work, in slices.
// Run standalone with `npx tsx bench/pdfIndex.ts`; bench/run.ts calls runPdfIndexBench().
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { setImmediate, setTimeout } from "node:timers";
import { PDFDocument, StandardFonts } from "pdf-lib";
import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { indexInSlices } from "../src/context/indexInSlices";
import { NoteIndex } from "../src/context/NoteIndex";
import { openPdfWith, readPdf, type PdfJsLib } from "../src/context/pdfSources";
import { median, runStandalone } from "./stats";

const FIXTURES = join(import.meta.dirname, "..", "tests", "fixtures", "pdf");
const PDFJS_DIR = join(import.meta.dirname, "..", "node_modules", "pdfjs-dist");
const RUNS = 3;
/** The vault index service's slice (INDEX_SLICE_MS). */
const SLICE_MS = 8;

const nodePdfJs: PdfJsLib = {
	getDocument: ({ data, isEvalSupported }) => pdfjs.getDocument({ data, isEvalSupported, standardFontDataUrl: `${PDFJS_DIR}/standard_fonts/`, verbosity: pdfjs.VerbosityLevel.ERRORS }),
};

const nextTask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** 200 pages of about 4,000 characters each (46 lines of Helvetica 9 pt): a dense report. */
export async function densePdf(pages: number): Promise<Uint8Array> {
	const doc = await PDFDocument.create();
	const font = await doc.embedFont(StandardFonts.Helvetica);
	const words = "harbour ledger storm lighthouse keeper quay masons tide cargo fishing boats council fair lantern rope barrel cider almanac frost winter ice river customs".split(" ");
	let seed = 7;
	const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
	for (let n = 1; n <= pages; n++) {
		const page = doc.addPage([595, 842]);
		for (let k = 0; k < 46; k++) {
			let line = "";
			while (line.length < 86) line += `${words[next() % words.length] ?? ""} `;
			page.drawText(line.trim(), { x: 50, y: 800 - k * 16, size: 9, font });
		}
	}
	return doc.save();
}

interface Run {
	pages: number;
	chars: number;
	openMs: number;
	readMs: number;
	indexMs: number;
	/** The event loop's longest delay while pdf.js opened and read the PDF, and while it was indexed. */
	longestReadMs: number;
	longestIndexMs: number;
}

async function once(bytes: Uint8Array): Promise<Run> {
	const delay = monitorEventLoopDelay({ resolution: 1 });
	delay.enable();
	// A timer's first tick: the monitor counts from here.
	await new Promise((resolve) => setTimeout(resolve, 2));
	const started = performance.now();
	const reader = await openPdfWith(nodePdfJs, bytes.slice());
	const opened = performance.now();
	const reading = await readPdf(reader, { yieldNow: nextTask, sliceMs: SLICE_MS });
	await reader.close?.();
	const read = performance.now();
	delay.disable();
	const longestReadMs = delay.max / 1e6;
	const indexDelay = monitorEventLoopDelay({ resolution: 1 });
	indexDelay.enable();
	await new Promise((resolve) => setTimeout(resolve, 2));
	const indexStarted = performance.now();
	const index = new NoteIndex({ keepText: false });
	await indexInSlices(index, [{ id: "Papers/Report.pdf", name: "Report", text: reading.text, mtime: 1 }], nextTask, { sliceMs: SLICE_MS });
	const indexed = performance.now();
	// A last tick, so a long final slice is seen.
	await new Promise((resolve) => setTimeout(resolve, 2));
	indexDelay.disable();
	if (reading.pages > 0 && reading.text !== "" && index.search("harbour").length === 0 && index.search("lighthouse").length === 0 && index.search("港口").length === 0 && index.search("orchard").length === 0) {
		throw new Error("the indexed PDF is found by none of its words");
	}
	return { pages: reading.pages, chars: reading.text.length, openMs: opened - started, readMs: read - opened, indexMs: indexed - indexStarted, longestReadMs, longestIndexMs: indexDelay.max / 1e6 };
}

const f1 = (v: number): string => v.toFixed(1);

export async function runPdfIndexBench(): Promise<string> {
	const inputs: [string, Uint8Array][] = [
		["plain.pdf (groff)", new Uint8Array(readFileSync(join(FIXTURES, "plain.pdf")))],
		["two-columns.pdf (groff)", new Uint8Array(readFileSync(join(FIXTURES, "two-columns.pdf")))],
		["cjk.pdf (pdf-lib, Noto CJK)", new Uint8Array(readFileSync(join(FIXTURES, "cjk.pdf")))],
		["scanned.pdf (images only)", new Uint8Array(readFileSync(join(FIXTURES, "scanned.pdf")))],
		["dense, 200 pages (pdf-lib)", await densePdf(200)],
	];
	// One run first, not counted: pdf.js loads its worker code and fonts once.
	await once(inputs[0]![1]);
	const rows = ["| PDF | pages | text (chars) | open (ms) | read (ms/page) | index (ms/page) | total (ms/page) | longest task: read / index (ms) |", "|---|---|---|---|---|---|---|---|"];
	for (const [name, bytes] of inputs) {
		const runs: Run[] = [];
		for (let r = 0; r < RUNS; r++) runs.push(await once(bytes));
		const pages = runs[0]?.pages ?? 0;
		const m = (pick: (r: Run) => number): number => median(runs.map(pick));
		const per = (v: number): string => (pages > 0 ? f1(v / pages) : "-");
		const total = m((r) => r.openMs + r.readMs + r.indexMs);
		rows.push(`| ${name} | ${pages} | ${runs[0]?.chars ?? 0} | ${f1(m((r) => r.openMs))} | ${per(m((r) => r.readMs))} | ${per(m((r) => r.indexMs))} | ${per(total)} | ${f1(Math.max(...runs.map((r) => r.longestReadMs)))} / ${f1(Math.max(...runs.map((r) => r.longestIndexMs)))} |`);
	}
	const load = loadavg().map((l) => l.toFixed(1)).join(", ");
	return `${rows.join("\n")}\n\nMedian of ${RUNS} runs each (longest task: the worst of them); pdfjs-dist ${pdfjs.version}, Node ${process.version}, ${cpus().length} cores, load average ${load}. Total = open + read + index, per page. In Node pdf.js parses on the main thread (its fake worker); in Obsidian it parses in a worker.`;
}

runStandalone(import.meta.url, runPdfIndexBench);
