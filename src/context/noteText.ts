// A note's text as the vault index keeps it: UTF-8 bytes, unless those take two bytes a character
// or more (mostly-CJK text), then the string. A string with any character past U+00FF takes two
// bytes a character in the engine, so an English note with one "—" or a Cyrillic note with English
// words is half the size as UTF-8; and bytes do not depend on how the engine happened to store the
// string it was given (a slice of a two-byte string is two-byte even when it is plain ASCII).
// Decoding is per search hit (microseconds for a passage's note).

import { splitsPair } from "../core/surrogates";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
export function compactText(text: string): string | Uint8Array {
	const bytes = encoder.encode(text);
	return bytes.length < 2 * text.length ? bytes : text;
}

export function textOf(body: string | Uint8Array): string {
	return typeof body === "string" ? body : decoder.decode(body);
}

/** Characters encoded between two steps of compactTextSteps. */
const ENCODE_STEP_CHARS = 1 << 20;

/** `compactText` in steps of ENCODE_STEP_CHARS characters (never between the halves of a surrogate pair). The same result. */
export function* compactTextSteps(text: string): Generator<void, string | Uint8Array, void> {
	if (text.length <= ENCODE_STEP_CHARS) return compactText(text);
	const parts: Uint8Array[] = [];
	let bytes = 0;
	for (let at = 0; at < text.length; ) {
		let to = Math.min(text.length, at + ENCODE_STEP_CHARS);
		// Only a real pair is kept together: a lone high surrogate before the next pair's high half is not one.
		if (splitsPair(text, to)) to++;
		const part = encoder.encode(text.slice(at, to));
		parts.push(part);
		bytes += part.length;
		at = to;
		yield;
		if (bytes >= 2 * text.length) return text;
	}
	const out = new Uint8Array(bytes);
	let n = 0;
	for (const part of parts) {
		out.set(part, n);
		n += part.length;
	}
	return out;
}
