/** The most characters of a server's own words an error message carries. */
export const MAX_ERROR_TEXT = 300;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Looks like a web page (a proxy's or gateway's error page) rather than an API's message. */
export function looksLikeHtml(text: string): boolean {
	return /^\s*(?:<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text) || /<\/(?:html|body|head|title|div|p|h1)>/i.test(text.slice(0, 4096));
}

/** A web page's readable text: scripts, styles and comments dropped, tags removed, spaces collapsed. */
export function htmlToText(html: string): string {
	return html
		.replace(/<!--[\s\S]*?-->/g, " ")
		.replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, " ")
		.replace(/<[^>]*>/g, " ")
		.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
			if (name[0] === "#") {
				const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
				return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : " ";
			}
			return ENTITIES[name.toLowerCase()] ?? whole;
		})
		.replace(/\s+/g, " ")
		.trim();
}

/**
 * A server's words, fit for an error message: a web page reduced to its text, whitespace runs
 * collapsed, and cut to a few hundred characters (a 2.5 MB error page must not become the message).
 */
export function conciseServerText(text: string, max = MAX_ERROR_TEXT): string {
	// Only the start can reach the message; never run the regular expressions over megabytes.
	const head = text.length > 64 * 1024 ? text.slice(0, 64 * 1024) : text;
	const plain = looksLikeHtml(head) ? htmlToText(head) : head.replace(/\s+/g, " ").trim();
	if (plain.length <= max && head.length === text.length) return plain;
	if (plain.length <= max) return `${plain}…`;
	// Cut at a code point, never inside a surrogate pair.
	let end = max;
	const code = plain.charCodeAt(end - 1);
	if (code >= 0xd800 && code <= 0xdbff) end--;
	return `${plain.slice(0, end).trimEnd()}…`;
}
