// One pdf.js worker for all the PDFs Discover reads. Asked for a document without a worker, pdf.js
// starts a new Web Worker for it (its worker script loaded and compiled again: 300-800 ms before the
// first page, in Chromium on a loaded 2-core machine, bench/pdfBrowser.ts), and stops it when the
// document is closed; "Index PDFs" on a vault of hundreds of PDFs paid that for each. A worker handed
// to getDocument outlives its documents, so the readings share one, kept while any document is open
// and for IDLE_MS after the last, then stopped (so a plugin unloaded mid-way leaves it no longer). Where the app set a worker port of its own
// (GlobalWorkerOptions.workerPort), pdf.js shares that one already and nothing is made here.
import { startTimer, stopTimer, type TimerHandle } from "../core/timers";

/** pdf.js's worker (the parts used here): ready when `promise` settles. */
export interface PdfJsWorker {
	promise: Promise<unknown>;
	destroy(): void;
}

/** What of pdf.js a shared worker needs: its PDFWorker class, and the options the app set. */
export interface PdfJsWorkerLib {
	PDFWorker?: new () => PdfJsWorker;
	GlobalWorkerOptions?: { workerPort?: unknown };
}

/** How long the shared worker is kept after its last document closed. */
export const IDLE_MS = 30_000;

interface Shared {
	worker: PdfJsWorker;
	users: number;
	idle: TimerHandle;
}

/** By pdf.js's PDFWorker class: one library, one worker, however its namespace is handed over. */
const shared = new Map<object, Shared>();

/** A document's hold on the shared worker: `release` (once, when the document is closed). */
export interface WorkerLease {
	worker: PdfJsWorker;
	release(): void;
}

/** The shared worker for `lib`, or undefined where pdf.js gives its own (a stand-in without PDFWorker, or the app's worker port). */
export function leasePdfWorker(lib: PdfJsWorkerLib): WorkerLease | undefined {
	const PDFWorker = lib.PDFWorker;
	if (typeof PDFWorker !== "function" || (lib.GlobalWorkerOptions?.workerPort ?? null) !== null) return undefined;
	let entry = shared.get(PDFWorker);
	if (!entry) {
		const made: Shared = { worker: new PDFWorker(), users: 0, idle: undefined };
		shared.set(PDFWorker, made);
		// A worker that could not start is forgotten: the next reading asks for a new one.
		made.worker.promise.catch(() => {
			if (shared.get(PDFWorker) === made) shared.delete(PDFWorker);
		});
		entry = made;
	}
	const held = entry;
	stopTimer(held.idle);
	held.idle = undefined;
	held.users++;
	let released = false;
	return {
		worker: held.worker,
		release() {
			if (released) return;
			released = true;
			held.users--;
			if (held.users > 0) return;
			held.idle = startTimer(() => {
				if (held.users > 0 || shared.get(PDFWorker) !== held) return;
				shared.delete(PDFWorker);
				held.worker.destroy();
			}, IDLE_MS);
		},
	};
}

/**
 * Stops every shared worker now, held or idle (the plugin unloads: nothing of it may run after).
 * A reading still in progress then fails as a closed document does; the next lease makes a new worker.
 */
export function closePdfWorkers(): void {
	for (const [key, entry] of shared) {
		stopTimer(entry.idle);
		entry.idle = undefined;
		shared.delete(key);
		entry.worker.destroy();
	}
}
