// The one way Discover compares vault paths against its fences (the config, chats and agents
// folders, and the folders the person excluded). Every fence — the tools, the note index, `@vault`,
// folder and tag mentions, agent sources, the terminal chat — goes through `pathKey`, so a name that
// the file system treats as the same folder can never slip past one of them:
// - Unicode NFC (macOS stores NFD; "Café" typed either way is one folder);
// - the upper-case mapping NTFS compares by, then lower case: together a full case folding
//   (ß → ss, ſ → s, ı → i, the Kelvin sign → k), where `toLowerCase` alone leaves ſ and ı apart;
// - trailing dots and spaces trimmed per segment, as Windows does ("Private. /x.md" is "Private/x.md").
// Engine-safe: never imports 'obsidian'.

/** Where nothing a model, a note or a synced file says may write. Paths are vault-relative. */
export interface Fences {
	/** Obsidian's config folder (vault.configDir, usually ".obsidian"). */
	configDir: string;
	/** Discover's chats folder (settings.sessionsFolder). */
	chatsFolder: string;
	/** Discover's agents folder (settings.agentsFolder). */
	agentsFolder: string;
	/** Folders the person excluded. */
	excluded: string[];
}

/** One path segment as a case-insensitive file system sees it. */
export function segmentKey(segment: string): string {
	return segment.normalize("NFC").replace(/[. ]+$/u, "").toUpperCase().toLowerCase().normalize("NFC");
}

/** A vault path's segments as keys: empty and "." segments dropped, each folded by `segmentKey`. */
export function pathSegments(path: string): string[] {
	return path
		.split("/")
		.map((s) => s.trim())
		.filter((s) => s !== "" && s !== ".")
		.map(segmentKey)
		.filter((s) => s !== "");
}

/** The comparison key of a vault path: two paths with the same key name the same file. */
export function pathKey(path: string): string {
	return pathSegments(path).join("/");
}

/**
 * Whether `path` is `folder` or inside it, compared by key. A folder that names nothing (`""`,
 * `"/"`) is the whole vault: everything is inside it.
 */
export function isWithinFolder(path: string, folder: string): boolean {
	const f = pathSegments(folder);
	if (f.length === 0) return true;
	const p = pathSegments(path);
	return f.length <= p.length && f.every((s, i) => p[i] === s);
}

/** Like `isWithinFolder`, but a folder that names nothing fences nothing (an unset setting). */
function fencedBy(path: string, folder: string): boolean {
	return pathSegments(folder).length > 0 && isWithinFolder(path, folder);
}

/** Which fence holds `path`, if any. */
export function fenceOf(path: string, fences: Fences): "config" | "chats" | "agents" | "excluded" | undefined {
	if (fencedBy(path, fences.configDir)) return "config";
	if (fencedBy(path, fences.chatsFolder)) return "chats";
	if (fencedBy(path, fences.agentsFolder)) return "agents";
	if (fences.excluded.some((folder) => fencedBy(path, folder))) return "excluded";
	return undefined;
}

/** Whether no write may land at `path`: it is in the config, chats or agents folder, or an excluded one. */
export function isFencedPath(path: string, fences: Fences): boolean {
	return fenceOf(path, fences) !== undefined;
}

/**
 * Whether `path` is out of reach for reading too: the config and chats folders and the excluded
 * ones (the agents folder can be read: agents are notes, and only writes to it are fenced).
 */
export function isReadFenced(path: string, fences: Fences): boolean {
	const fence = fenceOf(path, fences);
	return fence !== undefined && fence !== "agents";
}
