// What the person attached to a chat, as references (never the text): a note, a folder, a tag, or
// `@vault`. Saved with the chat and resolved to notes when a message is sent or previewed.
import { getAllTags, TFile, TFolder } from "obsidian";
import type { App } from "obsidian";

export type SourceRef = { type: "note"; path: string } | { type: "folder"; path: string } | { type: "tag"; tag: string } | { type: "vault" };

/** The most notes one folder or tag adds (the suggestion says how many of how many). */
export const FOLDER_NOTE_LIMIT = 50;

export function refKey(ref: SourceRef): string {
	switch (ref.type) {
		case "note":
			return `note:${ref.path}`;
		case "folder":
			return `folder:${ref.path}`;
		case "tag":
			return `tag:${ref.tag.toLowerCase()}`;
		case "vault":
			return "vault";
	}
}

/** Saved references, checked one by one: a damaged entry is dropped, the others kept. */
export function parseRefs(data: unknown): SourceRef[] {
	if (!Array.isArray(data)) return [];
	const refs: SourceRef[] = [];
	for (const item of data as unknown[]) {
		if (typeof item !== "object" || item === null) continue;
		const r = item as Record<string, unknown>;
		if ((r.type === "note" || r.type === "folder") && typeof r.path === "string" && r.path !== "") refs.push({ type: r.type, path: r.path });
		else if (r.type === "tag" && typeof r.tag === "string" && r.tag.startsWith("#")) refs.push({ type: "tag", tag: r.tag });
		else if (r.type === "vault") refs.push({ type: "vault" });
	}
	return refs;
}

/** The Markdown notes under `folder`, at any depth, in path order. */
export function notesInFolder(folder: TFolder): TFile[] {
	const out: TFile[] = [];
	const walk = (f: TFolder): void => {
		for (const child of f.children) {
			if (child instanceof TFolder) walk(child);
			else if (child instanceof TFile && child.extension === "md") out.push(child);
		}
	};
	walk(folder);
	return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** `#a` carries `#a` and its nested tags (`#a/b`), case-insensitively, as Obsidian's tag search. */
export function hasTag(app: App, file: TFile, tag: string): boolean {
	const cache = app.metadataCache.getFileCache(file);
	const wanted = tag.toLowerCase();
	return (cache ? (getAllTags(cache) ?? []) : []).some((t) => {
		const have = t.toLowerCase();
		return have === wanted || have.startsWith(`${wanted}/`);
	});
}

export function notesWithTag(app: App, tag: string): TFile[] {
	return app.vault
		.getMarkdownFiles()
		.filter((f) => hasTag(app, f, tag))
		.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * The notes a reference stands for now (at most FOLDER_NOTE_LIMIT), and how many there are in all.
 * `fenced`: paths a folder or tag never brings in (the chats and config folders, the excluded ones).
 */
export function notesOf(app: App, ref: SourceRef, fenced: (path: string) => boolean = () => false): { files: TFile[]; total: number } {
	let all: TFile[] = [];
	if (ref.type === "note") {
		const file = app.vault.getAbstractFileByPath(ref.path);
		all = file instanceof TFile ? [file] : [];
	} else if (ref.type === "folder") {
		const folder = app.vault.getAbstractFileByPath(ref.path);
		all = folder instanceof TFolder ? notesInFolder(folder) : [];
	} else if (ref.type === "tag") all = notesWithTag(app, ref.tag);
	if (ref.type !== "note") all = all.filter((f) => !fenced(f.path));
	return { files: all.slice(0, FOLDER_NOTE_LIMIT), total: all.length };
}
