// Renders untrusted Markdown (answers, the history) so that nothing is fetched from the network
// until the person asks: a remote image becomes "Image from host — load". See
// src/sessions/remoteImages.ts for why the Markdown is rewritten before rendering; inertDom.ts then
// checks the DOM after, in case the renderer read some shape differently from the guard.
//
// Each place that must not reach the renderer as written is replaced by a marker: private-use
// characters (U+E000, digits U+E010–U+E019, U+E001) that every Markdown parser keeps as plain text.
// Once rendered, each marker becomes a placeholder, a link, or its original text again — always its
// original text inside code, so code shows exactly what the model wrote.
import { MarkdownRenderer } from "obsidian";
import type { App, Component } from "obsidian";
import { findRemoteLoads, hostOf, type RemoteLoad } from "../sessions/remoteImages";
import { t } from "../i18n";
import { makeInert, type InertOptions } from "./inertDom";
import { keepInert } from "./inertWatch";
import { codeRegions } from "../sessions/codeRegions";
import { findNoteEmbeds, noteEmbed, type NoteEmbedContext, type NoteEmbedRef } from "./noteEmbed";
import { findCodePlaces, type CodePlace } from "./codePlaces";
import { guardAppLinks } from "./appLinks";

const OPEN = "\ue000";
const CLOSE = "\ue001";
const DIGIT_ZERO = 0xe010;
const MARKER = /\ue000([\ue010-\ue019]+)\ue001/g;

interface Piece {
	load: RemoteLoad | undefined;
	/** An embed of a note, rendered by the panel (noteEmbed.ts) rather than filled in by Obsidian. */
	embed?: NoteEmbedRef;
	/** Code other plugins act on (codePlaces.ts): a fence's info string, or inline code's content. */
	code?: CodePlace["kind"];
	/** Text just before an embed that went into its marker (a `<` or `/`), shown as text. */
	before?: string;
	/** The Markdown the marker stands for. */
	text: string;
}

export interface GuardedMarkdown {
	markdown: string;
	pieces: Piece[];
}

function marker(index: number): string {
	return OPEN + [...String(index)].map((d) => String.fromCharCode(DIGIT_ZERO + Number(d))).join("") + CLOSE;
}

/**
 * `markdown` with every remote load (and every stray marker character) replaced by a marker; with
 * `remoteLoads` false (remote images allowed), only embeds of notes and stray marker characters.
 */
export function guardMarkdown(markdown: string, remoteLoads = true): GuardedMarkdown {
	const pieces: Piece[] = [];
	const plain = (text: string): string =>
		// A marker character already in the text would be read as one of ours: it becomes one.
		text.replace(/[\ue000\ue001]/g, (c) => {
			pieces.push({ load: undefined, text: c });
			return marker(pieces.length - 1);
		});
	let out = "";
	let pos = 0;
	for (const { load, embed, code } of guardedPlaces(markdown, remoteLoads)) {
		// `<` or `</` just before a marker goes into it: a lax HTML parser could read `<` + marker +
		// letters as a tag (a spec parser reads it as text).
		let start = load.start;
		while (start > pos && /[</]/.test(markdown[start - 1] ?? "")) start--;
		out += plain(markdown.slice(pos, start));
		pieces.push(
			embed ? { load: undefined, embed, before: markdown.slice(start, load.start), text: markdown.slice(start, load.end) } : code ? { load: undefined, code, text: markdown.slice(start, load.end) } : { load, text: markdown.slice(start, load.end) },
		);
		out += marker(pieces.length - 1);
		pos = load.end;
	}
	out += plain(markdown.slice(pos));
	return { markdown: out, pieces };
}

/**
 * Remote loads, embeds of notes and code other plugins act on, in order, none overlapping: an embed
 * inside a remote load is part of it, and code overlapping either is left to them (a remote load
 * is never shown, whatever a parser makes of the code around it).
 */
function guardedPlaces(markdown: string, remoteLoads: boolean): { load: RemoteLoad; embed?: NoteEmbedRef; code?: CodePlace["kind"] }[] {
	const loads = remoteLoads ? findRemoteLoads(markdown) : [];
	const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }): boolean => a.start < b.end && b.start < a.end;
	const embeds = findNoteEmbeds(markdown, codeRegions(markdown)?.skip ?? [])
		.filter((e) => !loads.some((l) => overlaps(e, l)))
		.map((e) => ({ load: { kind: "inert" as const, start: e.start, end: e.end }, embed: { target: e.target, alias: e.alias } }));
	const taken: { start: number; end: number }[] = [...loads, ...embeds.map((e) => e.load)];
	const code = findCodePlaces(markdown)
		.filter((c) => {
			if (taken.some((t) => overlaps(c, t))) return false;
			taken.push(c);
			return true;
		})
		.map((c) => ({ load: { kind: "inert" as const, start: c.start, end: c.end }, code: c.kind }));
	return [...loads.map((load) => ({ load })), ...embeds, ...code].sort((a, b) => a.load.start - b.load.start);
}

