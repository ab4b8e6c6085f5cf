// Image size arithmetic, pure and shared: what an attached image is scaled to before it is sent,
// and what a provider charges for it in tokens. No canvas here: the UI scales, the engine counts.
import type { ImageRef, ImageTokenRule } from "./types";

/** Anthropic's recommendation, which also suits the others: a long side of at most 1568 px… */
export const MAX_LONG_SIDE = 1568;
/** …and at most about 1.15 megapixels (larger images are scaled down by the server anyway, at our cost in bytes). */
export const MAX_PIXELS = 1_150_000;

export interface Size {
	width: number;
	height: number;
}

function valid(size: Size): boolean {
	return Number.isFinite(size.width) && Number.isFinite(size.height) && size.width > 0 && size.height > 0;
}

/**
 * The size to send an image at: the same aspect, scaled down (never up) until the long side is at
 * most `maxLongSide` and the area at most `maxPixels`; whole pixels, at least 1×1.
 */
export function downscaleTarget(size: Size, maxLongSide = MAX_LONG_SIDE, maxPixels = MAX_PIXELS): Size {
	if (!valid(size)) return { width: 1, height: 1 };
	const long = Math.max(size.width, size.height);
	const scale = Math.min(1, maxLongSide / long, Math.sqrt(maxPixels / (size.width * size.height)));
	if (scale >= 1) return { width: Math.round(size.width), height: Math.round(size.height) };
	// Floor, so rounding never takes the result back over either limit (the nudge keeps 6000 × 1568/6000 at 1568, not 1567.999…).
	return { width: Math.max(1, Math.floor(size.width * scale + 1e-9)), height: Math.max(1, Math.floor(size.height * scale + 1e-9)) };
}

/**
 * OpenAI's high-detail resize rules: fit within 2048×2048, then scale so the shortest side is at
 * most 768 px (images are never scaled up).
 */
export function openaiTileSize(size: Size): Size {
	if (!valid(size)) return { width: 1, height: 1 };
	let { width, height } = size;
	const fit = Math.min(1, 2048 / Math.max(width, height));
	width *= fit;
	height *= fit;
	const shortest = Math.min(1, 768 / Math.min(width, height));
	return { width: Math.max(1, Math.floor(width * shortest)), height: Math.max(1, Math.floor(height * shortest)) };
}

/** 512-px tiles OpenAI bills a high-detail image by, after its resize rules. */
export function openaiTiles(size: Size): number {
	const t = openaiTileSize(size);
	return Math.ceil(t.width / 512) * Math.ceil(t.height / 512);
}

/** OpenAI (GPT-4o class): 85 base tokens plus 170 per 512-px tile. */
export function openaiImageTokens(size: Size): number {
	return 85 + 170 * openaiTiles(size);
}

/** Anthropic: about width × height / 750 tokens (after its own scaling to ~1.15 MP, which our downscale already did). */
export function anthropicImageTokens(size: Size): number {
	if (!valid(size)) return 1;
	const s = downscaleTarget(size);
	return Math.max(1, Math.ceil((s.width * s.height) / 750));
}

/**
 * Tokens an Ollama model spends on one image when the settings name none. Vision models there
 * vary (LLaVA 1.5: 576 patches; LLaVA 1.6 up to 2,880; Gemma 3: 256; Llama 3.2 Vision: ~1,600
 * for a 4-tile image); 768 sits in the middle of the common ones and is what OpenAI charges for a
 * typical 768×768 image, so the budget stays in the same range whichever provider a chat moves to.
 */
export const DEFAULT_OLLAMA_IMAGE_TOKENS = 768;

/** Tokens one image costs under `rule`; without a rule, the larger of tiles and area (never an undercount of either). */
export function imageTokens(image: Pick<ImageRef, "width" | "height">, rule?: ImageTokenRule): number {
	if (rule === "tiles") return openaiImageTokens(image);
	if (rule === "area") return anthropicImageTokens(image);
	if (typeof rule === "object" && Number.isFinite(rule.perImage) && rule.perImage > 0) return Math.ceil(rule.perImage);
	return Math.max(openaiImageTokens(image), anthropicImageTokens(image));
}
