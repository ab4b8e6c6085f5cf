// What a drop onto the panel names: notes or folders dragged from the file explorer, or links
// dragged from a note. The explorer puts an `obsidian://open?…&file=…` URI in text/plain (and
// text/uri-list); a dragged link gives `[[Note]]`, a Markdown link or a path. Each is resolved
// against the vault; anything else (text, web pages) is not a source.
import { TFile, TFolder } from "obsidian";
import type { App } from "obsidian";
import type { SourceRef } from "./sourceRefs";

function fromUri(line: string): string | undefined {
	if (!line.startsWith("obsidian://")) return undefined;
	try {
		const url = new URL(line);
		return url.searchParams.get("file") ?? url.searchParams.get("path") ?? undefined;
	} catch {
		return undefined;
	}
}

/** The link path in `[[path|alias]]`, `![[path]]` or `[text](path)`, else the line itself. */
function linkPath(line: string): string {
	const wiki = /^!?\[\[([^\]|#^]+)(?:[#^][^\]|]*)?(?:\|[^\]]*)?\]\]$/.exec(line);
	if (wiki) return (wiki[1] ?? "").trim();
	const md = /^!?\[[^\]]*\]\(<?([^)>]+)>?\)$/.exec(line);
	if (md) {
		const target = md[1] ?? "";
		try {
			return decodeURIComponent(target);
		} catch {
			return target;
		}
	}
	return line;
}

/** What a drop attaches as a note reference: notes, and the files read as sources (canvases, PDFs). */
const SOURCE_EXTENSIONS = ["md", "canvas", "pdf"];

function resolve(app: App, path: string): SourceRef | undefined {
	const clean = path.replace(/^\/+|\/+$/g, "");
	if (clean === "") return undefined;
	const direct = app.vault.getAbstractFileByPath(clean) ?? app.vault.getAbstractFileByPath(`${clean}.md`);
	if (direct instanceof TFolder) return { type: "folder", path: direct.path };
	if (direct instanceof TFile) return SOURCE_EXTENSIONS.includes(direct.extension) ? { type: "note", path: direct.path } : undefined;
	const linked = app.metadataCache.getFirstLinkpathDest(clean, "");
	return linked && SOURCE_EXTENSIONS.includes(linked.extension) ? { type: "note", path: linked.path } : undefined;
}

/** The sources a drop carries, in order, without repeats. */
export function dropRefs(app: App, data: DataTransfer | null): SourceRef[] {
	if (!data) return [];
	const text = [data.getData("text/uri-list"), data.getData("text/plain")].join("\n");
	const refs: SourceRef[] = [];
	const seen = new Set<string>();
	for (const raw of text.split(/\r?\n/)) {
		const line = raw.trim();
		if (line === "" || line.startsWith("#")) continue;
		const path = fromUri(line) ?? linkPath(line);
		const ref = resolve(app, path);
		if (!ref || ref.type === "vault" || ref.type === "tag") continue;
		if (seen.has(ref.path)) continue;
		seen.add(ref.path);
		refs.push(ref);
	}
	return refs;
}

/** A drag that may carry notes: text or links (files from the OS are not vault notes). */
export function mayCarryNotes(data: DataTransfer | null): boolean {
	const types = data ? [...data.types] : [];
	return types.includes("text/plain") || types.includes("text/uri-list");
}
