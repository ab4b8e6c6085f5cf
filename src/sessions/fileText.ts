import type { FileStore } from "./store";

/** Bytes `text` takes in UTF-8 (a lone surrogate is written as U+FFFD: 3 bytes), without encoding it. */
export function utf8Length(text: string): number {
	let bytes = 0;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x80) bytes += 1;
		else if (code < 0x800) bytes += 2;
		else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
			bytes += 4;
			i++;
		} else bytes += 3;
	}
	return bytes;
}

/**
 * A 53-bit hash of one line (cyrb53). A manager remembers the hashes of the lines it has read or
 * written instead of the lines themselves: a line whose hash it does not know is news to it.
 */
export function lineHash(line: string): number {
	let h1 = 0xdeadbeef;
	let h2 = 0x41c6ce57;
	for (let i = 0; i < line.length; i++) {
		const c = line.charCodeAt(i);
		h1 = Math.imul(h1 ^ c, 2654435761);
		h2 = Math.imul(h2 ^ c, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export interface FileText {
	/** The file as text; bytes that are not UTF-8 read as U+FFFD. */
	text: string;
	/** Lines (0-based, split at "\n") that are not valid UTF-8, with their exact bytes. */
	undecodable: Map<number, Uint8Array>;
}

const strict = new TextDecoder("utf-8", { fatal: true });

function isUtf8(bytes: Uint8Array): boolean {
	try {
		strict.decode(bytes);
		return true;
	} catch {
		return false;
	}
}

/**
 * Reads a file as text and, when it holds U+FFFD and the store can read bytes, finds the lines
 * whose bytes are not UTF-8 so a rewrite can copy them exactly. Decoding never moves a "\n"
 * (0x0A is never part of a multibyte sequence), so line numbers in text and bytes agree.
 */
export async function readFileText(store: FileStore, path: string): Promise<FileText> {
	const text = await store.read(path);
	const undecodable = new Map<number, Uint8Array>();
	if (!text.includes("\uFFFD") || store.readBytes === undefined) return { text, undecodable };
	// Read again as bytes and take the text from the same bytes, so both views are of one version.
	const bytes = await store.readBytes(path);
	let line = 0;
	let start = 0;
	for (let i = 0; i <= bytes.length; i++) {
		if (i < bytes.length && bytes[i] !== 0x0a) continue;
		const slice = bytes.subarray(start, i);
		if (!isUtf8(slice)) undecodable.set(line, slice.slice());
		line++;
		start = i + 1;
	}
	return { text: new TextDecoder().decode(bytes), undecodable };
}

/** `text` in UTF-8 followed by each of `lines`, each ending in "\n". */
export function textWithLines(text: string, lines: readonly Uint8Array[]): Uint8Array {
	const head = new TextEncoder().encode(text);
	let size = head.length;
	for (const line of lines) size += line.length + 1;
	const out = new Uint8Array(size);
	out.set(head, 0);
	let at = head.length;
	for (const line of lines) {
		out.set(line, at);
		out[at + line.length] = 0x0a;
		at += line.length + 1;
	}
	return out;
}
