// The Markdown notes of a folder on disk as they are now, with what tells a changed note from an
// unchanged one without reading it (modification time, size, inode: an editor that saves by
// writing a new file and renaming it changes the inode even within the same millisecond). One
// readdir per folder and one lstat per note, so a vault's index can be brought up to date before
// every message by reading only the notes whose stamp moved.
import type { Stats } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { inFolder } from "./excludedFolders";

export interface DiskNote {
	/** Vault path, with "/". */
	path: string;
	abs: string;
	/** Changes whenever the file's content may have changed. */
	stamp: string;
	size: number;
	mtime: number;
}

export const stampOf = (info: Stats): string => `${info.mtimeMs}:${info.size}:${info.ino}`;

/**
 * Every Markdown note under `root`: hidden files and folders (.obsidian, .trash, .git), symbolic
 * links and the `skip` folders (vault paths, compared as the tools compare them) left out.
 */
export async function markdownNotes(root: string, skip: readonly string[]): Promise<DiskNote[]> {
	const found: DiskNote[] = [];
	await walk(root, "", skip, found);
	return found;
}

async function walk(abs: string, path: string, skip: readonly string[], found: DiskNote[]): Promise<void> {
	let entries;
	try {
		entries = await readdir(abs, { withFileTypes: true });
	} catch {
		return; // Removed or unreadable since its parent was listed: it has no notes now.
	}
	const files: { abs: string; path: string }[] = [];
	const folders: { abs: string; path: string }[] = [];
	for (const entry of entries) {
		if (entry.name.startsWith(".") || entry.isSymbolicLink()) continue;
		const child = { abs: join(abs, entry.name), path: path === "" ? entry.name : `${path}/${entry.name}` };
		if (entry.isDirectory()) {
			if (!skip.some((f) => inFolder(child.path, f))) folders.push(child);
		} else if (entry.isFile() && entry.name.toLowerCase().endsWith(".md")) {
			files.push(child);
		}
	}
	// The stats of one folder together: a few hundred small syscalls overlap instead of queueing.
	const stats = await Promise.all(files.map((f) => lstat(f.abs).catch(() => undefined)));
	files.forEach((f, i) => {
		const info = stats[i];
		if (info?.isFile()) found.push({ ...f, stamp: stampOf(info), size: info.size, mtime: info.mtimeMs });
	});
	for (const folder of folders) await walk(folder.abs, folder.path, skip, found);
}
