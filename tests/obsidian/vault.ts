// The Vault: Obsidian's indexed view of the files in the vault (not hidden folders), over the adapter.
import type * as O from "obsidian";
import { InMemoryAdapter } from "./adapter";
import { Events } from "./events";
import { baseName, normalizePath, parentPath } from "./paths";

export abstract class TAbstractFile implements O.TAbstractFile {
	parent: TFolder | null = null;
	constructor(
		public vault: Vault,
		public path: string,
	) {}
	get name(): string {
		return this.path === "/" ? "" : baseName(this.path);
	}
}

export class TFile extends TAbstractFile implements O.TFile {
	stat: O.FileStats = { ctime: 0, mtime: 0, size: 0 };
	get basename(): string {
		const n = this.name;
		const dot = n.lastIndexOf(".");
		return dot > 0 ? n.slice(0, dot) : n;
	}
	get extension(): string {
		const n = this.name;
		const dot = n.lastIndexOf(".");
		return dot > 0 ? n.slice(dot + 1) : "";
	}
}

export class TFolder extends TAbstractFile implements O.TFolder {
	children: TAbstractFile[] = [];
	isRoot(): boolean {
		return this.path === "/";
	}
}

function isHidden(path: string): boolean {
	return path.split("/").some((part) => part.startsWith("."));
}

export class Vault extends Events implements O.Vault {
	readonly adapter: InMemoryAdapter;
	configDir = ".obsidian";
	private files = new Map<string, TAbstractFile>();
	private root: TFolder;

	constructor(adapter = new InMemoryAdapter()) {
		super();
		this.adapter = adapter;
		this.root = new TFolder(this, "/");
		this.files.set("/", this.root);
	}

	static recurseChildren(root: O.TFolder, cb: (file: O.TAbstractFile) => unknown): void {
		cb(root);
		for (const c of root.children) {
			if (c instanceof TFolder) Vault.recurseChildren(c, cb);
			else cb(c);
		}
	}

	getName(): string {
		return this.adapter.getName();
	}
	getRoot(): TFolder {
		return this.root;
	}
	getAbstractFileByPath(path: string): TAbstractFile | null {
		return this.files.get(normalizePath(path)) ?? null;
	}
	getFileByPath(path: string): TFile | null {
		const f = this.getAbstractFileByPath(path);
		return f instanceof TFile ? f : null;
	}
	getFolderByPath(path: string): TFolder | null {
		const f = this.getAbstractFileByPath(path);
		return f instanceof TFolder ? f : null;
	}

	private attach(file: TAbstractFile): void {
		const parent = this.getFolderByPath(parentPath(file.path) || "/");
		if (!parent) throw new Error("Folder does not exist.");
		file.parent = parent;
		parent.children.push(file);
		this.files.set(file.path, file);
	}

	private detachFile(file: TAbstractFile): void {
		if (file instanceof TFolder) for (const c of [...file.children]) this.detachFile(c);
		if (file.parent) file.parent.children = file.parent.children.filter((c) => c !== file);
		file.parent = null;
		this.files.delete(file.path);
	}

	private async refreshStat(file: TFile): Promise<void> {
		const st = await this.adapter.stat(file.path);
		if (st) file.stat = { ctime: st.ctime, mtime: st.mtime, size: st.size };
	}

	async create(path: string, data: string, options?: O.DataWriteOptions): Promise<TFile> {
		return this.createWith(path, (p) => this.adapter.write(p, data, options));
	}

	private async createWith(path: string, write: (p: string) => Promise<void>): Promise<TFile> {
		const p = normalizePath(path);
		if (this.files.has(p) || (await this.adapter.exists(p))) throw new Error("File already exists.");
		if (!this.getFolderByPath(parentPath(p) || "/")) throw new Error("Folder does not exist.");
		await write(p);
		const file = new TFile(this, p);
		this.attach(file);
		await this.refreshStat(file);
		this.trigger("create", file);
		return file;
	}

	/** The bytes as given (an image is not text: decoding it would change them). */
	createBinary(path: string, data: ArrayBuffer, options?: O.DataWriteOptions): Promise<TFile> {
		return this.createWith(path, (p) => this.adapter.writeBinary(p, data, options));
	}

	async createFolder(path: string): Promise<TFolder> {
		const p = normalizePath(path);
		if (this.files.has(p)) throw new Error("Folder already exists.");
		const parent = parentPath(p);
		if (parent && !this.files.has(parent)) await this.createFolder(parent);
		await this.adapter.mkdir(p);
		const folder = new TFolder(this, p);
		this.attach(folder);
		this.trigger("create", folder);
		return folder;
	}

