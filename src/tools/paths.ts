// Where a tool may go. A path from the model is untrusted: it is checked, then normalized, before
// any vault call. Refused: anything that is not a plain vault-relative path (absolute paths, drive
// letters, backslashes, `..`, control characters), hidden files and folders (they hold the config
// folder and the trash), the config folder by name, the chats folder, and excluded folders; for
// writes, the agents folder too (an agent note is what a chat obeys: only the person changes it).
// Comparisons go through core/pathFences.ts, the one function every fence uses: NFC, full case
// folding, trailing dots and spaces, so ".Obsidian", "Chats./x.md" or "Prıvate" cannot slip past.
import { fenceOf, type Fences } from "../core/pathFences";
import type { ToolScope } from "./types";

/** A tool failure whose message is meant for the model (and the tool card) as is. */
export class ToolError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "ToolError";
	}
}

const hasControlCharacter = (text: string): boolean => [...text].some((c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) < 0xa0));

/** Characters that reorder how a name is shown: "x\u202Edm.exe" shows as "xexe.md". */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** Names Windows refuses for any file, whatever its extension ("con.md", "LPT1.txt.md"). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9\u00b9\u00b2\u00b3]|lpt[1-9\u00b9\u00b2\u00b3])[ ]*(\..*)?$/i;

/** The longest name a segment may have on common file systems, in UTF-8 bytes. */
export const MAX_SEGMENT_BYTES = 255;

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

/** The agents folder when a ToolScope from an older caller does not name one. */
export const DEFAULT_AGENTS_FOLDER = "Discover/Agents";

/** The fences of a tool scope, for `fenceOf`. */
export function scopeFences(configDir: string, scope: ToolScope): Fences {
	return { configDir, chatsFolder: scope.chatsFolder(), agentsFolder: scope.agentsFolder?.() ?? DEFAULT_AGENTS_FOLDER, excluded: scope.excludedFolders() };
}

/**
 * `access` "write": the agents folder is fenced too (agents are read, never written, by tools).
 * The vault-relative path the model meant, normalized ("a//b/./c.md" → "a/b/c.md"), or a ToolError
 * saying why it is out of reach. `what` names the argument in the message.
 */
export function safePath(raw: unknown, configDir: string, scope: ToolScope, what = "path", access: "read" | "write" = "read"): string {
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
	const fence = fenceOf(path, scopeFences(configDir, scope));
	if (fence === "config") throw new ToolError(`"${raw}" is in Obsidian's settings folder, which the tools cannot reach.`);
	if (fence === "chats") throw new ToolError(`"${raw}" is in the chats folder, which the tools cannot reach.`);
	if (fence === "excluded") throw new ToolError(`"${raw}" is in a folder the person excluded from the tools.`);
	if (fence === "agents" && access === "write") throw new ToolError(`"${raw}" is in Discover's agents folder, which the tools can read but never change. Ask the person to edit the agent note themselves.`);
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

/**
 * A path a write may create: on top of `safePath`, no bidi controls (a name that shows as another),
 * no name Windows refuses (CON, PRN, AUX, NUL, COM1–9, LPT1–9, with any extension), and no segment
 * over 255 UTF-8 bytes. The message tells the model what to do instead.
 */
export function creatablePath(path: string): string {
	if (BIDI_CONTROL.test(path)) throw new ToolError(`"${path}" contains bidirectional control characters, which make a name show as another; use plain characters.`);
	for (const segment of path.split("/")) {
		const bare = segment.replace(/[. ]+$/u, "");
		if (WINDOWS_RESERVED.test(bare)) throw new ToolError(`"${segment}" is a name Windows reserves (CON, PRN, AUX, NUL, COM1–9, LPT1–9), so the note could not sync to Windows; choose another name.`);
		if (utf8Bytes(segment) > MAX_SEGMENT_BYTES) throw new ToolError(`"${segment.slice(0, 40)}…" is longer than ${MAX_SEGMENT_BYTES} bytes, the longest name a file system takes; choose a shorter name.`);
		if (bare === "") throw new ToolError(`"${path}" has a name made only of dots or spaces; choose another name.`);
	}
	return path;
}
