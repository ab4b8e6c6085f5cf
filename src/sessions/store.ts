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
}
