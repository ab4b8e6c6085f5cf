// Base64 for image bytes without Node's Buffer: the same code in Node, Electron and on mobile (atob is in all three).

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The bytes of standard base64 (padding optional). Throws on text that is not base64 (atob's DOMException). */
export function fromBase64(text: string): Uint8Array {
	return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/** Standard base64 with padding; no Buffer or btoa, so it runs the same in Node, Electron and mobile. */
export function toBase64(bytes: Uint8Array): string {
	const parts: string[] = [];
	let chunk = "";
	let i = 0;
	for (; i + 2 < bytes.length; i += 3) {
		const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
		chunk += `${BASE64[n >> 18]}${BASE64[(n >> 12) & 63]}${BASE64[(n >> 6) & 63]}${BASE64[n & 63]}`;
		// Joined in pieces: one string grown by millions of `+=` is slow in some engines.
		if (chunk.length >= 8192) {
			parts.push(chunk);
			chunk = "";
		}
	}
	const rest = bytes.length - i;
	if (rest === 1) {
		const n = (bytes[i] as number) << 16;
		chunk += `${BASE64[n >> 18]}${BASE64[(n >> 12) & 63]}==`;
	} else if (rest === 2) {
		const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8);
		chunk += `${BASE64[n >> 18]}${BASE64[(n >> 12) & 63]}${BASE64[(n >> 6) & 63]}=`;
	}
	parts.push(chunk);
	return parts.join("");
}
