// What the `@` / `[[` suggester offers for a query: notes by name and alias, canvases and PDFs by name,
// folders (with how many notes they add), tags (with how many notes carry them) and `@vault`, best first.
import { getAllTags, parseFrontMatterAliases, TFolder } from "obsidian";
import type { App, TFile } from "obsidian";
import { fuzzyMatch } from "./fuzzyMatch";
import { isWithinFolder } from "../../../core/pathFences";
import { FOLDER_NOTE_LIMIT, notesInFolder, notesWithTag, type SourceRef } from "./sourceRefs";
import { SOURCE_TEXT } from "./sourceText";

export interface Candidate {
	ref: SourceRef;
	/** What the list shows in bold (a note's name, an alias, "Projects/", "#tag", "@vault"). */
	label: string;
	/** The smaller text after it: the folder, "alias of …", "23 notes". */
	detail: string;
	/** Indices of `label` the query matched. */
	matches: number[];
	score: number;
}

export interface SuggestOptions {
	/** `@vault` is offered (the vault search is on). */
	vault: boolean;
	limit?: number;
	/** Refs already attached (by key) are not offered again. */
	attached?: ReadonlySet<string>;
	/** Discover's own folders (its chats, its agents): neither they nor what is in them are offered. */
	ownFolders?: readonly string[];
}

/** A folder holding Discover's own folders and no note of the person's ("Discover/" around "Discover/Agents"). */
function onlyOwn(folder: TFolder, own: readonly string[]): boolean {
	if (!own.some((f) => f.replace(/^\/+|\/+$/g, "") !== "" && isWithinFolder(f, folder.path))) return false;
	return notesInFolder(folder).every((note) => hiddenBy(note.path, own));
}

/** A folder that names nothing (an unset setting) hides nothing. */
function hiddenBy(path: string, folders: readonly string[]): boolean {
	return folders.some((f) => f.replace(/^\/+|\/+$/g, "") !== "" && isWithinFolder(path, f));
}

const KIND_ORDER: Record<SourceRef["type"], number> = { vault: 0, note: 1, folder: 2, tag: 3 };

function parentOf(file: TFile): string {
	return file.parent && file.parent.path !== "/" ? `${file.parent.path}/` : "";
}

function noteCandidates(app: App, notes: readonly TFile[], query: string, out: Candidate[], attached: ReadonlySet<string>, own: readonly string[]): void {
	for (const file of notes) {
		if (attached.has(`note:${file.path}`) || hiddenBy(file.path, own)) continue;
		const ref: SourceRef = { type: "note", path: file.path };
		const byName = fuzzyMatch(query, file.basename);
		// A typed folder ("proj/bud") matches the path too, a little lower than the name.
		const byPath = query.includes("/") ? fuzzyMatch(query, file.path) : null;
		let best: Candidate | undefined;
		if (byName) best = { ref, label: file.basename, detail: parentOf(file), matches: byName.matches, score: byName.score + 2 };
		if (byPath && (!best || byPath.score - 5 > best.score)) best = { ref, label: file.path.replace(/\.md$/, ""), detail: "", matches: byPath.matches, score: byPath.score - 5 };
		const frontmatter = app.metadataCache.getFileCache(file)?.frontmatter;
		for (const alias of parseFrontMatterAliases(frontmatter) ?? []) {
			const m = fuzzyMatch(query, alias);
			if (m && (!best || m.score > best.score)) best = { ref, label: alias, detail: SOURCE_TEXT.alias(file.basename), matches: m.matches, score: m.score };
		}
		if (best) out.push(best);
	}
}

/** Canvases (JSON Canvas files) and PDFs by name: attached as a note reference, read as their sources. */
function fileCandidates(files: readonly TFile[], query: string, out: Candidate[], attached: ReadonlySet<string>, own: readonly string[]): void {
	for (const file of files) {
		const detail = file.extension === "canvas" ? SOURCE_TEXT.canvas : file.extension === "pdf" ? SOURCE_TEXT.pdf : undefined;
		if (detail === undefined || attached.has(`note:${file.path}`) || hiddenBy(file.path, own)) continue;
		const m = fuzzyMatch(query, file.basename);
		if (m) out.push({ ref: { type: "note", path: file.path }, label: file.basename, detail: detail(parentOf(file)), matches: m.matches, score: m.score + 1 });
	}
}

