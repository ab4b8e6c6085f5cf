// An image's size from its header bytes, so a large photo is decoded once, straight to the size
// it is sent at, rather than once to learn its size and again to scale it; and so the engine can
// price an image a tool returned before it is saved. Pure; the orientation a camera wrote in EXIF
// is applied (a portrait photo stored sideways reports its upright size).
import type { Size } from "./imageSize";

/** The formats whose header this reads (the ones Discover sends). */
export type HeaderImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

function u16be(b: Uint8Array, i: number): number {
	return ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
}
function u16le(b: Uint8Array, i: number): number {
	return (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
}
function u24le(b: Uint8Array, i: number): number {
	return (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8) | ((b[i + 2] ?? 0) << 16);
}
function u32be(b: Uint8Array, i: number): number {
	return (((b[i] ?? 0) << 24) >>> 0) + (((b[i + 1] ?? 0) << 16) | ((b[i + 2] ?? 0) << 8) | (b[i + 3] ?? 0));
}

/** EXIF orientation (1–8) in an APP1 segment, or 1. */
function exifOrientation(b: Uint8Array, start: number, end: number): number {
	if (String.fromCharCode(...b.subarray(start, start + 4)) !== "Exif") return 1;
	const tiff = start + 6;
	const little = b[tiff] === 0x49;
	const u16 = (i: number): number => (little ? u16le(b, i) : u16be(b, i));
	const u32 = (i: number): number => (little ? (u16le(b, i) | (u16le(b, i + 2) << 16)) >>> 0 : u32be(b, i));
	const ifd = tiff + u32(tiff + 4);
	const count = u16(ifd);
	for (let k = 0; k < count; k++) {
		const entry = ifd + 2 + k * 12;
		if (entry + 12 > end) break;
		if (u16(entry) === 0x0112) return u16(entry + 8);
	}
	return 1;
}

function jpegSize(b: Uint8Array): Size | undefined {
	let i = 2;
	let orientation = 1;
	while (i + 9 < b.length) {
		if (b[i] !== 0xff) return undefined;
		const marker = b[i + 1] ?? 0;
		if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0xff) {
			i += marker === 0xff ? 1 : 2;
			continue;
		}
		const length = u16be(b, i + 2);
		if (marker === 0xe1) orientation = exifOrientation(b, i + 4, i + 2 + length);
		// SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
		if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
			const height = u16be(b, i + 5);
			const width = u16be(b, i + 7);
			return orientation >= 5 && orientation <= 8 ? { width: height, height: width } : { width, height };
		}
		i += 2 + length;
	}
	return undefined;
}

function webpSize(b: Uint8Array): Size | undefined {
	const chunk = String.fromCharCode(...b.subarray(12, 16));
	if (chunk === "VP8X") return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
	if (chunk === "VP8 ") return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
	if (chunk === "VP8L") {
		const bits = ((b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24)) >>> 0;
		return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
	}
	return undefined;
}

/** The image's upright size from its header, or undefined when the header cannot be read (decode it then). */
export function headerSize(type: HeaderImageType, b: Uint8Array): Size | undefined {
	let size: Size | undefined;
	if (type === "image/png") size = b.length >= 24 ? { width: u32be(b, 16), height: u32be(b, 20) } : undefined;
	else if (type === "image/gif") size = b.length >= 10 ? { width: u16le(b, 6), height: u16le(b, 8) } : undefined;
	else if (type === "image/jpeg") size = jpegSize(b);
	else size = b.length >= 30 ? webpSize(b) : undefined;
	return size !== undefined && size.width > 0 && size.height > 0 ? size : undefined;
}
