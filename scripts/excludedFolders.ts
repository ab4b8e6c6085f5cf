// The terminal chat's --exclude: vault folders the chat leaves alone (not indexed, listed, searched,
// read nor written), as the plugin's excluded folders are. A value is a folder inside the vault,
// written as a vault path ("Private", "Work/Clients/"); anything that could point elsewhere is
// refused when the chat starts rather than silently excluding nothing.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { isWithinFolder, pathSegments, segmentKey } from "../src/core/pathFences";

/** The vault path `raw` names (no "./", no trailing "/"), or why it cannot be an excluded folder. */
export function parseExcludedFolder(raw: string): { ok: true; folder: string } | { ok: false; error: string } {
	const refuse = (why: string): { ok: false; error: string } => ({ ok: false, error: `--exclude "${raw}" ${why}` });
	if (raw.includes("\\")) return refuse('uses backslashes; write the folder with forward slashes ("Work/Clients").');
	if (raw.startsWith("/") || raw.startsWith("~") || /^[a-zA-Z]:/.test(raw)) return refuse('is an absolute path; give the folder as a path inside the --vault folder ("Private", "Work/Clients").');
	// eslint-disable-next-line no-control-regex -- refusing control characters is the point
	if (/[\u0000-\u001f\u007f]/.test(raw)) return refuse("contains control characters.");
	const segments = raw.split("/").filter((s) => s !== "" && s !== ".");
	if (segments.some((s) => s.trim() === "..")) return refuse('leaves the vault (".."); give a folder inside the --vault folder.');
	if (segments.length === 0) return refuse("names the whole vault; give a folder inside it.");
	return { ok: true, folder: segments.join("/") };
}

/** Whether vault path `path` is `folder` or inside it, compared as every fence compares (src/core/pathFences.ts). */
export function inFolder(path: string, folder: string): boolean {
	return pathSegments(folder).length > 0 && isWithinFolder(path, folder);
}

/** Whether the vault at `root` has `folder`, its segments matched as the exclusion matches them (case folded). */
export async function hasFolder(root: string, folder: string): Promise<boolean> {
	let dir = root;
	for (const segment of folder.split("/")) {
		const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
		const match = entries.find((e) => e.isDirectory() && segmentKey(e.name) === segmentKey(segment));
		if (match === undefined) return false;
		dir = join(dir, match.name);
	}
	return true;
}
