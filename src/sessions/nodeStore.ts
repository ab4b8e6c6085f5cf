// Node-only: scripts, tests and benchmarks use this store. The plugin never does (mobile has no
// Node), and a test checks it cannot be reached from src/main.ts.
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { FileStat, FileStore } from "./store";

export interface NodeFileStoreOptions {
	/** fsync after every write and append: survives power loss, costs a disk flush per call. */
	fsync?: boolean;
}

function isMissing(err: unknown): boolean {
	return typeof err === "object" && err !== null && "code" in err && err.code === "ENOENT";
}

/** A FileStore over a directory on disk. Paths are relative, "/"-separated and stay inside the root. */
export class NodeFileStore implements FileStore {
	readonly rootDir: string;
	private readonly fsync: boolean;

	constructor(rootDir: string, options: NodeFileStoreOptions = {}) {
		this.rootDir = nodePath.resolve(rootDir);
		this.fsync = options.fsync ?? false;
	}

	/** The absolute path for `path`; throws when it would leave the root (absolute, "..", drive). */
	resolve(path: string): string {
		const relative = path.replace(/\\/g, "/");
		if (relative.startsWith("/") || /^[A-Za-z]:/.test(relative) || relative.includes("\0")) {
			throw new Error(`Path must be relative to the store root: ${path}`);
		}
		const full = nodePath.resolve(this.rootDir, ...relative.split("/").filter((s) => s !== ""));
		if (full !== this.rootDir && !full.startsWith(this.rootDir + nodePath.sep)) {
			throw new Error(`Path escapes the store root: ${path}`);
		}
		return full;
	}

	async read(path: string): Promise<string> {
		return fs.readFile(this.resolve(path), "utf8");
	}

	async readBytes(path: string): Promise<Uint8Array> {
		return fs.readFile(this.resolve(path));
	}

	async writeBytes(path: string, data: Uint8Array): Promise<void> {
		const full = this.resolve(path);
		await fs.mkdir(nodePath.dirname(full), { recursive: true });
		await this.put(full, data, "w");
	}

	async write(path: string, data: string): Promise<void> {
		const full = this.resolve(path);
		await fs.mkdir(nodePath.dirname(full), { recursive: true });
		await this.put(full, data, "w");
	}

	async append(path: string, data: string): Promise<void> {
		const full = this.resolve(path);
		try {
			await this.put(full, data, "a");
		} catch (err) {
			if (!isMissing(err)) throw err;
			await fs.mkdir(nodePath.dirname(full), { recursive: true });
			await this.put(full, data, "a");
		}
	}

	private async put(full: string, data: string | Uint8Array, flag: "w" | "a"): Promise<void> {
		if (!this.fsync) return fs.writeFile(full, data, { encoding: "utf8", flag });
		const handle = await fs.open(full, flag);
		try {
			await handle.writeFile(data, { encoding: "utf8" });
			await handle.datasync();
		} finally {
			await handle.close();
		}
	}

	async exists(path: string): Promise<boolean> {
		try {
			await fs.access(this.resolve(path));
			return true;
		} catch (err) {
			if (isMissing(err)) return false;
			throw err;
		}
	}

	async list(dir: string): Promise<string[]> {
		try {
			return (await fs.readdir(this.resolve(dir))).sort();
		} catch (err) {
			if (isMissing(err)) return [];
			throw err;
		}
	}

	/** Removes a file; no error when it is already gone. */
	async remove(path: string): Promise<void> {
		try {
			await fs.unlink(this.resolve(path));
		} catch (err) {
			if (!isMissing(err)) throw err;
		}
	}

	async mkdir(dir: string): Promise<void> {
		await fs.mkdir(this.resolve(dir), { recursive: true });
	}

	async stat(path: string): Promise<FileStat | null> {
		try {
			const stat = await fs.stat(this.resolve(path));
			return { size: stat.size, mtime: stat.mtimeMs };
		} catch (err) {
			if (isMissing(err)) return null;
			throw err;
		}
	}

	/** Atomic on one file system: `to` is replaced in one step. */
	async rename(from: string, to: string): Promise<void> {
		const target = this.resolve(to);
		await fs.mkdir(nodePath.dirname(target), { recursive: true });
		await fs.rename(this.resolve(from), target);
	}
}
