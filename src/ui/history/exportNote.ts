import { TFile, TFolder, normalizePath } from "obsidian";
import type { App } from "obsidian";
import { t } from "../../i18n";

/** Longest export name, before " 2.md": in UTF-16 units (Windows) and UTF-8 bytes (ext4, APFS: 255). */
export const MAX_NAME_LENGTH = 100;
export const MAX_NAME_BYTES = 200;

/**
 * Characters no name may hold: those Obsidian refuses or that break links (`[]#^|`), those Windows,
 * macOS and Android (FAT, exFAT) refuse (`\/:*?"<>`), control characters, lone surrogates, and invisible
 * direction overrides that make a name read differently from what it is.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const UNSAFE = /[\\/:*?"<>|#^[\]\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Names Windows reserves for devices, also with any extension ("con.md", "COM1.txt"). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$)(?=$|[. ])/i;

const utf8Length = (text: string): number => new TextEncoder().encode(text).length;

let segmenter: Intl.Segmenter | undefined;

/** User-perceived characters (an emoji with its modifiers is one); code points without Intl.Segmenter. */
function graphemes(text: string): string[] {
	const Segmenter = (Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter;
	if (!Segmenter) return Array.from(text);
	segmenter ??= new Segmenter(undefined, { granularity: "grapheme" });
	return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** The longest run of whole characters from the start that fits both limits. */
function cutToLimits(text: string): string {
	if (text.length <= MAX_NAME_LENGTH && utf8Length(text) <= MAX_NAME_BYTES) return text;
	let out = "";
	let bytes = 0;
	for (const g of graphemes(text)) {
		const size = utf8Length(g);
		if (out.length + g.length > MAX_NAME_LENGTH || bytes + size > MAX_NAME_BYTES) break;
		out += g;
		bytes += size;
	}
	return out;
}

/** Spaces and dots at either end: hidden files (a leading dot) and names Windows trims (a trailing one). */
const trimEnds = (text: string): string => text.replace(/^[\s.]+|[\s.]+$/g, "");

/**
 * A note name for a chat's title, valid and visible on Windows, macOS, Linux, iOS and Android: no
 * forbidden or invisible characters, no leading dot, no trailing dot or space, not a device name,
 * at most MAX_NAME_LENGTH units and MAX_NAME_BYTES bytes, cut between characters, never empty.
 */
export function noteFileName(title: string): string {
	const clean = trimEnds(title.normalize("NFC").replace(UNSAFE, " ").replace(/\s+/g, " "));
	let name = trimEnds(cutToLimits(clean));
	if (name === "") return t("history.defaultNoteName");
	const reserved = WINDOWS_RESERVED.exec(name);
	if (reserved) name = trimEnds(cutToLimits(`${reserved[1]}_${name.slice(reserved[1]?.length ?? 0)}`));
	return name;
}

/** Writes Markdown as a new note in `folder` (created when missing) without overwriting; returns it. */
export async function writeExportNote(app: App, folder: string, title: string, markdown: string): Promise<TFile> {
	const dir = normalizePath(folder.trim() === "" ? "/" : folder);
	if (dir !== "/" && !(app.vault.getAbstractFileByPath(dir) instanceof TFolder)) await app.vault.createFolder(dir);
	const base = noteFileName(title);
	const prefix = dir === "/" ? "" : `${dir}/`;
	let path = normalizePath(`${prefix}${base}.md`);
	for (let n = 2; app.vault.getAbstractFileByPath(path); n++) path = normalizePath(`${prefix}${base} ${n}.md`);
	return app.vault.create(path, markdown);
}

export async function openNote(app: App, file: TFile): Promise<void> {
	await app.workspace.getLeaf("tab").openFile(file);
}