/** Images the person chose to load ("load" on a placeholder): the inert pass leaves them alone. */
const personLoaded = new WeakSet<Element>();

/**
 * MarkdownRenderer.render for text from a model: with `loadRemoteImages` off (the default), remote
 * images wait for a click and raw HTML is shown as text. Either way, a final pass over what was
 * rendered (`makeInert`) leaves nothing else that loads: render into a detached element and attach
 * it after this resolves (renderAndSwap does).
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
	// Embeds of notes are the panel's to render, remote images allowed or not (see noteEmbed.ts).
	const guarded = guardMarkdown(markdown, !loadRemoteImages);
	await MarkdownRenderer.render(app, guarded.markdown, el, sourcePath, component);
	if (guarded.pieces.length > 0) restoreMarkers(el, guarded.pieces, (ref) => noteEmbed(embeds, ref));
	// After the markers: a restored placeholder or link is checked like everything else.
	makeInert(el, inertOptions);
	// `obsidian://` links can run other plugins' commands: their address shows, and a click asks.
	guardAppLinks(el, app);
	// What Obsidian or another plugin fills in later gets the same pass.
	keepInert(el, inertOptions, component);
}

function restoreMarkers(root: HTMLElement, pieces: Piece[], embed: (ref: NoteEmbedRef) => Node): void {
	const doc = root.ownerDocument;
	const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
	const found: Text[] = [];
	for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.nodeValue?.includes(OPEN)) found.push(node as Text);
	for (const node of found) {
		const text = node.nodeValue ?? "";
		const inCode = node.parentElement?.closest("code, pre") != null;
		const parts: (string | Node)[] = [];
		let pos = 0;
		for (const m of text.matchAll(MARKER)) {
			parts.push(text.slice(pos, m.index));
			const piece = pieces[Number([...(m[1] ?? "")].map((c) => c.charCodeAt(0) - DIGIT_ZERO).join(""))];
			if (piece?.embed && !inCode) parts.push(piece.before ?? "", embed(piece.embed));
			else parts.push(piece ? (inCode ? piece.text : shown(piece)) : m[0]);
			pos = m.index + m[0].length;
		}
		parts.push(text.slice(pos));
		node.replaceWith(...parts.filter((p) => p !== ""));
	}
	// A fence's language, taken so no plugin's code block processor matched it, goes back on the
	// rendered block as its class (a `language-x` class for styles and highlighting).
	for (const el of Array.from(root.querySelectorAll("[class]"))) {
		const value = el.getAttribute("class") ?? "";
		if (!value.includes(OPEN)) continue;
		el.setAttribute("class", value.replace(MARKER, (whole, digits: string) => languageOf(pieces[Number([...digits].map((c) => c.charCodeAt(0) - DIGIT_ZERO).join(""))]?.text) ?? "unknown"));
	}
	// Alt texts and titles are attributes: they show the original text.
	for (const el of Array.from(root.querySelectorAll("[alt], [title], [aria-label]"))) {
		for (const name of ["alt", "title", "aria-label"]) {
			const value = el.getAttribute(name);
			if (value?.includes(OPEN)) el.setAttribute(name, value.replace(MARKER, (whole, digits: string) => pieces[Number([...digits].map((c) => c.charCodeAt(0) - DIGIT_ZERO).join(""))]?.text ?? whole));
		}
	}
}

/** A fence info string's language as a class name: its first word, letters and a few signs only. */
function languageOf(info: string | undefined): string | undefined {
	const word = (info ?? "").trim().split(/\s/)[0]?.replace(/[^\w#+.-]/g, "") ?? "";
	return word === "" ? undefined : word;
}

/** What a marker shows outside code. */
function shown(piece: Piece): string | Node {
	const load = piece.load;
	if (load?.kind === "image") return imagePlaceholder(load.url ?? "", load.alt ?? "");
	if (load?.kind === "autolink" && /^(?:https?|mailto):/i.test(load.url ?? "")) {
		const url = load.url ?? "";
		return createEl("a", { cls: "external-link", href: url, text: piece.text.slice(1, -1), attr: { target: "_blank", rel: "noopener nofollow" } });
	}
	return piece.text;
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