	read(file: O.TFile): Promise<string> {
		return this.adapter.read(file.path);
	}
	cachedRead(file: O.TFile): Promise<string> {
		return this.adapter.read(file.path);
	}
	readBinary(file: O.TFile): Promise<ArrayBuffer> {
		return this.adapter.readBinary(file.path);
	}
	getResourcePath(file: O.TFile): string {
		return this.adapter.getResourcePath(file.path);
	}

	async delete(file: O.TAbstractFile): Promise<void> {
		const f = this.files.get(file.path);
		if (!f) throw new Error("File does not exist.");
		if (f instanceof TFolder) await this.adapter.rmdir(f.path, true);
		else await this.adapter.remove(f.path);
		this.detachFile(f);
		this.trigger("delete", f);
	}

	/** In memory the system trash and the vault's .trash are both just gone. */
	trash(file: O.TAbstractFile, system = true): Promise<void> {
		void system;
		return this.delete(file);
	}

	async rename(file: O.TAbstractFile, newPath: string): Promise<void> {
		const f = this.files.get(file.path);
		if (!f) throw new Error("File does not exist.");
		const to = normalizePath(newPath);
		if (this.files.has(to)) throw new Error("Destination file already exists!");
		const oldPath = f.path;
		await this.adapter.rename(oldPath, to);
		// Move the subtree: re-key every descendant, then hang the top under its new parent.
		const subtree: TAbstractFile[] = [];
		const collect = (x: TAbstractFile): void => {
			subtree.push(x);
			if (x instanceof TFolder) x.children.forEach(collect);
		};
		collect(f);
		for (const x of subtree) this.files.delete(x.path);
		if (f.parent) f.parent.children = f.parent.children.filter((c) => c !== f);
		for (const x of subtree) {
			x.path = to + x.path.slice(oldPath.length);
			this.files.set(x.path, x);
		}
		const parent = this.getFolderByPath(parentPath(to) || "/");
		if (!parent) throw new Error("Folder does not exist.");
		f.parent = parent;
		parent.children.push(f);
		this.trigger("rename", f, oldPath);
	}

	async modify(file: O.TFile, data: string, options?: O.DataWriteOptions): Promise<void> {
		await this.adapter.write(file.path, data, options);
		const f = this.getFileByPath(file.path);
		if (f) {
			await this.refreshStat(f);
			this.trigger("modify", f);
		}
	}
	/** The bytes as given, as createBinary writes them (decoding a PDF or an image as text would change them). */
	async modifyBinary(file: O.TFile, data: ArrayBuffer, options?: O.DataWriteOptions): Promise<void> {
		await this.adapter.writeBinary(file.path, data, options);
		const f = this.getFileByPath(file.path);
		if (f) {
			await this.refreshStat(f);
			this.trigger("modify", f);
		}
	}
	async append(file: O.TFile, data: string, options?: O.DataWriteOptions): Promise<void> {
		await this.adapter.append(file.path, data, options);
		const f = this.getFileByPath(file.path);
		if (f) {
			await this.refreshStat(f);
			this.trigger("modify", f);
		}
	}
	appendBinary(file: O.TFile, data: ArrayBuffer, options?: O.DataWriteOptions): Promise<void> {
		return this.append(file, new TextDecoder().decode(data), options);
	}
	async process(file: O.TFile, fn: (data: string) => string, options?: O.DataWriteOptions): Promise<string> {
		const next = fn(await this.read(file));
		await this.modify(file, next, options);
		return next;
	}

	async copy<T extends O.TAbstractFile>(file: T, newPath: string): Promise<T> {
		if (!(file instanceof TFile)) throw new Error("Copying folders is not supported in the test runtime.");
		return (await this.create(newPath, await this.read(file))) as unknown as T;
	}

	getAllLoadedFiles(): TAbstractFile[] {
		return [...this.files.values()];
	}
	getAllFolders(includeRoot?: boolean): TFolder[] {
		return [...this.files.values()].filter((f): f is TFolder => f instanceof TFolder && (includeRoot === true || f !== this.root));
	}
	getFiles(): TFile[] {
		return [...this.files.values()].filter((f): f is TFile => f instanceof TFile);
	}
	getMarkdownFiles(): TFile[] {
		return this.getFiles().filter((f) => f.extension === "md");
	}

	/** Not Obsidian API: true when Obsidian would not index `path` (hidden segment). */
	static isHidden(path: string): boolean {
		return isHidden(path);
	}
}
