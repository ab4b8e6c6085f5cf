// Raw HTML and images in Markdown, as Obsidian's reading view renders them: raw HTML is parsed by
// the browser (after a sanitizer that drops scripts and event handlers) and external images become
// <img> elements in the document — which is exactly when a browser fetches them. Parsed in an inert
// document first, then imported, so the test runtime loads what Obsidian would, and nothing more.

/** Reference definitions of the text being rendered (`[label]: url`), by lowercase label. */
let definitions = new Map<string, string>();

const DEFINITION = /^ {0,3}\[([^\]]+)\]:[ \t]*(<[^>\n]*>|\S+)(?:[ \t]+"[^"\n]*")?[ \t]*$/;

/** Takes the reference definitions out of `lines` (they render nothing) and remembers them. */
export function takeDefinitions(lines: string[]): string[] {
	definitions = new Map();
	return lines.filter((line) => {
		const m = DEFINITION.exec(line);
		if (!m) return true;
		definitions.set((m[1] ?? "").trim().toLowerCase(), (m[2] ?? "").replace(/^<(.*)>$/, "$1"));
		return false;
	});
}

export function definition(label: string): string | undefined {
	return definitions.get(label.trim().toLowerCase());
}

const ENTITY = /&(#[xX][0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|colon|sol);/g;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', colon: ":", sol: "/" };

/** A destination as CommonMark reads it: backslash escapes and character references undone. */
export function destination(raw: string): string {
	return raw
		.replace(/^<(.*)>$/, "$1")
		.replace(/\\([!-/:-@[-`{-~])/g, "$1")
		.replace(ENTITY, (_, ref: string) => NAMED[ref] ?? String.fromCodePoint(ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)));
}

/** `![alt](dest)`: an <img> for an address with a scheme (or `//`), a vault embed otherwise. */
export function renderImage(parent: HTMLElement, alt: string, dest: string): void {
	const src = destination(dest);
	if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(src.trim())) parent.createEl("img", { attr: { src, alt } });
	else parent.createSpan({ cls: "internal-embed", attr: { src: decodeURI(src), alt }, text: alt || src });
}

/**
 * How a `<` opens a tag. A browser's tokenizer (Obsidian's) opens one only at `<` + an ASCII letter
 * (`</` + a letter, `<!`, `<?`); any other `<` is text. happy-dom opens one at `<` + any character,
 * so after a stray `<` the markup that follows becomes a bogus tag's attributes: stricter about
 * addresses in attributes, laxer about the tags it swallows. Tests of untrusted HTML run both ways.
 */
let browserTagOpenings = false;

/** Reads a `<` not followed by a letter as text, as a browser does (until called with false). */
export function setBrowserTagOpenings(on: boolean): void {
	browserTagOpenings = on;
}

/** Appends raw HTML, sanitized as Obsidian does (no scripts, no event handlers). */
export function appendHtml(parent: HTMLElement, html: string): void {
	const source = browserTagOpenings ? html.replace(/<(?![A-Za-z!?]|\/[A-Za-z])/g, "&lt;") : html;
	const parsed = new DOMParser().parseFromString(`<body>${source}</body>`, "text/html");
	for (const el of Array.from(parsed.body.querySelectorAll("script"))) el.remove();
	for (const el of Array.from(parsed.body.querySelectorAll("*"))) {
		for (const attr of Array.from(el.attributes)) if (/^on/i.test(attr.name)) el.removeAttribute(attr.name);
	}
	for (const node of Array.from(parsed.body.childNodes)) parent.appendChild(parent.ownerDocument.importNode(node, true));
}
