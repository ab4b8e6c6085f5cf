// Image paths read back from a chat file. A chat file is synced and can be written outside the
// plugin, so the path an attachment reference names is untrusted: `normalizePath` keeps `..`, and the
// desktop adapter resolves a path against the vault's folder on disk, so `../../etc/passwd.png` would
// read (and send to the model) a file from anywhere. Only a plain vault path is accepted: relative,
// no `..`, no drive, share or scheme, and not in the config folder. Engine-safe (no 'obsidian').
import { isWithinFolder } from "./pathFences";

/** Thrown by a reader asked for an image path outside the vault; the turn goes on without it. */
export class RefusedImagePath extends Error {
	constructor(readonly path: string) {
		super(`The image path ${JSON.stringify(path)} is not a path inside the vault; it was not read.`);
		this.name = "RefusedImagePath";
	}
}

/**
 * The vault path `path` names, normalized as Obsidian's `normalizePath` does (slashes joined, `.`
 * and empty segments dropped, NFC), or undefined when it is not a path inside the vault outside
 * `configDir`.
 */
export function vaultImagePath(path: string, configDir: string): string | undefined {
	// eslint-disable-next-line no-control-regex -- control characters are what this refuses
	if (typeof path !== "string" || /[\u0000-\u001f\u007f]/.test(path)) return undefined;
	const unified = path.normalize("NFC").replace(/\u00a0|\u202f/g, " ").replace(/\\/g, "/");
	// Absolute (`/…`, `//share`), home (`~`); a colon anywhere: a drive (`C:`), a scheme (`file:`)
	// or an NTFS stream (`a.png:x`), none of which a vault file's name may hold.
	if (/^\s*(?:\/|~)/.test(unified) || unified.includes(":")) return undefined;
	const segments = unified.split("/").filter((s) => s !== "" && s !== ".");
	// `..`, and what Windows reads as `..` (trailing dots and spaces trimmed: `.. `, `...`).
	if (segments.length === 0 || segments.some((s) => s.trim() === "" || /^\.+$/.test(s.replace(/[. ]+$/, "")) || s.replace(/[. ]+$/, "") === "")) return undefined;
	const normalized = segments.join("/");
	if (isWithinFolder(normalized, configDir) && configDir.trim() !== "") return undefined;
	return normalized;
}
