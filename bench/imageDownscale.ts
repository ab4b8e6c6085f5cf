// Downscaling an attached 12-megapixel photo in Chromium (Node has no canvas): the code the panel
// runs (src/ui/images/downscale.ts), bundled with esbuild into a page served from localhost. The
// photo is made in the page (gradients and noise, JPEG-encoded like a camera's), so no large file
// is committed. Reports the time per image, and the main thread's longest stall while it ran.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { cpus, loadavg } from "node:os";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const RUNS = 5;
const TARGET_MS = 300;

interface PageResult {
	source: { width: number; height: number; bytes: number };
	runs: { ms: number; stallMs: number; scaledIn: string; width: number; height: number; bytes: number; mediaType: string }[];
}

async function bundle(): Promise<string> {
	const out = await build({
		entryPoints: [join(import.meta.dirname, "../src/ui/images/downscale.ts")],
		bundle: true,
		format: "iife",
		globalName: "Downscale",
		target: "es2018",
		minify: true,
		write: false,
	});
	return out.outputFiles[0]?.text ?? "";
}

/** Runs in the page: the photo, then each run timed while a timer loop watches the main thread. */
async function inPage(args: { runs: number; worker: boolean }): Promise<PageResult> {
	const w = 4000;
	const h = 3000;
	const canvas = new OffscreenCanvas(w, h);
	const ctx = canvas.getContext("2d") as OffscreenCanvasRenderingContext2D;
	const grad = ctx.createLinearGradient(0, 0, w, h);
	grad.addColorStop(0, "#2a6f97");
	grad.addColorStop(0.5, "#e9c46a");
	grad.addColorStop(1, "#264653");
	ctx.fillStyle = grad;
	ctx.fillRect(0, 0, w, h);
	// Noise, so the JPEG is as large as a real photo's (a flat gradient compresses to nothing).
	const noise = ctx.getImageData(0, 0, w, h);
	let seed = 42;
	for (let i = 0; i < noise.data.length; i += 4) {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		const n = (seed % 48) - 24;
		noise.data[i] = (noise.data[i] ?? 0) + n;
		noise.data[i + 1] = (noise.data[i + 1] ?? 0) + n;
		noise.data[i + 2] = (noise.data[i + 2] ?? 0) + n;
	}
	ctx.putImageData(noise, 0, 0);
	const jpeg = new Uint8Array(await (await canvas.convertToBlob({ type: "image/jpeg", quality: 0.92 })).arrayBuffer());
	const api = (window as unknown as { Downscale: { prepareImage: (b: Uint8Array, o: { worker?: boolean }) => Promise<{ bytes: Uint8Array; mediaType: string; width: number; height: number; scaledIn: string }> } }).Downscale;
	const runs: PageResult["runs"] = [];
	// One warm-up (the worker starts, code is compiled), not counted.
	await api.prepareImage(jpeg, { worker: args.worker });
	for (let r = 0; r < args.runs; r++) {
		let stall = 0;
		let last = performance.now();
		let watching = true;
		const tick = (): void => {
			const now = performance.now();
			stall = Math.max(stall, now - last);
			last = now;
			if (watching) window.setTimeout(tick, 0);
		};
		window.setTimeout(tick, 0);
		const started = performance.now();
		const out = await api.prepareImage(jpeg, { worker: args.worker });
		const ms = performance.now() - started;
		watching = false;
		stall = Math.max(stall, performance.now() - last);
		runs.push({ ms, stallMs: stall, scaledIn: out.scaledIn, width: out.width, height: out.height, bytes: out.bytes.byteLength, mediaType: out.mediaType });
		await new Promise((resolve) => window.setTimeout(resolve, 50));
	}
	return { source: { width: w, height: h, bytes: jpeg.byteLength }, runs };
}

const median = (xs: number[]): number => {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)] ?? 0;
};

export async function runImageDownscaleBench(): Promise<string> {
	const script = await bundle();
	const server = createServer((_req, res) => {
		res.writeHead(200, { "content-type": "text/html" });
		res.end("<!doctype html><title>downscale bench</title>");
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
	try {
		const page = await browser.newPage();
		await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
		// Obsidian's global for the canvas fallback; and tsx's name helper, which it writes into functions sent to the page.
		await page.addScriptTag({ content: "window.activeDocument = document; window.__name = (f) => f;" });
		await page.addScriptTag({ content: script });
		const rows: string[] = [];
		let source: PageResult["source"] | undefined;
		for (const worker of [true, false]) {
			const result = await page.evaluate(inPage, { runs: RUNS, worker });
			source = result.source;
			const first = result.runs[0];
			const ms = median(result.runs.map((r) => r.ms));
			const stall = Math.max(...result.runs.map((r) => r.stallMs));
			rows.push(
				`| ${first?.scaledIn ?? "?"} | ${ms.toFixed(0)} ms | ${Math.max(...result.runs.map((r) => r.ms)).toFixed(0)} ms | ${stall.toFixed(0)} ms | ${first?.width}×${first?.height} ${first?.mediaType} | ${((first?.bytes ?? 0) / 1024).toFixed(0)} KB | ${ms < TARGET_MS ? "yes" : "**no**"} |`,
			);
		}
		const head = `12-megapixel photo: ${source?.width}×${source?.height} JPEG, ${((source?.bytes ?? 0) / 1024 / 1024).toFixed(1)} MB; ${RUNS} runs each after a warm-up; Chromium ${browser.version()}, headless; ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)} when it ran.\n\n`;
		return `${head}| where | median | slowest | longest main-thread stall | sent as | bytes | under ${TARGET_MS} ms |\n|---|---|---|---|---|---|---|\n${rows.join("\n")}`;
	} finally {
		await browser.close();
		server.close();
	}
}
