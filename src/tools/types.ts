// The vault tools' vocabulary: the Tool shape the engine's turn loop runs, and VaultAccess, the
// narrow door to the vault the tools are built over (Obsidian's API in src/wiring/vaultAccess.ts,
// a MemoryVault in tests and scripts), so every tool runs headless.
import type { Tool as CoreTool, ToolRunCtx } from "../core/types";
import type { NoteSearchHit } from "../context/NoteIndex";
import type { PdfReader } from "../context/pdfSources";

/**
 * A tool as the engine's turn loop runs it (core's Tool), plus `preview` for write tools: what the
 * change would do, before anything is written, for the permission card's diff. It rejects with the
 * same error `run` would.
 */
export interface Tool extends CoreTool {
	run(args: Record<string, unknown>, ctx: ToolRunContext): Promise<string>;
	preview?: (args: Record<string, unknown>) => Promise<ToolPreview>;
	/**
	 * A write's targets: every vault path the call would write, as the tool resolves them. Throws
	 * when they cannot be told; a write without `targets` is covered by no standing rule.
	 */
	targets?: (args: Record<string, unknown>) => string[];
}

/**
 * What `run` is handed: core's `{ signal }`, and optionally the call's id. When the loop passes it,
 * a write's undo entry is filed under the call's id, so the tool card can offer Revert by it.
 */
export interface ToolRunContext extends ToolRunCtx {
	signal: AbortSignal;
	callId?: string;
}

/** A write's preview: the note before and after, and a unified line diff between them. */
export interface ToolPreview {
	path: string;
	/** "" for a note that does not exist yet. */
	before: string;
	after: string;
	diff: string;
}

/** A file as the tools list it. */
export interface VaultFile {
	path: string;
	/** Bytes. */
	size: number;
	/** Last modification, ms since the epoch. */
	mtime: number;
}

/** A Markdown note as the tools list it. */
export interface VaultNote extends VaultFile {
	/** Without '#', as written ("project/alpha"). */
	tags: string[];
}

/** The vault as the tools see it: paths are vault-relative and already checked by the tools. */
export interface VaultAccess {
	/** Obsidian's config folder (vault.configDir, usually ".obsidian"): never reachable. */
	readonly configDir: string;
	/** Every Markdown note. */
	listNotes(): VaultNote[];
	/** Whether anything (note, folder, other file) exists at the path. */
	exists(path: string): boolean;
	/** The note's text; throws when there is no note at `path`. */
	read(path: string): Promise<string>;
	/**
	 * The note's bytes as they are on disk (Obsidian's vault.readBinary): edits check that they are
	 * UTF-8 and keep a BOM. Without it, a note whose text holds U+FFFD is refused for editing.
	 */
	readBytes?(path: string): Promise<Uint8Array>;
	/** Edits the note atomically (Obsidian's vault.process): `fn` gets the current text, returns the next. */
	process(path: string, fn: (text: string) => string): Promise<string>;
	/** Creates a note (and its missing folders); throws when something exists at `path`. */
	create(path: string, content: string): Promise<void>;
	/** Moves a note to the trash (used to revert a created note). */
	trash(path: string): Promise<void>;
	/** The note open in the editor and its selection ("" when none), or null. */
	active(): { path: string; selection: string } | null;
	/**
	 * Opens the PDF at `path` for reading its text page by page (in the app: the pdf.js Obsidian
	 * ships); rejects when it is not a readable PDF. Without it, read_note says PDFs cannot be read.
	 */
	openPdf?(path: string): Promise<PdfReader>;
	/** Every PDF of the vault (list_notes shows them where `openPdf` can read them). */
	listPdfs?(): VaultFile[];
	/** The note index's best passages (NoteIndex.search). */
	/** Passages with their text (an index that keeps no texts reads them back: a promise). */
	search(query: string, limit: number): NoteSearchHit[] | Promise<NoteSearchHit[]>;
}

/** Where the tools may not go besides configDir and paths outside the vault; read when a tool runs. */
export interface ToolScope {
	/** The chats folder (settings.sessionsFolder). */
	chatsFolder(): string;
	/** Folders the person excluded from the tools. */
	excludedFolders(): string[];
	/** Discover's agents folder (settings.agentsFolder): read tools may read it, write tools never change it. Absent: "Discover/Agents". */
	agentsFolder?(): string;
}
