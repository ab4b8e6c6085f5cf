// Character references (`&amp;`, `&#233;`, `&copy;`) in Markdown text, as the text they stand for.
// marked's lexer leaves them as written (its own renderer emits HTML, where they are read later);
// the panel writes text nodes, so it reads them itself. A named reference is read by the browser's
// own HTML parser, one reference at a time: the input can hold nothing but the reference, so no
// element is ever made. Unknown names stay as written, as in HTML.

const REFERENCE = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g;

const named = new Map<string, string>();

function numeric(body: string): string {
	const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
	// As HTML reads them: NUL, surrogates and numbers past Unicode become U+FFFD.
	if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
	return String.fromCodePoint(code);
}

function namedReference(whole: string): string {
	const known = named.get(whole);
	if (known !== undefined) return known;
	const text = new DOMParser().parseFromString(whole, "text/html").body.textContent ?? whole;
	// Few names are real: the cache stays small whatever a text makes up.
	if (named.size < 512) named.set(whole, text);
	return text;
}

/** `text` with every character reference replaced by its character(s). */
export function decodeEntities(text: string): string {
	if (!text.includes("&")) return text;
	return text.replace(REFERENCE, (whole, body: string) => (body.startsWith("#") ? numeric(body) : namedReference(whole)));
}
