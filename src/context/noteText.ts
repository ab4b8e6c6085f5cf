// A note's text as the vault index keeps it: the smaller of the JS string and its UTF-8 bytes.
// A string with any character past U+00FF takes two bytes a character in the engine, so an English
// note with one "—" or a Cyrillic note with English words is half the size as UTF-8; a Latin-1 or
// mostly-CJK text stays a string. Decoding is per search hit (microseconds for a passage's note).

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** True when a character is past U+00FF (a loop: a regex over the range U+0000… trips no-control-regex). */
function beyondLatin1(text: string): boolean {
	for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return true;
	return false;
}

export function compactText(text: string): string | Uint8Array {
	if (!beyondLatin1(text)) return text;
	const bytes = encoder.encode(text);
	return bytes.length < 2 * text.length ? bytes : text;
}

export function textOf(body: string | Uint8Array): string {
	return typeof body === "string" ? body : decoder.decode(body);
}
