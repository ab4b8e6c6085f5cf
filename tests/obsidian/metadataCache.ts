// The MetadataCache: what Obsidian parses out of each Markdown note (frontmatter, tags, headings).
// Like Obsidian's, it is filled after a note is created or changed (it reads the file, then fires
// "changed"); tests await `flush()` before relying on it.
import type * as O from "obsidian";
import { Events } from "./events";
import { TFile, type Vault } from "./vault";

/**
 * `Pos` of offsets in `text`: line = the newlines before the offset, col = the characters since the
 * last of them. Line starts are found once and searched (a 1 MB note has thousands of headings; slicing
 * the text up to each was quadratic, seconds per note).
 */
function positions(text: string): (start: number, end: number) => O.Pos {
	const starts = [0];
	for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
	const loc = (offset: number): O.Loc => {
		// The last line start at or before `offset`.
		let lo = 0;
		let hi = starts.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if ((starts[mid] ?? 0) <= offset) lo = mid;
			else hi = mid - 1;
		}
		return { line: lo, col: offset - (starts[lo] ?? 0), offset };
	};
	return (start, end) => ({ start: loc(start), end: loc(end) });
}

function scalar(raw: string): unknown {
	const v = raw.trim();
	if (/^".*"$|^'.*'$/.test(v)) return v.slice(1, -1);
	if (v === "true" || v === "false") return v === "true";
	if (v !== "" && !Number.isNaN(Number(v))) return Number(v);
	return v;
}

/** The small YAML subset notes use: `key: value`, `key: [a, b]`, and `key:` followed by `- item` lines. */
function parseYaml(block: string): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	let listKey: string | undefined;
	for (const line of block.split("\n")) {
		const item = /^\s+-\s+(.*)$|^-\s+(.*)$/.exec(line);
		if (item && listKey !== undefined) {
			(out[listKey] as unknown[]).push(scalar(item[1] ?? item[2] ?? ""));
			continue;
		}
		const pair = /^([^:\s][^:]*):\s*(.*)$/.exec(line);
		if (!pair) continue;
		const key = (pair[1] ?? "").trim();
		const value = (pair[2] ?? "").trim();
		listKey = undefined;
		if (value === "") {
			out[key] = [];
			listKey = key;
		} else if (value.startsWith("[") && value.endsWith("]")) {
			out[key] = value
				.slice(1, -1)
				.split(",")
				.map((v) => scalar(v))
				.filter((v) => v !== "");
		} else out[key] = scalar(value);
	}
	return out;
}

/** Not Obsidian API: what Obsidian's parser finds in a note's text (the parts the runtime models). */
export function parseMetadata(text: string): O.CachedMetadata {
	const cache: O.CachedMetadata = {};
	const pos = positions(text);
	let bodyStart = 0;
	const fm = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
	if (fm) {
		cache.frontmatter = parseYaml(fm[1] ?? "");
		cache.frontmatterPosition = pos(0, fm[0].length);
		bodyStart = fm[0].length;
	}
	const tags: O.TagCache[] = [];
	const headings: O.HeadingCache[] = [];
	let inCode = false;
	let offset = 0;
	for (const line of text.split("\n")) {
		const lineStart = offset;
		offset += line.length + 1;
		if (lineStart < bodyStart) continue;
		if (/^\s*(```|~~~)/.test(line)) inCode = !inCode;
		if (inCode) continue;
		const heading = /^(#{1,6})\s+(.*)$/.exec(line);
		if (heading) {
			headings.push({ heading: (heading[2] ?? "").trim(), level: (heading[1] ?? "#").length, position: pos(lineStart, lineStart + line.length) });
			continue;
		}
		// A tag starts after a space (or the line's start) and holds no spaces or punctuation but / - _.
		for (const m of line.matchAll(/(^|\s)(#[^\s#!"$%&'()*+,.:;<=>?@[\\\]^`{|}~]+)/gu)) {
			const tag = m[2] ?? "";
			if (/^#\d+$/.test(tag)) continue;
			const start = lineStart + (m.index ?? 0) + (m[1] ?? "").length;
			tags.push({ tag, position: pos(start, start + tag.length) });
		}
	}
	if (tags.length) cache.tags = tags;
	if (headings.length) cache.headings = headings;
	return cache;
}

export class MetadataCache extends Events {
	resolvedLinks: Record<string, Record<string, number>> = {};
	unresolvedLinks: Record<string, Record<string, number>> = {};
	private caches = new Map<string, O.CachedMetadata>();

