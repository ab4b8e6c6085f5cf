// @vitest-environment happy-dom
// Images are checked before they are decoded: width × height comes from the header
// and is capped at 50 megapixels before anything decodes; an image whose header cannot be read is
// refused rather than decoded to learn its size; a failed decode is refused, never tried again on
// the main thread. `createImageBitmap` is the decode: a spy counts every call.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ImageRejected, MAX_DECODE_PIXELS, prepareImage } from "../../src/ui/images/downscale";

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
	new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
const be32 = (n: number): number[] => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const be16 = (n: number): number[] => [(n >> 8) & 255, n & 255];
const le16 = (n: number): number[] => [n & 255, (n >> 8) & 255];
const le24 = (n: number): number[] => [n & 255, (n >> 8) & 255, (n >> 16) & 255];

const png = (w: number, h: number): Uint8Array => bytes([0x89], "PNG\r\n", [0x1a, 0x0a], be32(13), "IHDR", be32(w), be32(h), [8, 6, 0, 0, 0], new Array<number>(64).fill(0));
const gif = (w: number, h: number): Uint8Array => bytes("GIF89a", le16(w), le16(h), new Array<number>(64).fill(0));
const jpeg = (w: number, h: number): Uint8Array => bytes([0xff, 0xd8], [0xff, 0xc0], be16(17), [8], be16(h), be16(w), [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1], [0xff, 0xd9]);
const webp = (w: number, h: number): Uint8Array => bytes("RIFF", [0, 0, 0, 0], "WEBP", "VP8X", [10, 0, 0, 0], [0, 0, 0, 0], le24(w - 1), le24(h - 1), new Array<number>(32).fill(0));

let decodes: ReturnType<typeof vi.fn>;

beforeEach(() => {
	decodes = vi.fn(() => Promise.reject(new Error("decode failed")));
	vi.stubGlobal("createImageBitmap", decodes);
});
afterEach(() => vi.unstubAllGlobals());

async function refusal(image: Uint8Array): Promise<string | undefined> {
	try {
		await prepareImage(image);
	} catch (err) {
		return err instanceof ImageRejected ? err.reason : `other: ${String(err)}`;
	}
	return undefined;
}

describe("an image's size is checked before it is decoded", () => {
	it("refuses a 30000×30000 header (3.35 GiB decoded) in every format without calling createImageBitmap", async () => {
		for (const image of [png(30000, 30000), gif(30000, 30000), jpeg(30000, 30000), webp(16000, 16000)]) {
			expect(await refusal(image)).toBe("tooLarge");
		}
		expect(decodes).not.toHaveBeenCalled();
	});

	it("caps at 50 megapixels: just over is refused undecoded, just under goes on to the decode", async () => {
		expect(MAX_DECODE_PIXELS).toBe(50_000_000);
		expect(await refusal(png(10_000, 5_001))).toBe("tooLarge");
		expect(decodes).not.toHaveBeenCalled();
		// 49.99 MP: allowed to decode (here the decode fails, and that is refused too).
		expect(await refusal(png(9_999, 5_000))).toBe("unreadable");
		expect(decodes).toHaveBeenCalled();
	});

	it("refuses an image whose header cannot be read instead of decoding it to learn its size", async () => {
		const truncated = bytes([0x89], "PNG\r\n", [0x1a, 0x0a], be32(13), "IHDR", [0, 0]);
		expect(await refusal(truncated)).toBe("unreadable");
		expect(await refusal(bytes([0xff, 0xd8], [0xff, 0xe0], be16(4), [0, 0]))).toBe("unreadable");
		expect(decodes).not.toHaveBeenCalled();
	});

	it("refuses a failed decode once: it is never tried again on the main thread", async () => {
		// A platform with OffscreenCanvas and no Worker: the scaling runs once, here, and fails.
		vi.stubGlobal("OffscreenCanvas", class {});
		expect(await refusal(png(4000, 3000))).toBe("unreadable");
		expect(decodes).toHaveBeenCalledTimes(1);
	});
});
