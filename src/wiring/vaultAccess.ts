// The vault tools' VaultAccess over Obsidian's API. Notes are Markdown files the vault indexes
// (never hidden ones: the tools refuse those paths before they get here); reads use cachedRead,
// edits vault.process (atomic), removal fileManager.trashFile (the person's trash preference), tags
// the metadata cache (inline and frontmatter), PDFs the pdf.js Obsidian ships (read_note by pages). The search is the note index the sources service
// keeps; until it is ready, search_notes says so instead of answering from nothing.
import { getAllTags, MarkdownView, TFile, TFolder, type App, type CachedMetadata } from "obsidian";
import type { NoteSearchHit } from "../context/NoteIndex";
import { obsidianPdfOpener, type PdfOpener } from "../ui/panel/sources/pdfNotes";
import type { DiscoverSettings } from "../settings/settings";
import { createVaultTools, type VaultTools } from "../tools";
import { ToolError } from "../tools/paths";
import type { VaultAccess, VaultNote } from "../tools/types";
import type { NoteIndexService } from "./noteIndexService";

/** What search_notes searches: a NoteIndex, or the index service (ready once built). */
export interface NoteSearch {
	search(query: string, opts?: { limit?: number }): NoteSearchHit[];
	/** The hits with their text read back from the vault (an index that keeps no texts). */
	searchText?(query: string, opts?: { limit?: number }): Promise<NoteSearchHit[]>;
}

export interface VaultAccessOptions {
	/** The vault's note index once it can answer; undefined while it is off or being built. */
	index: () => NoteSearch | undefined;
	/** The note the person is reading and its selection; default: the workspace's active file. */
	active?: () => { path: string; selection: string } | null;
	/** Opens a PDF of the vault for read_note (default: the pdf.js Obsidian ships). */
	openPdf?: PdfOpener;
}

/** Tags without '#', inline and frontmatter (Obsidian's getAllTags), each once. */
export function tagsFromCache(cache: CachedMetadata | null): string[] {
	return [...new Set((cache ? (getAllTags(cache) ?? []) : []).map((t) => t.replace(/^#/, "")))];
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
		listPdfs: () => vault.getFiles().flatMap((f) => (f.extension.toLowerCase() === "pdf" ? [{ path: f.path, size: f.stat.size, mtime: f.stat.mtime }] : [])),
		exists: (path) => vault.getAbstractFileByPath(path) !== null,
		read: (path) => vault.cachedRead(fileAt(path)),
		readBytes: async (path) => new Uint8Array(await vault.readBinary(fileAt(path))),
		openPdf: (path) => (opts.openPdf ?? obsidianPdfOpener)(app, fileAt(path)),
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
		search(query, limit): NoteSearchHit[] | Promise<NoteSearchHit[]> {
			const index = opts.index();
			if (!index) throw new ToolError("The note index is off or still being built; use list_notes and read_note instead, or try search_notes again in a moment.");
			return index.searchText ? index.searchText(query, { limit }) : index.search(query, { limit });
		},
	};
}

/**
 * The six vault tools for the panel's chats: the chats folder and the folders the person left out
 * of the vault index are out of the tools' reach too, and the agents folder out of the writes';
 * search_notes searches the index service.
 */
export function createObsidianVaultTools(app: App, settings: () => DiscoverSettings, indexService: Pick<NoteIndexService, "state" | "search"> & Partial<Pick<NoteIndexService, "searchText">>): VaultTools {
	const access = obsidianVaultAccess(app, { index: () => (indexService.state === "ready" ? indexService : undefined) });
	return createVaultTools(access, {
		chatsFolder: () => settings().sessionsFolder,
		excludedFolders: () => settings().indexExcludedFolders,
		agentsFolder: () => settings().agentsFolder,
	});
}
