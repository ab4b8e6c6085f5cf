// The four read tools: search_notes, read_note, list_notes, get_active_note. Each result is plain
// text for the model; a note's content in it is untrusted (the loop fits and frames it).
import { isWithinFolder } from "../core/pathFences";
import { optionalInt, optionalString, requiredString } from "./args";
import { headingKey, sections } from "./headings";
import { pageOf } from "./pages";
import { noteView } from "./noteText";
import { notePath, reachable, safePath, ToolError } from "./paths";
import { isPdfPath, pdfRangeOf, renderPdfPages } from "./pdfPages";
import { startTimer } from "../core/timers";
import type { Tool, ToolScope, VaultAccess, VaultFile, VaultNote } from "./types";

export interface ToolDeps {
	vault: VaultAccess;
	scope: ToolScope;
	/** Now, ms since the epoch (injected for tests). */
	now?: () => number;
}

const PASSAGE_CHARS = 1_200;

function checkedNote(deps: ToolDeps, raw: unknown): string {
	return notePath(safePath(raw, deps.vault.configDir, deps.scope));
}

/** The note as the model reads it (and edit_note finds passages in): without a BOM, line ends LF. */
async function readExisting(deps: ToolDeps, path: string): Promise<string> {
	if (!deps.vault.exists(path)) throw new ToolError(`There is no note "${path}". Use search_notes or list_notes to find the right path.`);
	return noteView(await deps.vault.read(path));
}

export function searchNotesTool(deps: ToolDeps): Tool {
	return {
		name: "search_notes",
		access: "read",
		description: "Search the person's notes by keywords. Returns the best matching passages with their note paths and titles.",
		parameters: {
			type: "object",
			properties: {
				query: { type: "string", description: "Keywords to search for." },
				limit: { type: "integer", description: "Most passages to return (1-20, default 8)." },
			},
			required: ["query"],
		},
		async run(args) {
			const query = requiredString(args, "query").trim();
			if (query === "") throw new ToolError('"query" is empty; give keywords to search for.');
			const limit = optionalInt(args, "limit", 1, 20) ?? 8;
			// Ask for more than needed: hits in unreachable folders are dropped after.
			const hits = (await deps.vault.search(query, limit * 3)).filter((h) => reachable(h.id, deps.vault.configDir, deps.scope)).slice(0, limit);
			if (hits.length === 0) return `No passages match "${query}".`;
			const parts = hits.map((h, i) => {
				const text = h.text.length > PASSAGE_CHARS ? `${h.text.slice(0, PASSAGE_CHARS)}…` : h.text;
				return `${i + 1}. ${h.id} (${h.name})\n${text.trim()}`;
			});
			return `${hits.length} passage${hits.length === 1 ? "" : "s"} for "${query}":\n\n${parts.join("\n\n")}`;
		},
	};
}

/** The lines of `text` chosen by heading or line range, with their 1-based first line. */
function selectLines(text: string, path: string, heading: string | undefined, from: number | undefined, to: number | undefined): { lines: string[]; first: number; total: number } {
	const all = text.split("\n");
	// A final line end ends the last line; it does not start another.
	const total = text.endsWith("\n") ? all.length - 1 : all.length;
	if (heading !== undefined) {
		const key = headingKey(heading);
		const found = sections(all).filter((s) => headingKey(s.title) === key);
		if (found.length === 0) {
			const names = sections(all).map((s) => s.title);
			throw new ToolError(`No heading "${heading}" in ${path}.${names.length ? ` Its headings: ${names.slice(0, 30).join("; ")}${names.length > 30 ? "; …" : ""}` : " It has no headings."}`);
		}
		const s = found[0] as (typeof found)[number];
		return { lines: all.slice(s.line, s.endLine), first: s.line + 1, total };
	}
	const start = from ?? 1;
	const end = Math.min(to ?? all.length, all.length);
	if (start > total) throw new ToolError(`${path} has ${total} lines; "from_line" ${start} is past its end.`);
	if (end < start) throw new ToolError(`"to_line" (${end}) is before "from_line" (${start}).`);
	return { lines: all.slice(start - 1, end), first: start, total };
}

