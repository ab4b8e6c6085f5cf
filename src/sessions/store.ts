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
	/**
	 * Optional: the file's exact bytes. With writeBytes, lets a rewrite keep a damaged line that
	 * is not UTF-8 byte for byte (read() turns such bytes into U+FFFD).
	 */
	readBytes?(path: string): Promise<Uint8Array>;
	/** Optional: replaces the whole file with `data`. */
	writeBytes?(path: string, data: Uint8Array): Promise<void>;
}

export interface FileStat {
	/**
	 * Bytes in UTF-8. A writer compares it with the size it expects after its own append to notice
	 * another device's write; a store that measures otherwise still works, re-reading after every
	 * append.
	 */
	size: number;
	/** Modification time in milliseconds, or any number that changes on every write. */
	mtime: number;
}
