// Images, sounds, videos and PDFs of the vault, embedded in model output (`![[photo.png|300]]`,
// `![](photo.png)`): shown from the vault's own files (`app://` resources), never from the network.
// A PDF shows as a link to it; a missing file as its name, as Obsidian shows an unresolved embed.
import type { App } from "obsidian";

const IMAGE = /^(?:png|jpe?g|gif|webp|avif|bmp|svg)$/i;
const AUDIO = /^(?:mp3|wav|m4a|ogg|flac|3gp|webm)$/i;
const VIDEO = /^(?:mp4|mov|mkv|ogv)$/i;

/** Whether a path's extension is media: an image, a sound, a video or a PDF. */
function isMedia(path: string): boolean {
	const ext = /\.([^./]+)$/.exec(path)?.[1] ?? "";
	return IMAGE.test(ext) || AUDIO.test(ext) || VIDEO.test(ext) || /^pdf$/i.test(ext);
}

/** `300` or `300x200` after the bar: a size, not words. */
const SIZE = /^(\d{1,5})(?:x(\d{1,5}))?$/;

/**
 * The element for `target` when it names media (by its extension): the file from the vault, or its
 * name when the vault has no such file. Undefined for anything else (a note, a canvas, a base).
 */
export function vaultMedia(app: App, target: string, alias: string | undefined, sourcePath: string, link: (target: string, text: string) => HTMLElement): HTMLElement | undefined {
	const linkpath = (target.split("#")[0] ?? "").trim();
	if (!isMedia(linkpath)) return undefined;
	const size = SIZE.exec(alias ?? "");
	const file = app.metadataCache.getFirstLinkpathDest(linkpath, sourcePath);
	const alt = size || alias === undefined ? (file?.basename ?? linkpath) : alias;
	const embed = (kind: string, loaded: boolean): HTMLElement => createSpan({ cls: ["internal-embed", "media-embed", `${kind}-embed`, loaded ? "is-loaded" : "is-unresolved"], attr: { src: target, alt } });
	if (!file) {
		const missing = embed("file", false);
		missing.setText(alt);
		return missing;
	}
	const src = app.vault.getResourcePath(file);
	if (IMAGE.test(file.extension)) {
		const el = embed("image", true);
		const img = el.createEl("img", { attr: { src, alt } });
		if (size) img.setAttribute("width", size[1] ?? "");
		if (size?.[2]) img.setAttribute("height", size[2]);
		return el;
	}
	// `.webm` may hold only sound: it plays as a sound.
	const player = VIDEO.test(file.extension) ? "video" : AUDIO.test(file.extension) ? "audio" : undefined;
	if (player) {
		const el = embed(player, true);
		el.createEl(player, { attr: { src, controls: "", title: alt } });
		return el;
	}
	const pdf = embed("pdf", true);
	pdf.appendChild(link(target, alias ?? file.basename));
	return pdf;
}
