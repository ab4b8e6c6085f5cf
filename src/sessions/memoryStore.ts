import { utf8Length } from "./fileText";
import type { FileStat, FileStore } from "./store";

/** A FileStore held in memory: for tests, benchmarks and previews. Directories are implicit. */
export class MemoryFileStore implements FileStore {
	readonly files = new Map<string, string>();
	/** A logical clock per file: bumped on every write so stat() sees every change. */
	private readonly versions = new Map<string, number>();
	/** UTF-8 size per file's content, kept on append so stat() need not measure a large file. */
	private readonly sizes = new Map<string, { data: string; size: number }>();
	private clock = 0;

	private static norm(path: string): string {
		return path.replace(/\\/g, "/").replace(/\/+/g, "/").replace(/^\/|\/$/g, "");
	}

	/** The size of `data`, the content of `key`; measured again when `files` was changed directly. */
	private sizeOf(key: string, data: string): number {
		const known = this.sizes.get(key);
		if (known?.data === data) return known.size;
		const size = utf8Length(data);
		this.sizes.set(key, { data, size });
		return size;
	}

	read(path: string): Promise<string> {
		const data = this.files.get(MemoryFileStore.norm(path));
		if (data === undefined) return Promise.reject(new Error(`File not found: ${path}`));
		return Promise.resolve(data);
	}

	write(path: string, data: string): Promise<void> {
		const key = MemoryFileStore.norm(path);
		this.files.set(key, data);
		this.versions.set(key, ++this.clock);
		this.sizes.set(key, { data, size: utf8Length(data) });
		return Promise.resolve();
	}

	append(path: string, data: string): Promise<void> {
		const key = MemoryFileStore.norm(path);
		const before = this.files.get(key);
		const after = (before ?? "") + data;
		this.files.set(key, after);
		this.versions.set(key, ++this.clock);
		this.sizes.set(key, { data: after, size: (before === undefined ? 0 : this.sizeOf(key, before)) + utf8Length(data) });
		return Promise.resolve();
	}

	exists(path: string): Promise<boolean> {
		const key = MemoryFileStore.norm(path);
		if (this.files.has(key)) return Promise.resolve(true);
		for (const name of this.files.keys()) if (name.startsWith(key + "/")) return Promise.resolve(true);
		return Promise.resolve(false);
	}

	list(dir: string): Promise<string[]> {
		const prefix = MemoryFileStore.norm(dir);
		const out = new Set<string>();
		for (const name of this.files.keys()) {
			const rest = prefix === "" ? name : name.startsWith(prefix + "/") ? name.slice(prefix.length + 1) : undefined;
			if (rest !== undefined && rest !== "") out.add(rest.split("/")[0] ?? rest);
		}
		return Promise.resolve([...out].sort());
	}

	remove(path: string): Promise<void> {
		const key = MemoryFileStore.norm(path);
		this.files.delete(key);
		this.versions.delete(key);
		this.sizes.delete(key);
		return Promise.resolve();
	}

	stat(path: string): Promise<FileStat | null> {
		const key = MemoryFileStore.norm(path);
		const data = this.files.get(key);
		if (data === undefined) return Promise.resolve(null);
		return Promise.resolve({ size: this.sizeOf(key, data), mtime: this.versions.get(key) ?? 0 });
	}

	rename(from: string, to: string): Promise<void> {
		const src = MemoryFileStore.norm(from);
		const data = this.files.get(src);
		if (data === undefined) return Promise.reject(new Error(`File not found: ${from}`));
		const dest = MemoryFileStore.norm(to);
		const size = this.sizeOf(src, data);
		this.files.delete(src);
		this.versions.delete(src);
		this.sizes.delete(src);
		this.files.set(dest, data);
		this.versions.set(dest, ++this.clock);
		this.sizes.set(dest, { data, size });
		return Promise.resolve();
	}

	mkdir(_dir: string): Promise<void> {
		return Promise.resolve();
	}
}
