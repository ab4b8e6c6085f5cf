import { normalizePath, type DataAdapter } from "obsidian";
import type { FileStat, FileStore } from "../sessions/store";

function normalizeRoot(root: string): string {
	const normalized = normalizePath(root);
	// normalizePath("") is "/", the vault root.
	return normalized === "/" ? "" : normalized;
}

/**
 * A FileStore over Obsidian's `vault.adapter`, rooted at a folder of the vault (which may be a
 * hidden one such as `.discover`, reachable only through the adapter). Sessions travel with the
 * vault wherever it syncs.
 */
export class ObsidianFileStore implements FileStore {
	private root: string;

	constructor(
		private readonly adapter: DataAdapter,
		root: string,
	) {
		this.root = normalizeRoot(root);
	}

	/** Follows a change of the sessions folder setting; later calls use the new folder. */
	setRoot(root: string): void {
		this.root = normalizeRoot(root);
	}

	getRoot(): string {
		return this.root;
	}

	/** The vault path for `path`; throws when it would leave the root. */
	resolve(path: string): string {
		const segments = path.replace(/\\/g, "/").split("/");
		if (segments.some((s) => s === ".." || s === ".")) throw new Error(`Path escapes the store root: ${path}`);
		const relative = segments.filter((s) => s !== "").join("/");
		if (relative === "") return this.root === "" ? "/" : this.root;
		return normalizePath(this.root === "" ? relative : `${this.root}/${relative}`);
	}

	private parentOf(full: string): string | undefined {
		const slash = full.lastIndexOf("/");
		return slash > 0 ? full.slice(0, slash) : undefined;
	}

	private async ensureParent(full: string): Promise<void> {
		const parent = this.parentOf(full);
		if (parent !== undefined && !(await this.adapter.exists(parent))) await this.mkdirFull(parent);
	}

	private async mkdirFull(full: string): Promise<void> {
		// One level at a time: not every adapter creates missing parents.
		let path = "";
		for (const segment of full.split("/")) {
			path = path === "" ? segment : `${path}/${segment}`;
			if (!(await this.adapter.exists(path))) await this.adapter.mkdir(path);
		}
	}

	read(path: string): Promise<string> {
		return this.adapter.read(this.resolve(path));
	}

	async write(path: string, data: string): Promise<void> {
		const full = this.resolve(path);
		await this.ensureParent(full);
		await this.adapter.write(full, data);
	}

	async readBytes(path: string): Promise<Uint8Array> {
		return new Uint8Array(await this.adapter.readBinary(this.resolve(path)));
	}

	async writeBytes(path: string, data: Uint8Array): Promise<void> {
		const full = this.resolve(path);
		await this.ensureParent(full);
		// writeBinary takes an ArrayBuffer: copy out exactly the view's bytes.
		await this.adapter.writeBinary(full, data.slice().buffer);
	}

	async append(path: string, data: string): Promise<void> {
		const full = this.resolve(path);
		if (await this.adapter.exists(full)) return this.adapter.append(full, data);
		await this.ensureParent(full);
		await this.adapter.write(full, data);
	}

	exists(path: string): Promise<boolean> {
		return this.adapter.exists(this.resolve(path));
	}

	async list(dir: string): Promise<string[]> {
		const full = this.resolve(dir);
		if (!(await this.adapter.exists(full))) return [];
		const listed = await this.adapter.list(full);
		const names = [...listed.files, ...listed.folders].map((p) => p.slice(p.lastIndexOf("/") + 1));
		return names.sort();
	}

	async remove(path: string): Promise<void> {
		const full = this.resolve(path);
		if (await this.adapter.exists(full)) await this.adapter.remove(full);
	}

	async mkdir(dir: string): Promise<void> {
		const full = this.resolve(dir);
		if (full !== "/") await this.mkdirFull(full);
	}

	async stat(path: string): Promise<FileStat | null> {
		const stat = await this.adapter.stat(this.resolve(path));
		return stat === null ? null : { size: stat.size, mtime: stat.mtime };
	}

	/**
	 * The adapter's rename refuses an existing target, so the target is removed first. A crash in
	 * between leaves only `from`, complete; SessionManager finishes such a rewrite on next read.
	 */
	async rename(from: string, to: string): Promise<void> {
		const source = this.resolve(from);
		const target = this.resolve(to);
		if (await this.adapter.exists(target)) await this.adapter.remove(target);
		else await this.ensureParent(target);
		await this.adapter.rename(source, target);
	}
}
