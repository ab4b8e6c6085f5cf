/**
 * Where sessions live. Paths are relative to the store's root and use "/" separators.
 * Implementations: NodeFileStore (node:fs, for scripts and tests) and ObsidianFileStore
 * (Obsidian's vault.adapter, inside the plugin).
 */
export interface FileStore {
	read(path: string): Promise<string>;
	/** Replaces the whole file. */
	write(path: string, data: string): Promise<void>;
	/** Appends to the file, creating it when missing. */
	append(path: string, data: string): Promise<void>;
	exists(path: string): Promise<boolean>;
	/** File names (not paths) directly inside `dir`; [] when `dir` is missing. */
	list(dir: string): Promise<string[]>;
	remove(path: string): Promise<void>;
	/** Creates `dir` and its parents; no error when it exists. */
	mkdir(dir: string): Promise<void>;
	/**
	 * Optional: size and modification time, or null when the file is missing. Lets the session
	 * index notice files changed by sync without reading them; without it only added and removed
	 * files are noticed until a session is loaded.
	 */
	stat?(path: string): Promise<FileStat | null>;
	/**
	 * Optional: moves `from` to `to`, replacing `to`, as atomically as the platform allows. Lets a
	 * full rewrite go through a temporary file so a crash leaves the old or the new file.
	 */
	rename?(from: string, to: string): Promise<void>;
}

export interface FileStat {
	/** Bytes (or any measure that changes when the content's length changes). */
	size: number;
	/** Modification time in milliseconds, or any number that changes on every write. */
	mtime: number;
}
