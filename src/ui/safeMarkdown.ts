// Renders untrusted Markdown (answers, thinking, tool results, the history, notes embedded in them)
// with Discover's own renderer (markdown/): no other plugin's code block processor or post-processor
// ever runs on it, and nothing is fetched from the network until the person asks — a remote image
// becomes "Image from host — load". A final pass over what was built (inertDom.ts) is the last line
// of defence, and `obsidian://` links show their address and ask before opening (appLinks.ts).
import { finishRenderMath, loadPrism, renderMath, setIcon } from "obsidian";
import type { App, Component, HoverParent } from "obsidian";
import { hostOf, isRemoteUrl } from "../sessions/remoteUrls";
import { t } from "../i18n";
import { makeInert, type InertOptions } from "./inertDom";
import { keepInert } from "./inertWatch";
import { noteEmbed, type NoteEmbedContext } from "./noteEmbed";
import { guardAppLinks } from "./appLinks";
import { renderMarkdownDom, type MarkdownDomContext } from "./markdown/markdownDom";
import { calloutIcon } from "./markdown/callouts";
import { highlightCode, type PrismLike } from "./markdown/codeHighlight";
import { vaultMedia } from "./markdown/vaultMedia";
import { copyToClipboard } from "./clipboard";
import { VIEW_TYPE_DISCOVER } from "./viewType";

/** Images the person chose to load ("load" on a placeholder): the inert pass leaves them alone. */
const personLoaded = new WeakSet<Element>();

/** Addresses a link in model output may open in the browser; `obsidian:` links are appLinks.ts's to guard. */
const OPENABLE = /^(?:https?|mailto|obsidian):/i;

/** A `data:` image a browser decodes without fetching anything (an SVG could name other files). */
const DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp|avif);base64,/i;

/**
 * Renders Markdown from a model into `el`: with `loadRemoteImages` off (the default), remote images
 * wait for a click. Raw HTML shows as text, but for a few tags that only format text. Render into a
 * detached element and attach it after this resolves (renderAndSwap does).
 */
export async function renderUntrustedMarkdown(app: App, markdown: string, el: HTMLElement, sourcePath: string, component: Component, loadRemoteImages: boolean, embedDepth = 0): Promise<void> {
	const inertOptions: InertOptions = { allowRemoteImages: loadRemoteImages, imagePlaceholder, isTrusted: (node) => personLoaded.has(node) };
	const embeds: NoteEmbedContext = {
		app,
		sourcePath,
		component,
		depth: embedDepth,
		render: (md, into, path, depth) => renderUntrustedMarkdown(app, md, into, path, component, loadRemoteImages, depth),
	};
	let math = false;
	const hoverParent: HoverParent = { hoverPopover: null };
	const ctx: MarkdownDomContext = {
		internalLink: (target, text) => internalLink(app, target, text, sourcePath, hoverParent),
		embed: (target, alias) => {
			if (isRemoteUrl(target)) return ctx.image(target, alias ?? "", undefined);
			return vaultMedia(app, target, alias, sourcePath, ctx.internalLink) ?? noteEmbed(embeds, { target, alias });
		},
		image: (href, alt, title) => image(app, href, alt, title, sourcePath, loadRemoteImages, ctx.internalLink),
		externalLink: (href, title) => {
			if (!OPENABLE.test(href)) return createSpan({ cls: "discover-chat-link-unopened", attr: { title: href } });
			return createEl("a", { cls: "external-link", href, attr: { target: "_blank", rel: "noopener nofollow noreferrer", title: title ?? null } });
		},
		math: (source, display) => {
			try {
				math = true;
				return renderMath(source, display);
			} catch {
				return createEl("code", { text: display ? `$$${source}$$` : `$${source}$` });
			}
		},
		highlight: (code, language) => {
			// The code shows at once, as text; its colours follow when Prism is loaded (at once, after the first time).
			// Colours are a nicety: a failure (Prism missing, or the page gone since, as when a view closes
			// or a test's document is torn down) leaves the code as plain text, never an unhandled rejection.
			void loadPrism()
				.then((prism: PrismLike) => highlightCode(code, language, prism))
				.catch(() => undefined);
		},
		copyCode: (button, text) => {
			setIcon(button, "copy");
			button.setAttribute("aria-label", t("markdown.copyCode"));
			button.addEventListener("click", (event) => {
				event.preventDefault();
				event.stopPropagation();
				void copyToClipboard(text);
			});
		},
		callout: (title, callout) => {
			setIcon(title.createDiv({ cls: "callout-icon" }), calloutIcon(callout.type));
			if (callout.fold === "") return;
			const box = title.parentElement;
			box?.addClass("is-collapsible");
			if (callout.fold === "-") box?.addClass("is-collapsed");
			setIcon(title.createDiv({ cls: "callout-fold" }), "chevron-down");
			title.addEventListener("click", () => box?.toggleClass("is-collapsed", !box.hasClass("is-collapsed")));
		},
	};
	renderMarkdownDom(el, markdown, ctx);
	if (math) await finishRenderMath().catch(() => undefined);
	// Whatever the renderer or the app built, nothing in it loads from the network.
	makeInert(el, inertOptions);
	// `obsidian://` links can run other plugins' commands: their address shows, and a click asks.
	guardAppLinks(el, app);
	// What the app fills in later (an embed's note) gets the same pass.
	keepInert(el, inertOptions, component);
}

