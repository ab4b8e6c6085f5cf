// Images embedded in the active note or the selection (`![[diagram.png]]`, `![](img/chart.png)`),
// sent with the message when the person turned that on. Only vault files: a web address in a note
// is never fetched. Found by Obsidian's own link resolution, so `![[diagram.png]]` finds the file
// wherever the person's attachment settings put it.
import { normalizePath, TFile, type App } from "obsidian";
import type { ImageRef } from "../../core/types";
import { headerSize } from "../../core/imageHeader";
import { sniffImageType } from "./imagePlan";

/** At most this many images from one note: each costs as much as a page of text. */
export const MAX_NOTE_IMAGES = 4;

const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "webp", "gif"]);

/** The link targets of image embeds in `text`, in order, once each; web addresses left out. */
export function embeddedImageLinks(text: string): string[] {
	const links: string[] = [];
	const add = (raw: string): void => {
		const link = raw.trim();
		if (link === "" || /^[a-z][a-z0-9+.-]*:/i.test(link)) return;
		const ext = link.split(".").pop()?.toLowerCase() ?? "";
		if (IMAGE_EXTENSIONS.has(ext) && !links.includes(link)) links.push(link);
	};
	for (const m of text.matchAll(/!\[\[([^\]|#^\n]+)(?:[|#^][^\]\n]*)?\]\]/g)) add(m[1] ?? "");
	// `![alt](path)`, `![alt](<path with spaces>)`, either with an optional "title".
	for (const m of text.matchAll(/!\[[^\]\n]*\]\(\s*(?:<([^>\n]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)) {
		let link = m[1] ?? m[2] ?? "";
		try {
			link = decodeURIComponent(link);
		} catch {
			// Left as written.
		}
		add(link);
	}
	return links;
}

/** The embedded images as references to their vault files (not copied: they are already in the vault). */
export async function noteImageRefs(app: App, text: string, sourcePath: string): Promise<ImageRef[]> {
	const refs: ImageRef[] = [];
	for (const link of embeddedImageLinks(text)) {
		if (refs.length >= MAX_NOTE_IMAGES) break;
		const file = app.metadataCache.getFirstLinkpathDest(normalizePath(link), sourcePath);
		if (!(file instanceof TFile) || !IMAGE_EXTENSIONS.has(file.extension.toLowerCase())) continue;
		try {
			const bytes = new Uint8Array(await app.vault.readBinary(file));
			const type = sniffImageType(bytes);
			const size = type === undefined ? undefined : headerSize(type, bytes);
			if (type === undefined || size === undefined) continue;
			refs.push({ path: file.path, mediaType: type, width: size.width, height: size.height, bytes: bytes.byteLength });
		} catch {
			// An unreadable file is left out; the note's text still goes.
		}
	}
	return refs;
}

/** The images embedded in what a send carries of the note: the active note's text and the selection. */
export async function noteImagesFor(app: App, sources: readonly { kind?: string; text: string }[]): Promise<ImageRef[]> {
	const text = sources
		.filter((s) => s.kind === "active" || s.kind === "selection")
		.map((s) => s.text)
		.join("\n");
	if (text === "") return [];
	return noteImageRefs(app, text, app.workspace.getActiveFile()?.path ?? "");
}
