// A result's images inside its share (imagesWithin), decided before any is saved: the images kept
// are the first ones, in order, their price is what they cost at the size they are sent at (read
// from their headers) and never more than the share leaves beside the text (which keeps at least
// half the share, or all it needs when that is less); the rest are counted as left out.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { imagesLeftOutNote, imagesWithin } from "../../src/chat/toolResults";
import { inlineImageTokens } from "../../src/chat/promptCost";
import { estimateTokens } from "../../src/chat/tokens";
import { downscaleTarget, imageTokens, MAX_PIXELS } from "../../src/core/imageSize";
import type { PromptImage } from "../../src/core/types";
import { pngHeaderBase64 } from "../support/pngHeader";

const png = (width: number, height: number): PromptImage => ({ mediaType: "image/png", data: pngHeaderBase64(width, height) });

const sized = fc.record({ width: fc.integer({ min: 1, max: 4000 }), height: fc.integer({ min: 1, max: 4000 }) });
const price = (i: PromptImage): number => inlineImageTokens(i, estimateTokens);

describe("a result's images inside its share", () => {
	it("property: a prefix, priced right, within the room the text leaves", () => {
		fc.assert(
			fc.property(fc.array(sized, { maxLength: 6 }), fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 20_000 }), (sizes, share, text) => {
				const images = sizes.map((s) => png(s.width, s.height));
				const { kept, cost, left } = imagesWithin(images, share, text, price);
				const k = kept ?? [];
				expect(k).toEqual(images.slice(0, k.length));
				expect(left).toBe(images.length - k.length);
				expect(cost).toBe(sizes.slice(0, k.length).reduce((sum, s) => sum + imageTokens(downscaleTarget(s)), 0));
				expect(cost).toBeLessThanOrEqual(share - Math.min(text, Math.floor(share / 2)));
				// The first image left out would not have fit.
				const next = images[k.length];
				if (next !== undefined) expect(cost + price(next)).toBeGreaterThan(share - Math.min(text, Math.floor(share / 2)));
				expect(imagesLeftOutNote(left) === "").toBe(left === 0);
			}),
			{ numRuns: 400 },
		);
	});

	it("an image whose header cannot be read is priced as the largest image sent", () => {
		const largest = imageTokens({ width: Math.floor(Math.sqrt(MAX_PIXELS)), height: Math.floor(Math.sqrt(MAX_PIXELS)) });
		expect(price({ mediaType: "image/png", data: "not base64!" })).toBe(largest);
		expect(price({ mediaType: "image/png", data: "AAAA" })).toBe(largest);
		expect(price({ mediaType: "image/bmp", data: png(10, 10).data })).toBe(largest);
		expect(price(png(10, 10))).toBe(imageTokens({ width: 10, height: 10 }));
	});
});
