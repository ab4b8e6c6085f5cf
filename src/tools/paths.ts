// Where a tool may go. A path from the model is untrusted: it is checked, then normalized, before
// any vault call. Refused: anything that is not a plain vault-relative path (absolute paths, drive
// letters, backslashes, `..`, control characters), hidden files and folders (they hold the config
// folder and the trash), the config folder by name, the chats folder, and excluded folders.
// Comparisons fold case and trailing dots and spaces, as case-insensitive file systems and Windows do,
// so ".Obsidian" or "Chats./x.md" cannot slip past a rule meant for ".obsidian" or "Chats".
import type { ToolScope } from "./types";

/** A tool failure whose message is meant for the model (and the tool card) as is. */
export class ToolError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "ToolError";
	}
}

const hasControlCharacter = (text: string): boolean => [...text].some((c) => c.charCodeAt(0) < 0x20 || c === "\u007f");

/** A segment as the file system will see it: case folded, trailing dots and spaces dropped. */
function foldSegment(s: string): string {
	return s.normalize("NFC").replace(/[. ]+$/, "").toLowerCase();
}

function foldPath(path: string): string[] {
	return path
		.split("/")
		.map((s) => s.trim())
		.filter((s) => s !== "" && s !== ".")
		.map(foldSegment);
}

function within(path: string[], folder: string[]): boolean {
	return folder.length > 0 && folder.length <= path.length && folder.every((s, i) => path[i] === s);
}

/**
 * The vault-relative path the model meant, normalized ("a//b/./c.md" → "a/b/c.md"), or a ToolError
 * saying why it is out of reach. `what` names the argument in the message.
 */
export function safePath(raw: unknown, configDir: string, scope: ToolScope, what = "path"): string {
	if (typeof raw !== "string" || raw.trim() === "") throw new ToolError(`"${what}" must be a vault-relative path such as "Folder/Note.md".`);
	if (raw.includes("\\")) throw new ToolError(`"${raw}" uses backslashes; use forward slashes ("Folder/Note.md").`);
	if (hasControlCharacter(raw)) throw new ToolError(`"${what}" contains control characters.`);
	const segments = raw.normalize("NFC").split("/").filter((s) => s !== "" && s !== ".");
	// Checked on the raw text and again once "./" is gone ("./C:/x" is "C:/x").
	const absolute = (p: string): boolean => p.startsWith("/") || p.startsWith("~") || /^[a-zA-Z]:/.test(p) || /^[a-z][a-z0-9+.-]*:\/\//i.test(p);
	if (absolute(raw) || absolute(segments.join("/"))) {
		throw new ToolError(`"${raw}" is an absolute path; give a path inside the vault, such as "Folder/Note.md".`);
	}
	// Obsidian refuses these in names; a colon is also how drive letters and URLs begin.
	if (/[:*?"<>|]/.test(raw)) throw new ToolError(`"${raw}" contains characters a note path cannot have (: * ? " < > |).`);
	if (segments.some((s) => s.trim() === "..")) throw new ToolError(`"${raw}" leaves the vault ("..") and is out of reach.`);
	if (segments.length === 0) throw new ToolError(`"${what}" must name a note inside the vault.`);
	if (segments.some((s) => s.trim().startsWith("."))) throw new ToolError(`"${raw}" is in a hidden file or folder, which the tools cannot reach.`);
	const path = segments.join("/");
	const folded = foldPath(path);
	if (within(folded, foldPath(configDir))) throw new ToolError(`"${raw}" is in Obsidian's settings folder, which the tools cannot reach.`);
	if (within(folded, foldPath(scope.chatsFolder()))) throw new ToolError(`"${raw}" is in the chats folder, which the tools cannot reach.`);
	for (const folder of scope.excludedFolders()) {
		if (within(folded, foldPath(folder))) throw new ToolError(`"${raw}" is in a folder the person excluded from the tools.`);
	}
	return path;
}

/** Whether an existing vault path (from a listing or the index) is within the tools' reach. */
export function reachable(path: string, configDir: string, scope: ToolScope): boolean {
	try {
		safePath(path, configDir, scope);
		return true;
	} catch {
		return false;
	}
}

/** A note path: ".md" added when the model left it out; another extension is refused. */
export function notePath(path: string): string {
	const base = path.slice(path.lastIndexOf("/") + 1);
	if (/\.md$/i.test(base)) return path;
	const dot = base.lastIndexOf(".");
	if (dot > 0 && /^[a-z][a-z0-9]{0,4}$/i.test(base.slice(dot + 1))) throw new ToolError(`"${path}" is not a Markdown note; the tools read and write ".md" notes only.`);
	return `${path}.md`;
}