/** A page of a note with a header saying where it is and how to get the next. */
export function renderNotePage(path: string, text: string, page: number, select: { heading?: string; from?: number; to?: number } = {}): string {
	const { lines, first, total } = selectLines(text, path, select.heading, select.from, select.to);
	const chosen = lines.join("\n");
	const p = pageOf(chosen, page);
	let before = 0;
	for (let i = chosen.indexOf("\n"); i >= 0 && i < p.start; i = chosen.indexOf("\n", i + 1)) before++;
	const firstLine = first + before;
	const lastLine = firstLine + Math.max(0, p.text.replace(/\n$/, "").split("\n").length - 1);
	const where = select.heading !== undefined ? `section "${select.heading}", ` : "";
	let header = `${path} (${where}lines ${firstLine}-${lastLine} of ${total}`;
	header += p.pages > 1 ? `; page ${p.page} of ${p.pages})` : ")";
	if (p.page < p.pages) header += `. More follows: call read_note with the same arguments and "page": ${p.page + 1}.`;
	return `${header}\n\n${p.text}`;
}

/** Gives the app its main thread back between pages of a PDF. */
const nextTask = (): Promise<void> => new Promise<void>((resolve) => startTimer(resolve, 0));

/** A PDF's pages, through the vault's PDF reader (a PDF that cannot be opened says why and what to do). */
async function readPdfNote(deps: ToolDeps, path: string, args: Record<string, unknown>): Promise<string> {
	const range = pdfRangeOf(args);
	if (!deps.vault.exists(path)) throw new ToolError(`There is no PDF "${path}". Use search_notes to find the right path.`);
	if (!deps.vault.openPdf) throw new ToolError(`PDFs cannot be read here, so "${path}" cannot be; ask the person to open it and paste what matters.`);
	let reader;
	try {
		reader = await deps.vault.openPdf(path);
	} catch (err) {
		const why = err instanceof Error ? err.message : String(err);
		throw new ToolError(`${path} could not be opened as a PDF (${why.slice(0, 200)}). It may be damaged or password-protected; ask the person about it.`);
	}
	try {
		return await renderPdfPages(path, reader, range, nextTask);
	} finally {
		await reader.close?.();
	}
}

export function readNoteTool(deps: ToolDeps): Tool {
	return {
		name: "read_note",
		access: "read",
		description: 'Read a note by its path, whole or one section (heading) or a line range; or a PDF by its pages ("pages": "3-5"), each page headed "p. N". Large notes and PDFs come in parts; the result says how to get the next.',
		parameters: {
			type: "object",
			properties: {
				path: { type: "string", description: 'The note\'s vault path, such as "Projects/Plan.md", or a PDF\'s, such as "Papers/Report.pdf".' },
				heading: { type: "string", description: "Only the section under this heading (notes)." },
				from_line: { type: "integer", description: "First line to read (1-based; notes)." },
				to_line: { type: "integer", description: "Last line to read (notes)." },
				page: { type: "integer", description: "Page of a large note (1-based, default 1); for a PDF, the one page to read." },
				pages: { type: "string", description: 'PDFs: the pages to read, such as "3" or "3-5" (1-based; default all, in parts).' },
				first_page: { type: "integer", description: "PDFs: the first page to read (1-based), instead of \"pages\"." },
				last_page: { type: "integer", description: "PDFs: the last page to read, instead of \"pages\"." },
			},
			required: ["path"],
		},
		async run(args) {
			const safe = safePath(args.path, deps.vault.configDir, deps.scope);
			if (isPdfPath(safe)) return readPdfNote(deps, safe, args);
			for (const key of ["pages", "first_page", "last_page"]) {
				if (args[key] !== undefined && args[key] !== null) throw new ToolError(`"${key}" is for PDFs; a note is read whole, by "heading", or by "from_line" and "to_line" (and "page" for the next part of a large one).`);
			}
			const path = notePath(safe);
			const heading = optionalString(args, "heading");
			const from = optionalInt(args, "from_line", 1, Number.MAX_SAFE_INTEGER);
			const to = optionalInt(args, "to_line", 1, Number.MAX_SAFE_INTEGER);
			const page = optionalInt(args, "page", 1, 1_000_000) ?? 1;
			const text = await readExisting(deps, path);
			return renderNotePage(path, text, page, { heading, from, to });
		},
	};
}

