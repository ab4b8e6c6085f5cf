// One pdf.js worker shared by every PDF Discover reads (src/context/pdfWorker.ts): made on the first
// lease, kept while any lease is held and for IDLE_MS after the last is released, then destroyed;
// never made where pdf.js shares the app's own worker port, or offers no PDFWorker. And through
// openPdfWith with pdfjs-dist's real PDFWorker: documents read one after another and side by side
// on it, closing one leaves the worker to the others.
import fc from "fast-check";
import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { closePdfWorkers, IDLE_MS, leasePdfWorker, type PdfJsWorker, type WorkerLease } from "../../src/context/pdfWorker";
import { openPdfWith, readPdf, type PdfJsLib } from "../../src/context/pdfSources";
import { fixtureBytes, nodePdfJs } from "../support/pdfjs";

/** The engine's timers, run by hand: `advance` fires what is due. */
const clock = vi.hoisted(() => {
	let now = 0;
	let next = 1;
	const due = new Map<number, { at: number; fn: () => void }>();
	return {
		start(fn: () => void, ms: number): number {
			due.set(next, { at: now + ms, fn });
			return next++;
		},
		stop(handle: unknown): void {
			due.delete(handle as number);
		},
		advance(ms: number): void {
			now += ms;
			for (const [id, t] of [...due].sort((a, b) => a[1].at - b[1].at)) {
				if (t.at > now) continue;
				due.delete(id);
				t.fn();
			}
		},
	};
});
vi.mock("../../src/core/timers", () => ({ startTimer: (fn: () => void, ms: number) => clock.start(fn, ms), stopTimer: (handle: unknown) => clock.stop(handle) }));

const PDFJS_DIR = join(import.meta.dirname, "..", "..", "node_modules", "pdfjs-dist");

/** A PDFWorker stand-in that counts what was made and destroyed (`failing`: it cannot start). */
function fakeLib(workerPort: unknown = null, failing = false) {
	const made: { destroyed: boolean }[] = [];
	class PDFWorker implements PdfJsWorker {
		readonly state = { destroyed: false };
		promise = failing ? Promise.reject(new Error("The worker could not start.")) : Promise.resolve();
		constructor() {
			made.push(this.state);
		}
		destroy(): void {
			if (this.state.destroyed) throw new Error("destroyed twice");
			this.state.destroyed = true;
		}
	}
	return { lib: { PDFWorker, GlobalWorkerOptions: { workerPort } }, made, live: () => made.filter((w) => !w.destroyed).length };
}

