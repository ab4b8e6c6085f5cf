import { TFile, TFolder, normalizePath } from "obsidian";
import type { App } from "obsidian";

/** Characters Obsidian refuses in file names, or that break links. */
const UNSAFE = /[\\/:*?"<>|#^[\]]/g;

export function noteFileName(title: string): string {
	const clean = title.replace(UNSAFE, " ").replace(/\s+/g, " ").trim().slice(0, 100).trim();
	return clean === "" ? "Chat" : clean;
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
