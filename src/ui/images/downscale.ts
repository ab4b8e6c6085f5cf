// Scales an attached image to the size it is sent at, off the main thread where the platform
// allows: a Worker with createImageBitmap and OffscreenCanvas (Obsidian desktop, recent mobile
// webviews), else the same steps on the main thread, else a plain canvas. One code path for the
// pixels (scaleInScope), run in whichever scope is available; the decisions are imagePlan.ts's.
import { planImage, sniffImageType, type AcceptedType } from "./imagePlan";
import { headerSize } from "../../core/imageHeader";

export interface PreparedImage {
	bytes: Uint8Array;
	mediaType: string;
	width: number;
	height: number;
	/** Where the pixels were scaled: "worker", "main" (OffscreenCanvas), "canvas", or "none" (sent as is). */
	scaledIn: "worker" | "main" | "canvas" | "none";
}

/**
 * The most pixels an image may have before it is decoded: 50 MP is 200 MB of RGBA. Read from the
 * header; a header claiming more (30000×30000 is 3.35 GiB decoded) is refused undecoded.
 */
export const MAX_DECODE_PIXELS = 50_000_000;

export class ImageRejected extends Error {
	constructor(readonly reason: "unsupported" | "unreadable" | "tooLarge") {
		super(reason);
	}
}

interface ScaleJob {
	blob: Blob;
	width: number;
	height: number;
	type: string;
	quality: number;
}

/**
 * The pixel work, self-contained (it is also sent to a Worker as source text, so it may use
 * nothing from outside): decode, draw at the target size with high-quality smoothing, encode.
 */
async function scaleInScope(job: ScaleJob): Promise<Blob> {
	// Decoded straight to the target size: Chromium scales a JPEG while decoding it, far faster than a full decode.
	const bitmap = await createImageBitmap(job.blob, { resizeWidth: job.width, resizeHeight: job.height, resizeQuality: "high" });
	try {
		const canvas = new OffscreenCanvas(job.width, job.height);
		const ctx = canvas.getContext("2d");
		if (!ctx) throw new Error("no 2d context");
		ctx.imageSmoothingEnabled = true;
		ctx.imageSmoothingQuality = "high";
		// JPEG has no transparency: flatten on white, not black.
		if (job.type === "image/jpeg") {
			ctx.fillStyle = "#fff";
			ctx.fillRect(0, 0, job.width, job.height);
		}
		ctx.drawImage(bitmap, 0, 0, job.width, job.height);
		return await canvas.convertToBlob({ type: job.type, quality: job.quality });
	} finally {
		bitmap.close();
	}
}

const WORKER_SOURCE = `const scaleInScope = ${scaleInScope.toString()};
self.onmessage = async (e) => {
	try { self.postMessage({ blob: await scaleInScope(e.data) }); }
	catch (err) { self.postMessage({ error: String(err) }); }
};`;

let worker: Worker | undefined | null;

/** One worker for the app's life, made on first use; null when the platform has none that can scale. */
function scalingWorker(): Worker | null {
	if (worker !== undefined) return worker;
	try {
		if (typeof Worker === "undefined" || typeof OffscreenCanvas === "undefined" || typeof createImageBitmap === "undefined") return (worker = null);
		const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "text/javascript" }));
		worker = new Worker(url);
	} catch {
		worker = null;
	}
	return worker;
}

/** One job at a time in the worker: attachments are few, and ordering replies stays trivial. */
let queue: Promise<unknown> = Promise.resolve();

function inWorker(w: Worker, job: ScaleJob): Promise<Blob> {
	const run = (): Promise<Blob> =>
		new Promise<Blob>((resolve, reject) => {
			w.onmessage = (e: MessageEvent<{ blob?: Blob; error?: string }>) => (e.data.blob ? resolve(e.data.blob) : reject(new Error(e.data.error ?? "worker failed")));
			w.onerror = (e) => reject(new Error(e.message));
			w.postMessage(job);
		});
	const next = queue.then(run, run);
	queue = next.catch(() => undefined);
	return next;
}

async function onCanvas(job: ScaleJob): Promise<Blob> {
	const bitmap = await createImageBitmap(job.blob);
	const canvas = activeDocument.createEl("canvas");
	canvas.width = job.width;
	canvas.height = job.height;
	const ctx = canvas.getContext("2d");
	if (!ctx) throw new Error("no 2d context");
	ctx.imageSmoothingQuality = "high";
	if (job.type === "image/jpeg") {
		ctx.fillStyle = "#fff";
		ctx.fillRect(0, 0, job.width, job.height);
	}
	ctx.drawImage(bitmap, 0, 0, job.width, job.height);
	bitmap.close();
	return new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("encode failed"))), job.type, job.quality));
}

/**
 * The image as it will be sent: its real format checked by its bytes (anything but PNG, JPEG, WebP
 * and GIF is refused), its size read from the header and capped (MAX_DECODE_PIXELS), scaled to at most 1568 px on the long side and about 1.15 MP, and
 * re-encoded only where imagePlan.ts says that is needed or saves bytes.
 */
export async function prepareImage(bytes: Uint8Array, opts: { worker?: boolean } = {}): Promise<PreparedImage> {
	const type: AcceptedType | undefined = sniffImageType(bytes);
	if (type === undefined) throw new ImageRejected("unsupported");
	const blob = new Blob([bytes.slice()], { type });
	// Nothing is decoded before its size is known from the header and within the cap: an image
	// whose header cannot be read is refused, never decoded to learn its size.
	const size = headerSize(type, bytes);
	if (size === undefined) throw new ImageRejected("unreadable");
	if (size.width * size.height > MAX_DECODE_PIXELS) throw new ImageRejected("tooLarge");
	const plan = planImage(type, size, bytes.byteLength);
	if (plan.asIs) return { bytes, mediaType: type, width: size.width, height: size.height, scaledIn: "none" };
	const job: ScaleJob = { blob, width: plan.target.width, height: plan.target.height, type: plan.encodeAs, quality: 0.85 };
	let out: Blob;
	let scaledIn: PreparedImage["scaledIn"];
	// `worker: false` (the benchmark's comparison) scales on the main thread.
	const w = opts.worker === false ? null : scalingWorker();
	try {
		if (w) {
			out = await inWorker(w, job);
			scaledIn = "worker";
		} else if (typeof OffscreenCanvas !== "undefined") {
			out = await scaleInScope(job);
			scaledIn = "main";
		} else {
			out = await onCanvas(job);
			scaledIn = "canvas";
		}
	} catch {
		// A decode that failed (or ran out of memory) in the worker is refused, never tried again on
		// the main thread, where a hostile image would freeze the app.
		throw new ImageRejected("unreadable");
	}
	const encoded = new Uint8Array(await out.arrayBuffer());
	return { bytes: encoded, mediaType: plan.encodeAs, width: plan.target.width, height: plan.target.height, scaledIn };
}
