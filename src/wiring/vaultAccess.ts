// The vault tools' VaultAccess over Obsidian's API. Notes are Markdown files the vault indexes
// (never hidden ones: the tools refuse those paths before they get here); reads use cachedRead,
// edits vault.process (atomic), removal fileManager.trashFile (the person's trash preference), tags
// the metadata cache (inline and frontmatter). The search is the note index the sources service
// keeps; until it is ready, search_notes says so instead of answering from nothing.
import { MarkdownView, TFile, TFolder, type App, type CachedMetadata } from "obsidian";
import type { NoteIndex, NoteSearchHit } from "../context/NoteIndex";
import { ToolError } from "../tools/paths";
import type { VaultAccess, VaultNote } from "../tools/types";

export interface VaultAccessOptions {
	/** The vault's note index, once built (the sources service's). */
	index: () => NoteIndex | undefined;
	/** The note the person is reading and its selection; default: the workspace's active file. */
	active?: () => { path: string; selection: string } | null;
}

/** Tags without '#': inline ones and the frontmatter's `tags` (a list or a comma/space separated string). */
export function tagsFromCache(cache: CachedMetadata | null): string[] {
	const tags = new Set<string>();
	for (const t of cache?.tags ?? []) tags.add(t.tag.replace(/^#/, ""));
	const fm: unknown = cache?.frontmatter?.tags ?? cache?.frontmatter?.tag;
	const listed = Array.isArray(fm) ? fm : typeof fm === "string" ? fm.split(/[,\s]+/) : [];
	for (const t of listed) if (typeof t === "string" && t.trim()) tags.add(t.trim().replace(/^#/, ""));
	return [...tags];
}

/** The note open in the editor: the active Markdown view, else the active file (the chat may have focus). */
function activeNote(app: App): { path: string; selection: string } | null {
	const view = app.workspace.getActiveViewOfType(MarkdownView);
	const file = view?.file ?? app.workspace.getActiveFile();
	if (!file || file.extension !== "md") return null;
	let selection = "";
	const source = view ?? app.workspace.getLeavesOfType("markdown").map((l) => l.view).find((v): v is MarkdownView => v instanceof MarkdownView && v.file?.path === file.path);
	try {
		selection = source?.editor.getSelection() ?? "";
	} catch {
		selection = "";
	}
	return { path: file.path, selection };
}

export function obsidianVaultAccess(app: App, opts: VaultAccessOptions): VaultAccess {
	const { vault } = app;
	const fileAt = (path: string): TFile => {
		const file = vault.getAbstractFileByPath(path);
		if (!(file instanceof TFile)) throw new ToolError(`There is no note "${path}".`);
		return file;
	};
	return {
		configDir: vault.configDir,
		listNotes(): VaultNote[] {
			return vault.getMarkdownFiles().map((f) => ({ path: f.path, size: f.stat.size, mtime: f.stat.mtime, tags: tagsFromCache(app.metadataCache.getFileCache(f)) }));
		},
		exists: (path) => vault.getAbstractFileByPath(path) !== null,
		read: (path) => vault.cachedRead(fileAt(path)),
		process: (path, fn) => vault.process(fileAt(path), fn),
		async create(path, content) {
			const parts = path.split("/").slice(0, -1);
			for (let i = 1; i <= parts.length; i++) {
				const folder = parts.slice(0, i).join("/");
				const existing = vault.getAbstractFileByPath(folder);
				if (existing instanceof TFolder) continue;
				if (existing) throw new ToolError(`"${folder}" is a file, not a folder.`);
				await vault.createFolder(folder);
			}
			await vault.create(path, content);
		},
		trash: (path) => app.fileManager.trashFile(fileAt(path)),
		active: () => (opts.active ? opts.active() : activeNote(app)),
		search(query, limit): NoteSearchHit[] {
			const index = opts.index();
			if (!index) throw new ToolError("The note index is still being built; try search_notes again in a moment, or use list_notes.");
			return index.search(query, { limit });
		},
	};
}
