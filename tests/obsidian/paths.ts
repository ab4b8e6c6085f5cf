// Path helpers with Obsidian's exact semantics.

/**
 * Obsidian's normalizePath: slashes and backslashes collapse to one "/", leading and trailing
 * slashes go, an empty path becomes "/", non-breaking spaces become spaces, Unicode is NFC.
 */
export function normalizePath(path: string): string {
	let p = path.replace(/([\\/])+/g, "/").replace(/(^\/+|\/+$)/g, "");
	if (p === "") p = "/";
	return p.replace(/\u00A0|\u202F/g, " ").normalize("NFC");
}

export function parentPath(path: string): string {
	const i = path.lastIndexOf("/");
	return i < 0 ? "" : path.slice(0, i);
}

export function baseName(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}
