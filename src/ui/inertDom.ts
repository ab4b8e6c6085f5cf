// The last line of defence for untrusted Markdown (answers, notes): a pass over the rendered element
// tree, after MarkdownRenderer and before the tree is attached, that leaves nothing able to fetch from
// the network. The Markdown guard (safeMarkdown.ts) stays the first line — Chromium starts loading an
// <img> as soon as it is created with a src — but a guard that reads text can be fooled by a shape the
// renderer reads differently (an unclosed fence in an HTML block, a lax parser's idea of a tag...).
// This pass reads what was actually built, whatever the Markdown around it: iframes, embeds, objects,
// style sheets and link/meta/base only act once attached, so for them it is airtight.
import { isRemoteUrl } from "../sessions/remoteUrls";

/** Elements whose only job is to load or to change how the page loads: shown as their source text. */
const LOADER_TAGS = new Set([
	...["iframe", "frame", "frameset", "embed", "object", "applet", "param", "portal", "fencedframe"],
	...["link", "meta", "base", "script", "noscript", "template"],
	// SVG animation can set an href to a remote address after the pass has looked.
	...["set", "animate", "animatemotion", "animatetransform"],
]);

/** Attributes that name something to fetch, on any element (HTML or SVG). */
const URL_ATTRIBUTES = new Set(["src", "srcset", "imagesrcset", "data", "poster", "background", "href", "xlink:href", "lowsrc", "dynsrc", "longdesc", "codebase", "archive", "classid", "action", "formaction", "ping", "manifest", "icon", "profile"]);

/** Elements whose `href` is a link the person may follow: it loads nothing by being shown. */
const LINK_TAGS = new Set(["a", "area"]);
const LINK_ATTRIBUTES = new Set(["href", "xlink:href", "data-href"]);

const SVG_NAMESPACE = "http://www.w3.org/2000/svg";

/** Attributes that are text for people, never read as CSS or URLs. */
const TEXT_ATTRIBUTES = new Set(["alt", "title", "aria-label", "aria-description", "placeholder"]);

/** CSS functions that fetch, and CSS that can hide one (escapes) or pull a sheet in (`@import`). */
const CSS_FUNCTION = /(?:^|[^\w-])((?:-webkit-)?image-set|image|cross-fade|url|src)\(\s*(["']?)([^"')]*)/gi;

export interface InertOptions {
	/** The "Load images from the web in answers" setting: <img> (and a picture's sources) keep remote addresses. */
	allowRemoteImages: boolean;
	/** What a remote <img> becomes instead ("Image from host — load"). */
	imagePlaceholder: (url: string, alt: string) => Node;
	/** Elements the person asked for (an image they chose to load): left as they are. */
	isTrusted?: (el: Element) => boolean;
}

/** True when CSS text could fetch something: any url() that is not a same-document `#ref` or local. */
export function cssLoads(css: string): boolean {
	const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
	// An escape can spell `url(` or a scheme in a way no simple reading sees.
	if (text.includes("\\") || /@import/i.test(text)) return true;
	for (const m of text.matchAll(CSS_FUNCTION)) {
		const fn = (m[1] ?? "").toLowerCase();
		const target = (m[3] ?? "").trim();
		if (fn !== "url" && fn !== "src") return true;
		if (!target.startsWith("#") && isRemoteUrl(target)) return true;
	}
	return false;
}

/** True when a srcset-like list names a remote address. */
function srcsetLoads(value: string): boolean {
	return value.split(",").some((candidate) => {
		const url = candidate.trim().split(/\s+/)[0] ?? "";
		return url !== "" && isRemoteUrl(url);
	});
}

function attributeLoads(el: Element, name: string, value: string): boolean {
	if (TEXT_ATTRIBUTES.has(name) || name.startsWith("aria-")) return false;
	if (LINK_TAGS.has(el.localName.toLowerCase()) && LINK_ATTRIBUTES.has(name)) return false;
	// CSS: a style attribute, or an SVG presentation attribute (`fill="url(…)"`, `filter`, `mask`…).
	if (name === "style") return cssLoads(value);
	if (el.namespaceURI === SVG_NAMESPACE && /url\s*\(|image|\\/i.test(value) && cssLoads(value)) return true;
	if (!URL_ATTRIBUTES.has(name)) return false;
	// A `ping` is sent when a link is followed: a request the person did not ask for.
	if (name === "ping") return true;
	if (name === "srcset" || name === "imagesrcset") return srcsetLoads(value);
	// Relative paths (vault resources) and same-document `#refs` are local.
	return isRemoteUrl(value);
}

/** The remote address an <img> would load, if any: its src, else its first remote srcset candidate. */
function remoteImageUrl(img: Element): string | undefined {
	const src = img.getAttribute("src");
	if (src !== null && isRemoteUrl(src)) return src;
	const srcset = img.getAttribute("srcset");
	if (srcset !== null && srcsetLoads(srcset)) return srcset.split(",").map((c) => c.trim().split(/\s+/)[0] ?? "").find((u) => u !== "" && isRemoteUrl(u));
	return undefined;
}

function isPictureSource(el: Element): boolean {
	return el.localName.toLowerCase() === "source" && el.parentElement?.localName.toLowerCase() === "picture";
}

/**
 * Neutralises, in place, every element and attribute under `root` that could fetch from the network:
 * loader elements become their source as text, a remote <img> becomes a placeholder, and any other
 * attribute naming a remote address or fetching CSS is removed. Links (`<a href>`) stay links.
 * Returns how many things were neutralised.
 */
export function makeInert(root: Element, options: InertOptions): number {
	let count = 0;
	let replaced = false;
	// Elements are collected first: the tree changes as they are handled (a replaced element's
	// descendants went with it).
	for (const el of Array.from(root.querySelectorAll("*"))) {
		if (replaced && !root.contains(el)) continue;
		const result = makeElementInert(el, options);
		if (result === "replaced") {
			replaced = true;
			count++;
		} else count += result;
	}
	return count;
}

/** `makeInert` for a subtree that may itself be a loader (an element added after the render). */
export function makeTreeInert(node: Element, options: InertOptions): number {
	const own = makeElementInert(node, options);
	if (own === "replaced") return 1;
	return own + makeInert(node, options);
}

/** One element, not its descendants: "replaced" when the element itself had to go. */
export function makeElementInert(el: Element, options: InertOptions): number | "replaced" {
	if (options.isTrusted?.(el) === true) return 0;
	const tag = el.localName.toLowerCase();
	if (LOADER_TAGS.has(tag) || (tag === "style" && cssLoads(el.textContent ?? ""))) {
		el.replaceWith(el.ownerDocument.createTextNode(el.outerHTML));
		return "replaced";
	}
	const keepImages = options.allowRemoteImages && (tag === "img" || isPictureSource(el));
	if (tag === "img" && !keepImages) {
		const url = remoteImageUrl(el);
		if (url !== undefined) {
			el.replaceWith(options.imagePlaceholder(url, el.getAttribute("alt") ?? ""));
			return "replaced";
		}
	}
	let count = 0;
	for (const attr of Array.from(el.attributes)) {
		const name = attr.name.toLowerCase();
		if (keepImages && (name === "src" || name === "srcset")) continue;
		if (attributeLoads(el, name, attr.value)) {
			el.removeAttribute(attr.name);
			count++;
		}
	}
	return count;
}