function size(bytes: number): string {
	return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A listed file: a note with its tags, or a PDF (no tags). */
type Listed = (VaultNote & { pdf?: false }) | (VaultFile & { pdf: true; tags: readonly string[] });

function listed(n: Listed): string {
	const tags = n.tags.length ? `, #${n.tags.join(" #")}` : "";
	return `- ${n.path} (${n.pdf === true ? "PDF, " : ""}${size(n.size)}, modified ${new Date(n.mtime).toISOString().slice(0, 16).replace("T", " ")}${tags})`;
}

function counted(n: number, one: string): string {
	return `${n} ${one}${n === 1 ? "" : "s"}`;
}

/** "2 notes", "1 PDF", "2 notes and 1 PDF". */
function listedCount(notes: number, pdfs: number): string {
	if (pdfs === 0) return counted(notes, "note");
	return notes === 0 ? counted(pdfs, "PDF") : `${counted(notes, "note")} and ${counted(pdfs, "PDF")}`;
}

export function listNotesTool(deps: ToolDeps): Tool {
	// The vault's PDFs are listed where read_note can read them.
	const withPdfs = deps.vault.openPdf !== undefined && deps.vault.listPdfs !== undefined;
	return {
		name: "list_notes",
		access: "read",
		description: withPdfs
			? "List notes and PDFs in a folder, notes with a tag, or the most recently modified ones, with their sizes. read_note reads a PDF by its pages."
			: "List notes in a folder, with a tag, or the most recently modified ones, with their sizes.",
		parameters: {
			type: "object",
			properties: {
				folder: { type: "string", description: 'A folder path such as "Projects" (default: the whole vault).' },
				tag: { type: "string", description: 'Only notes with this tag, such as "project" (its sub-tags too).' },
				recent: { type: "boolean", description: "Most recently modified first." },
				limit: { type: "integer", description: "Most notes to list (1-200, default 50)." },
			},
		},
		async run(args) {
			const { configDir } = deps.vault;
			const rawFolder = optionalString(args, "folder")?.trim() ?? "";
			const folder = rawFolder === "" || rawFolder === "/" ? "" : safePath(rawFolder, configDir, deps.scope, "folder").replace(/\/$/, "");
			const tag = optionalString(args, "tag")?.trim().replace(/^#/, "").toLowerCase();
			const recent = args.recent === true || args.recent === "true";
			const limit = optionalInt(args, "limit", 1, 200) ?? 50;
			const pdfs: Listed[] = withPdfs ? (deps.vault.listPdfs?.() ?? []).map((f) => ({ ...f, pdf: true, tags: [] })) : [];
			let notes: Listed[] = [...deps.vault.listNotes(), ...pdfs].filter((n) => reachable(n.path, configDir, deps.scope));
			if (folder) notes = notes.filter((n) => isWithinFolder(n.path, folder));
			if (tag) notes = notes.filter((n) => n.tags.some((t) => t.toLowerCase() === tag || t.toLowerCase().startsWith(`${tag}/`)));
			notes.sort(recent ? (a, b) => b.mtime - a.mtime || a.path.localeCompare(b.path) : (a, b) => a.path.localeCompare(b.path));
			const where = [folder ? `in ${folder}` : "", tag ? `tagged #${tag}` : ""].filter(Boolean).join(" ");
			if (notes.length === 0) return `No notes${withPdfs && !tag ? " or PDFs" : ""}${where ? ` ${where}` : ""}.`;
			const shown = notes.slice(0, limit);
			const pdfCount = notes.filter((n) => n.pdf === true).length;
			const head = `${listedCount(notes.length - pdfCount, pdfCount)}${where ? ` ${where}` : ""}${recent ? ", most recently modified first" : ""}${shown.length < notes.length ? ` (the first ${shown.length}; raise "limit" or narrow the folder for more)` : ""}:`;
			return `${head}\n${shown.map(listed).join("\n")}`;
		},
	};
}

export function getActiveNoteTool(deps: ToolDeps): Tool {
	return {
		name: "get_active_note",
		access: "read",
		description: "Get the note open in the editor, with the person's selection if any. Large notes come in pages.",
		parameters: { type: "object", properties: { page: { type: "integer", description: "Page of a large note (1-based, default 1)." } } },
		async run(args) {
			const active = deps.vault.active();
			if (!active) return "No note is open in the editor.";
			const path = checkedNote(deps, active.path);
			const page = optionalInt(args, "page", 1, 1_000_000) ?? 1;
			const text = await readExisting(deps, path);
			const selection = active.selection ? `Selected text:\n${active.selection}\n\n` : "Nothing is selected.\n\n";
			return `${selection}${renderNotePage(path, text, page)}`;
		},
	};
}