/** A link into the vault: opens the note (in a new tab with Ctrl/Cmd), previews it on hover. */
function internalLink(app: App, target: string, text: string, sourcePath: string, hoverParent: HoverParent): HTMLElement {
	const linkpath = target.split("#")[0] ?? "";
	const resolved = linkpath === "" || app.metadataCache.getFirstLinkpathDest(linkpath, sourcePath) !== null;
	const el = createEl("a", { cls: resolved ? "internal-link" : ["internal-link", "is-unresolved"], href: target, text, attr: { "data-href": target, target: "_blank", rel: "noopener nofollow" } });
	el.addEventListener("click", (event) => {
		event.preventDefault();
		void app.workspace.openLinkText(target, sourcePath, event.ctrlKey || event.metaKey);
	});
	el.addEventListener("mouseover", (event) => {
		app.workspace.trigger("hover-link", { event, source: VIEW_TYPE_DISCOVER, hoverParent, targetEl: el, linktext: target, sourcePath });
	});
	return el;
}

/** `![alt](href)`: a vault image, a remote one behind "load", or its words. */
function image(app: App, href: string, alt: string, title: string | undefined, sourcePath: string, loadRemoteImages: boolean, link: (target: string, text: string) => HTMLElement): Node {
	const address = href.trim();
	// A data: image, or an app: resource of this device: nothing is fetched from the network.
	if (DATA_IMAGE.test(address) || /^app:\/\//i.test(address)) return createEl("img", { attr: { src: address, alt, title: title ?? null } });
	if (isRemoteUrl(address)) {
		const target = loadableUrl(address);
		if (loadRemoteImages && target) return createEl("img", { attr: { src: target, alt, title: title ?? null, referrerpolicy: "no-referrer" } });
		return imagePlaceholder(address, alt);
	}
	let path = address;
	try {
		path = decodeURIComponent(address);
	} catch {
		// As written.
	}
	return vaultMedia(app, path, alt === "" ? undefined : alt, sourcePath, link) ?? createSpan({ cls: "discover-chat-image-missing", text: alt === "" ? path : alt, attr: { title: path } });
}

/** An address the person may choose to load: http(s) only (never file shares or app resources). */
function loadableUrl(url: string): string | undefined {
	const trimmed = url.trim().replace(/\\/g, "/");
	const absolute = trimmed.startsWith("//") ? `https:${trimmed}` : trimmed;
	try {
		const parsed = new URL(absolute);
		return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : undefined;
	} catch {
		return undefined;
	}
}

/** "Image from host — load": loads the image in its place when clicked. */
export function imagePlaceholder(url: string, alt: string): HTMLElement {
	const host = hostOf(url);
	const target = loadableUrl(url);
	const title = alt !== "" ? `${alt}\n${url}` : url;
	if (!target) return createSpan({ cls: "discover-chat-remote-image", text: t("image.from", { host }), attr: { title } });
	const button = createEl("button", { cls: "discover-chat-remote-image", text: t("image.fromLoad", { host }), attr: { type: "button", title, "aria-label": t("image.load", { host }) } });
	button.addEventListener("click", (event) => {
		// Inside a link (`[![…](…)](…)`), the click loads the image and does not follow the link.
		event.preventDefault();
		event.stopPropagation();
		const img = createEl("img", { cls: "discover-chat-remote-image-loaded", attr: { src: target, alt, referrerpolicy: "no-referrer" } });
		personLoaded.add(img);
		button.replaceWith(img);
	});
	return button;
}