function folderCandidates(app: App, query: string, out: Candidate[], attached: ReadonlySet<string>, own: readonly string[]): void {
	const q = query.replace(/\/$/, "");
	for (const folder of app.vault.getAllFolders(false)) {
		if (!(folder instanceof TFolder) || attached.has(`folder:${folder.path}`) || hiddenBy(folder.path, own) || onlyOwn(folder, own)) continue;
		const m = fuzzyMatch(q, folder.path);
		if (!m) continue;
		// A trailing "/" says the person wants a folder.
		out.push({ ref: { type: "folder", path: folder.path }, label: `${folder.path}/`, detail: "", matches: m.matches, score: m.score - 1 + (query.endsWith("/") ? 40 : 0) });
	}
}

function tagCandidates(app: App, notes: readonly TFile[], query: string, out: Candidate[], attached: ReadonlySet<string>): void {
	const tags = new Map<string, string>();
	for (const file of notes) {
		const cache = app.metadataCache.getFileCache(file);
		for (const tag of cache ? (getAllTags(cache) ?? []) : []) {
			const key = tag.toLowerCase();
			if (!tags.has(key)) tags.set(key, tag);
		}
	}
	const q = query.startsWith("#") ? query.slice(1) : query;
	for (const [key, tag] of tags) {
		if (attached.has(`tag:${key}`)) continue;
		const m = fuzzyMatch(q, tag.slice(1));
		if (!m) continue;
		out.push({ ref: { type: "tag", tag }, label: tag, detail: "", matches: m.matches.map((i) => i + 1), score: m.score - 2 + (query.startsWith("#") ? 40 : 0) });
	}
}

/** Fills in the counts of the folders and tags that made the list (counting is the costly part). */
function describeCounts(app: App, c: Candidate): void {
	if (c.ref.type === "folder") {
		const folder = app.vault.getAbstractFileByPath(c.ref.path);
		const total = folder instanceof TFolder ? notesInFolder(folder).length : 0;
		c.detail = SOURCE_TEXT.notes(Math.min(total, FOLDER_NOTE_LIMIT), total);
	} else if (c.ref.type === "tag") {
		const total = notesWithTag(app, c.ref.tag).length;
		c.detail = SOURCE_TEXT.notes(Math.min(total, FOLDER_NOTE_LIMIT), total);
	}
}

export function suggestSources(app: App, query: string, opts: SuggestOptions): Candidate[] {
	const attached = opts.attached ?? new Set<string>();
	const limit = opts.limit ?? 12;
	const out: Candidate[] = [];
	if (opts.vault && !attached.has("vault")) {
		const m = fuzzyMatch(query, "vault");
		if (m) out.push({ ref: { type: "vault" }, label: SOURCE_TEXT.vaultLabel, detail: SOURCE_TEXT.vaultDetail(), matches: m.matches.map((i) => i + 1), score: m.score + 10 });
	}
	const own = opts.ownFolders ?? [];
	// One pass over the vault's files for every kind (a keystroke scans it once).
	const files = app.vault.getFiles();
	const notes = files.filter((f) => f.extension === "md");
	if (!query.startsWith("#")) {
		noteCandidates(app, notes, query, out, attached, own);
		fileCandidates(files, query, out, attached, own);
		folderCandidates(app, query, out, attached, own);
	}
	tagCandidates(app, notes, query, out, attached);
	out.sort((a, b) => b.score - a.score || KIND_ORDER[a.ref.type] - KIND_ORDER[b.ref.type] || a.label.localeCompare(b.label));
	const top = out.slice(0, limit);
	for (const c of top) describeCounts(app, c);
	return top;
}
