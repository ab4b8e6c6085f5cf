// The Markdown notes of a folder on disk as they are now, with what tells a changed note from an
// unchanged one without reading it (modification time, size, inode: an editor that saves by
// writing a new file and renaming it changes the inode even within the same millisecond; and the
// change time, which a tool that puts the old mtime back, like `cp -p` or `rsync -t`, cannot set). One
// readdir per folder and one lstat per note, so a vault's index can be brought up to date before
// every message by reading only the notes whose stamp moved. Synchronous on purpose: a stat through
// the thread pool costs ~50-100 µs of round trip, several times the call itself, and the chat has
// nothing else to do while it checks (measured: bench/vaultRefresh.ts).
import { lstatSync, readdirSync, type Dirent, type Stats } from "node:fs";
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

export const stampOf = (info: Stats): string => `${info.mtimeMs}:${info.ctimeMs}:${info.size}:${info.ino}`;

/**
 * Every Markdown note under `root`: hidden files and folders (.obsidian, .trash, .git), symbolic
 * links and the `skip` folders (vault paths, compared as the tools compare them) left out.
 */
export function markdownNotes(root: string, skip: readonly string[]): DiskNote[] {
	const found: DiskNote[] = [];
	walk(root, "", skip, found);
	return found;
}

function walk(abs: string, path: string, skip: readonly string[], found: DiskNote[]): void {
	let entries: Dirent[];
	try {
		entries = readdirSync(abs, { withFileTypes: true });
	} catch {
		return; // Removed or unreadable since its parent was listed: it has no notes now.
	}
	for (const entry of entries) {
		if (entry.name.startsWith(".") || entry.isSymbolicLink()) continue;
		const child = join(abs, entry.name);
		const childPath = path === "" ? entry.name : `${path}/${entry.name}`;
		if (entry.isDirectory()) {
			if (!skip.some((f) => inFolder(childPath, f))) walk(child, childPath, skip, found);
		} else if (entry.isFile() && entry.name.toLowerCase().endsWith(".md")) {
			let info: Stats | undefined;
			try {
				info = lstatSync(child, { throwIfNoEntry: false });
			} catch {
				info = undefined; // Unreadable: not a note the chat can use.
			}
			if (info?.isFile()) found.push({ path: childPath, abs: child, stamp: stampOf(info), size: info.size, mtime: info.mtimeMs });
		}
	}
}
