/** The most characters of a server's own words an error message carries. */
export const MAX_ERROR_TEXT = 300;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Looks like a web page (a proxy's or gateway's error page) rather than an API's message. */
export function looksLikeHtml(text: string): boolean {
	return /^\s*(?:<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text) || /<\/(?:html|body|head|title|div|p|h1)>/i.test(text.slice(0, 4096));
}

/** Elements whose content is not text to read. */
const RAW_TEXT = new Set(["script", "style", "noscript", "template"]);

/**
 * A web page's readable text: scripts, styles and comments dropped, tags removed, entities decoded,
 * spaces collapsed. One pass, never backtracking: the page comes from a server we do not trust.
 */
export function htmlToText(html: string): string {
	const lower = html.toLowerCase();
	const parts: string[] = [];
	let i = 0;
	while (i < html.length) {
		const lt = html.indexOf("<", i);
		if (lt === -1) {
			parts.push(html.slice(i));
			break;
		}
		parts.push(html.slice(i, lt), " ");
		if (lower.startsWith("<!--", lt)) {
			const end = lower.indexOf("-->", lt + 4);
			i = end === -1 ? html.length : end + 3;
			continue;
		}
		const gt = html.indexOf(">", lt);
		// A page read only in part may end inside a tag.
		if (gt === -1) break;
		const name = /^<\s*([a-z]+)/.exec(lower.slice(lt, Math.min(gt, lt + 24)))?.[1];
		i = gt + 1;
		if (name !== undefined && RAW_TEXT.has(name)) {
			const close = lower.indexOf(`</${name}`, i);
			if (close === -1) break;
			const closeEnd = html.indexOf(">", close);
			i = closeEnd === -1 ? html.length : closeEnd + 1;
		}
	}
	return parts
		.join("")
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
