// A result's images inside its share (imagesWithin): the images kept are the first ones, in order,
// their price is what they cost and never more than the share leaves beside the text (which keeps
// at least half the share, or all it needs when that is less); the rest are counted as left out.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { imagesLeftOutNote, imagesWithin } from "../../src/chat/toolResults";
import { messageImageTokens } from "../../src/chat/promptCost";
import { estimateTokens } from "../../src/chat/tokens";
import type { ImageRef } from "../../src/core/types";

const image = fc.record({ path: fc.constant("att/x.png"), mediaType: fc.constant("image/png"), width: fc.integer({ min: 1, max: 4000 }), height: fc.integer({ min: 1, max: 4000 }), bytes: fc.integer({ min: 1, max: 1_000_000 }) });

describe("a result's images inside its share", () => {
	it("property: a prefix, priced right, within the room the text leaves", () => {
		fc.assert(
			fc.property(fc.array(image, { maxLength: 6 }), fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 20_000 }), (images: ImageRef[], share, text) => {
				const { kept, cost, left } = imagesWithin(images, share, text, estimateTokens);
				const k = kept ?? [];
				expect(k).toEqual(images.slice(0, k.length));
				expect(left).toBe(images.length - k.length);
				expect(cost).toBe(k.reduce((sum, i) => sum + messageImageTokens({ attachments: [i] }, estimateTokens), 0));
				expect(cost).toBeLessThanOrEqual(share - Math.min(text, Math.floor(share / 2)));
				// The first image left out would not have fit.
				const next = images[k.length];
				if (next !== undefined) expect(cost + messageImageTokens({ attachments: [next] }, estimateTokens)).toBeGreaterThan(share - Math.min(text, Math.floor(share / 2)));
				expect(imagesLeftOutNote(left) === "").toBe(left === 0);
			}),
			{ numRuns: 400 },
		);
	});
});
