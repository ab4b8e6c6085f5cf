// The size arithmetic of images: the size they are sent at, and what each provider charges.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { anthropicImageTokens, downscaleTarget, imageTokens, MAX_LONG_SIDE, MAX_PIXELS, openaiImageTokens, openaiTiles, openaiTileSize } from "../../src/core/imageSize";

describe("downscaleTarget", () => {
	it("leaves a small image as it is (never scales up)", () => {
		expect(downscaleTarget({ width: 800, height: 600 })).toEqual({ width: 800, height: 600 });
	});

	it("a 12-megapixel photo (4000×3000) fits both limits, keeping its aspect", () => {
		const t = downscaleTarget({ width: 4000, height: 3000 });
		expect(t.width * t.height).toBeLessThanOrEqual(MAX_PIXELS);
		expect(Math.max(t.width, t.height)).toBeLessThanOrEqual(MAX_LONG_SIDE);
		expect(t).toEqual({ width: 1238, height: 928 });
	});

	it("a long panorama is bound by its long side", () => {
		expect(downscaleTarget({ width: 6000, height: 1000 })).toEqual({ width: 1568, height: 261 });
	});

	it("any size comes out within both limits, at least 1×1, never larger, aspect within a pixel", () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 40_000 }), fc.integer({ min: 1, max: 40_000 }), (width, height) => {
				const t = downscaleTarget({ width, height });
				expect(t.width).toBeGreaterThanOrEqual(1);
				expect(t.height).toBeGreaterThanOrEqual(1);
				expect(t.width).toBeLessThanOrEqual(width);
				expect(t.height).toBeLessThanOrEqual(height);
				expect(Math.max(t.width, t.height)).toBeLessThanOrEqual(MAX_LONG_SIDE);
				expect(t.width * t.height).toBeLessThanOrEqual(MAX_PIXELS);
				// The aspect is kept up to the rounding of each side.
				if (t.width > 1 && t.height > 1) expect(Math.abs(t.width / t.height - width / height)).toBeLessThanOrEqual((width / height) * (1 / t.height + 1 / t.width) + 1e-9);
			}),
		);
	});

	it("nonsense sizes give 1×1, never NaN", () => {
		expect(downscaleTarget({ width: 0, height: 10 })).toEqual({ width: 1, height: 1 });
		expect(downscaleTarget({ width: Number.NaN, height: 10 })).toEqual({ width: 1, height: 1 });
	});
});

describe("what each provider charges", () => {
	it("OpenAI: OpenAI's own worked examples (1024² → 765; 2048×4096 → 1105; 4096×8192 → 1105)", () => {
		expect(openaiImageTokens({ width: 1024, height: 1024 })).toBe(765);
		expect(openaiTileSize({ width: 2048, height: 4096 })).toEqual({ width: 768, height: 1536 });
		expect(openaiImageTokens({ width: 2048, height: 4096 })).toBe(1105);
		expect(openaiImageTokens({ width: 4096, height: 8192 })).toBe(1105);
	});

	it("OpenAI: a small image is one tile (85 + 170)", () => {
		expect(openaiTiles({ width: 300, height: 200 })).toBe(1);
		expect(openaiImageTokens({ width: 300, height: 200 })).toBe(255);
	});

	it("Anthropic: width × height / 750, after the ~1.15 MP scaling", () => {
		expect(anthropicImageTokens({ width: 1000, height: 1000 })).toBe(1334);
		expect(anthropicImageTokens({ width: 200, height: 200 })).toBe(54);
		// A 12 MP photo is priced at the size it is sent at, not its original one.
		expect(anthropicImageTokens({ width: 4000, height: 3000 })).toBe(Math.ceil((1238 * 928) / 750));
	});

	it("a per-image count (Ollama's setting) is used as given; no rule takes the larger of tiles and area", () => {
		const size = { width: 1000, height: 1000 };
		expect(imageTokens(size, { perImage: 576 })).toBe(576);
		expect(imageTokens(size, "tiles")).toBe(openaiImageTokens(size));
		expect(imageTokens(size, "area")).toBe(anthropicImageTokens(size));
		expect(imageTokens(size)).toBe(Math.max(openaiImageTokens(size), anthropicImageTokens(size)));
	});
});