	constructor(private readonly vault: Vault) {
		super();
		vault.on("create", (file: unknown) => this.parse(file));
		vault.on("modify", (file: unknown) => this.parse(file));
		vault.on("delete", (file: TFile) => {
			const cache = this.caches.get(file.path);
			this.caches.delete(file.path);
			if (file instanceof TFile) this.trigger("deleted", file, cache ?? null);
		});
		vault.on("rename", (file: TFile, oldPath: string) => {
			const cache = this.caches.get(oldPath);
			this.caches.delete(oldPath);
			if (cache) this.caches.set(file.path, cache);
		});
	}

	private parse(file: unknown): void {
		if (!(file instanceof TFile) || file.extension !== "md") return;
		void this.vault.cachedRead(file).then(
			(text) => {
				const cache = parseMetadata(text);
				this.caches.set(file.path, cache);
				this.resolveLinks(file.path, text);
				this.trigger("changed", file, text, cache);
			},
			() => undefined,
		);
	}

	/** `resolvedLinks` / `unresolvedLinks` of a note: its `[[wikilinks]]` (and embeds), counted by target. */
	private resolveLinks(path: string, text: string): void {
		const resolved: Record<string, number> = {};
		const unresolved: Record<string, number> = {};
		for (const m of text.matchAll(/!?\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]/g)) {
			const linkpath = (m[1] ?? "").trim();
			if (linkpath === "") continue;
			const target = this.getFirstLinkpathDest(linkpath, path);
			const into = target ? resolved : unresolved;
			const key = target ? target.path : linkpath;
			into[key] = (into[key] ?? 0) + 1;
		}
		this.resolvedLinks[path] = resolved;
		this.unresolvedLinks[path] = unresolved;
	}

	getFileCache(file: O.TFile): O.CachedMetadata | null {
		return this.caches.get(file.path) ?? null;
	}

	getCache(path: string): O.CachedMetadata | null {
		return this.caches.get(path) ?? null;
	}

	/** `[[linkpath]]` from `sourcePath`: an exact path, else the note with that name (shortest path first). */
	getFirstLinkpathDest(linkpath: string, sourcePath: string): O.TFile | null {
		void sourcePath;
		const path = linkpath.split("#")[0]?.trim() ?? "";
		if (path === "") return null;
		const exact = this.vault.getFileByPath(path) ?? this.vault.getFileByPath(`${path}.md`);
		if (exact) return exact;
		const name = path.toLowerCase();
		const matches = this.vault
			.getFiles()
			.filter((f) => f.basename.toLowerCase() === name || f.name.toLowerCase() === name)
			.sort((a, b) => a.path.length - b.path.length);
		return (matches[0] as unknown as O.TFile | undefined) ?? null;
	}

	fileToLinktext(file: O.TFile, sourcePath: string, omitMdExtension = true): string {
		void sourcePath;
		const unique = this.vault.getFiles().filter((f) => f.basename === file.basename).length === 1;
		const base = unique ? (omitMdExtension && file.extension === "md" ? file.basename : file.name) : file.path;
		return omitMdExtension && base.endsWith(".md") ? base.slice(0, -3) : base;
	}
}

/** Obsidian's `parseFrontMatterAliases`: the `aliases` (or `alias`) field as a list of strings. */
export function parseFrontMatterAliases(frontmatter: unknown): string[] | null {
	return frontmatterList(frontmatter, ["aliases", "alias"]);
}

/** Obsidian's `parseFrontMatterTags`: the `tags` (or `tag`) field, each with its leading `#`. */
export function parseFrontMatterTags(frontmatter: unknown): string[] | null {
	const tags = frontmatterList(frontmatter, ["tags", "tag"]);
	return tags ? tags.map((t) => (t.startsWith("#") ? t : `#${t}`)) : null;
}

function frontmatterList(frontmatter: unknown, keys: string[]): string[] | null {
	if (typeof frontmatter !== "object" || frontmatter === null) return null;
	for (const key of keys) {
		const value = (frontmatter as Record<string, unknown>)[key];
		if (value === undefined || value === null) continue;
		const list: unknown[] = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [value];
		const clean = list.filter((v) => typeof v === "string" || typeof v === "number").map((v) => String(v).trim()).filter((v) => v !== "");
		if (clean.length) return clean;
	}
	return null;
}

/** Obsidian's `getAllTags`: the frontmatter's tags and the body's, each with `#`. */
export function getAllTags(cache: O.CachedMetadata): string[] | null {
	const tags = [...(parseFrontMatterTags(cache.frontmatter) ?? []), ...(cache.tags ?? []).map((t) => t.tag)];
	return tags.length ? tags : null;
}
