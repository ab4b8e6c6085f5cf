// Where a tool may go. A path from the model is untrusted: it is checked, then normalized, before
// any vault call. Refused: anything that is not a plain vault-relative path (absolute paths, drive
// letters, backslashes, `..`, control characters), hidden files and folders (they hold the config
// folder and the trash), the config folder by name, the chats folder, and excluded folders. Writes
// are refused in the agents folder too (agents stay readable: the tools may read them, never change
// them), and a path a write creates must be a name every file system can hold.
// Every comparison goes through src/core/pathFences.ts (NFC, full case folding, trailing dots and
// spaces), so ".Obsidian", "Chats./x.md", "Prıvate/x.md" or "ſecrets/x.md" cannot slip past a fence
// meant for ".obsidian", "Chats", "Private" or "Secrets".
import { isWithinFolder, pathSegments } from "../core/pathFences";
import type { ToolScope } from "./types";

/** A tool failure whose message is meant for the model (and the tool card) as is. */
export class ToolError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "ToolError";
	}
}

/** The agents folder when a scope does not name one (the settings' default). */
export const DEFAULT_AGENTS_FOLDER = "Discover/Agents";

const hasControlCharacter = (text: string): boolean => [...text].some((c) => c.charCodeAt(0) < 0x20 || c === "\u007f");

/** Whether `path` is inside `folder` (a folder that names nothing fences nothing). */
const fencedBy = (path: string, folder: string): boolean => pathSegments(folder).length > 0 && isWithinFolder(path, folder);

/**
 * The vault-relative path the model meant, normalized ("a//b/./c.md" → "a/b/c.md"), or a ToolError
 * saying why it is out of reach. `what` names the argument in the message. The agents folder is
 * reachable here (for reading); writes check `writablePath`.
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
	if (fencedBy(path, configDir)) throw new ToolError(`"${raw}" is in Obsidian's settings folder, which the tools cannot reach.`);
	if (fencedBy(path, scope.chatsFolder())) throw new ToolError(`"${raw}" is in Discover's chats folder, which the tools cannot reach.`);
	for (const folder of scope.excludedFolders()) {
		if (fencedBy(path, folder)) throw new ToolError(`"${raw}" is in a folder the person excluded from the tools, which the tools cannot reach.`);
	}
	return path;
}

/** Like `safePath`, for a path a write would change: the agents folder is refused too. */
export function writablePath(raw: unknown, configDir: string, scope: ToolScope, what = "path"): string {
	const path = safePath(raw, configDir, scope, what);
	if (fencedBy(path, scope.agentsFolder?.() ?? DEFAULT_AGENTS_FOLDER)) {
		throw new ToolError(`"${path}" is in Discover's agents folder, which the tools can read but not change. Do not retry; tell the person what you wanted to change so they can edit the agent themselves.`);
	}
	return path;
}

// C0 and C1 controls, DEL; bidirectional embeddings, overrides, isolates and marks (which make a
// name read as something else: "x\u202Edm.exe"); invisible spaces and joiners that hide in a name.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/u;
/** Names Windows reserves for devices, whatever the extension ("con.md", "Lpt1.txt.md"). */
const RESERVED_NAME = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])$/iu;
/** The longest name (one path segment) common file systems hold, in UTF-8 bytes. */
export const MAX_SEGMENT_BYTES = 255;

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

/**
 * Why a new file or folder cannot be named `segment`, or undefined when it can. The checks a write
 * makes on every segment of a path it creates (the note and any folder made for it).
 */
export function unsafeNameReason(segment: string): string | undefined {
	const bad = UNSAFE_CHARACTER.exec(segment);
	if (bad) return `contains an invisible or control character (U+${(bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}) that can disguise a name`;
	const stem = segment.split(".")[0]?.replace(/[ .]+$/u, "") ?? "";
	if (RESERVED_NAME.test(stem)) return `uses "${stem}", a name Windows reserves for devices (CON, PRN, AUX, NUL, COM1-9, LPT1-9), with any extension`;
	if (/[ .]$/u.test(segment)) return "ends with a dot or a space, which Windows drops from names";
	// macOS stores names decomposed (NFD), which can be longer in bytes.
	if (Math.max(utf8Bytes(segment.normalize("NFC")), utf8Bytes(segment.normalize("NFD"))) > MAX_SEGMENT_BYTES) return `has a name longer than ${MAX_SEGMENT_BYTES} bytes, which file systems refuse`;
	return undefined;
}

/** Refuses, with a ToolError for the model, a new path (already checked by `writablePath`) that some file system could not hold or that disguises its name. */
export function checkCreatedPath(path: string): string {
	for (const segment of path.split("/")) {
		const why = unsafeNameReason(segment);
		if (why !== undefined) throw new ToolError(`Cannot create "${path}": "${segment}" ${why}. Choose a plain name, such as "Projects/Ideas.md".`);
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
