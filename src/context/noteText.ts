// A note's text as the vault index keeps it: UTF-8 bytes, unless those take two bytes a character
// or more (mostly-CJK text), then the string. A string with any character past U+00FF takes two
// bytes a character in the engine, so an English note with one "—" or a Cyrillic note with English
// words is half the size as UTF-8; and bytes do not depend on how the engine happened to store the
// string it was given (a slice of a two-byte string is two-byte even when it is plain ASCII).
// Decoding is per search hit (microseconds for a passage's note).

const encoder = new TextEncoder();
const decoder = new TextDecoder();
export function compactText(text: string): string | Uint8Array {
	const bytes = encoder.encode(text);
	return bytes.length < 2 * text.length ? bytes : text;
}

export function textOf(body: string | Uint8Array): string {
	return typeof body === "string" ? body : decoder.decode(body);
}