describe("the shared pdf.js worker", () => {
	it("the plugin's unload stops every shared worker at once, held or idle; a lease after it makes a new one, and old releases change nothing", () => {
		const a = fakeLib();
		const b = fakeLib();
		const held = leasePdfWorker(a.lib) as WorkerLease;
		const idle = leasePdfWorker(b.lib) as WorkerLease;
		idle.release();
		expect(a.live() + b.live()).toBe(2);
		closePdfWorkers();
		expect(a.live() + b.live()).toBe(0);
		held.release();
		clock.advance(IDLE_MS * 2);
		const next = leasePdfWorker(a.lib) as WorkerLease;
		expect(a.made.length).toBe(2);
		expect(a.live()).toBe(1);
		next.release();
		clock.advance(IDLE_MS);
		expect(a.live()).toBe(0);
		closePdfWorkers();
	});

	it("one worker for all leases, kept while any is held and IDLE_MS after the last, then destroyed", () => {
		fc.assert(
			fc.property(fc.array(fc.oneof(fc.constant({ op: "lease" as const }), fc.record({ op: fc.constant("release" as const), which: fc.nat(20) }), fc.record({ op: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 2 * IDLE_MS }) })), { maxLength: 40 }), (ops) => {
				const { lib, made, live } = fakeLib();
				const held: WorkerLease[] = [];
				let idleSince: number | undefined = 0;
				let now = 0;
				for (const o of ops) {
					if (o.op === "lease") {
						const lease = leasePdfWorker(lib);
						expect(lease).toBeDefined();
						if (lease) held.push(lease);
						idleSince = undefined;
					} else if (o.op === "release") {
						const lease = held.splice(o.which % Math.max(1, held.length), 1)[0];
						lease?.release();
						// Released twice: nothing more happens.
						lease?.release();
						if (lease && held.length === 0) idleSince = now;
					} else {
						now += o.ms;
						clock.advance(o.ms);
					}
					expect(live()).toBeLessThanOrEqual(1);
					// Held: the worker is alive, and every lease holds the same one.
					if (held.length > 0) {
						expect(live()).toBe(1);
						expect(new Set(held.map((h) => h.worker)).size).toBe(1);
					}
					// Idle: alive until IDLE_MS have passed since the last release, gone after.
					if (held.length === 0 && idleSince !== undefined && made.length > 0) expect(live()).toBe(now - idleSince >= IDLE_MS ? 0 : 1);
				}
				for (const h of held) h.release();
				clock.advance(IDLE_MS);
				expect(live()).toBe(0);
			}),
			{ numRuns: 200 },
		);
	});

	it("forgets a worker that could not start: the next reading gets a new one", async () => {
		const { lib, made } = fakeLib(null, true);
		const first = leasePdfWorker(lib);
		await expect(first?.worker.promise).rejects.toThrow("could not start");
		const second = leasePdfWorker(lib);
		expect(second?.worker).not.toBe(first?.worker);
		expect(made).toHaveLength(2);
	});

	it("makes none where pdf.js shares the app's worker port, or has no PDFWorker", () => {
		const { lib, made } = fakeLib({ postMessage() {} });
		expect(leasePdfWorker(lib)).toBeUndefined();
		expect(made).toHaveLength(0);
		expect(leasePdfWorker({})).toBeUndefined();
		expect(leasePdfWorker(nodePdfJs)).toBeUndefined();
	});
});

describe("openPdfWith on one pdf.js worker (pdfjs-dist's PDFWorker)", () => {
	it("reads PDFs one after another and side by side on it; closing one leaves it to the others", async () => {
		const made: unknown[] = [];
		const destroyed: unknown[] = [];
		class CountedWorker extends pdfjs.PDFWorker {
			constructor() {
				// Warnings (a font's glyphs it does not need for text) are not the test's business.
				super({ verbosity: pdfjs.VerbosityLevel.ERRORS });
				made.push(this);
			}
			override destroy(): void {
				destroyed.push(this);
				super.destroy();
			}
		}
		// pdf.js as the app's code calls it, handing the worker over (nodePdfJs never does: it has no PDFWorker).
		const lib: PdfJsLib = { PDFWorker: CountedWorker, GlobalWorkerOptions: { workerPort: null }, getDocument: ({ data, isEvalSupported, worker }) => pdfjs.getDocument({ data, isEvalSupported, verbosity: pdfjs.VerbosityLevel.ERRORS, standardFontDataUrl: `${PDFJS_DIR}/standard_fonts/`, cMapUrl: `${PDFJS_DIR}/cmaps/`, ...(worker ? { worker: worker as pdfjs.PDFWorker } : {}) }) };
		const yieldNow = (): Promise<void> => Promise.resolve();
		const first = await openPdfWith(lib, fixtureBytes("plain.pdf"));
		const second = await openPdfWith(lib, fixtureBytes("cjk.pdf"));
		const [a, b] = await Promise.all([readPdf(first, { yieldNow }), readPdf(second, { yieldNow })]);
		expect(a.pages).toBe(5);
		expect(b.text).toContain("このページの目印の言葉は銅の灯芯で");
		await first.close?.();
		expect(destroyed).toHaveLength(0);
		expect((await readPdf(second, { yieldNow, from: 2, to: 2 })).pagesRead).toBe(2);
		await second.close?.();
		const third = await openPdfWith(lib, fixtureBytes("two-columns.pdf"));
		expect((await readPdf(third, { yieldNow })).pages).toBe(2);
		await third.close?.();
		expect(made).toHaveLength(1);
		expect(destroyed).toHaveLength(0);
	});
});
