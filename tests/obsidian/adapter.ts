// An in-memory DataAdapter: the vault's raw file system, including hidden folders like the config dir.
import type * as O from "obsidian";
import { baseName, parentPath } from "./paths";

interface Entry {
	type: "file" | "folder";
	/** The content as `read` returns it: invalid UTF-8 decoded to U+FFFD, as Obsidian's adapter does. */
	data: string;
	/** The exact bytes, kept only when they are not the UTF-8 encoding of `data` (written as binary). */
	raw?: Uint8Array;
	/** Bytes on "disk", as `stat` reports them. */
	size: number;
	ctime: number;
	mtime: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function utf8Length(text: string): number {
	let bytes = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c < 0x80) bytes += 1;
		else if (c < 0x800) bytes += 2;
		else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
			bytes += 4;
			i++;
		} else bytes += 3;
	}
	return bytes;
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
	const out = new Uint8Array(a.length + b.length);
	out.set(a, 0);
	out.set(b, a.length);
	return out;
}

function missing(path: string): Error {
	// Shaped like the ENOENT error Obsidian's desktop adapter surfaces.
	return Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: "ENOENT" });
}

export class InMemoryAdapter implements O.DataAdapter {
	private entries = new Map<string, Entry>([["", { type: "folder", data: "", size: 0, ctime: 0, mtime: 0 }]]);
	/** Not Obsidian API: every write/append/remove/rename, for tests that check what touched disk. */
	readonly log: string[] = [];

	constructor(private readonly vaultName = "Test vault") {}

	getName(): string {
		return this.vaultName;
	}

	private key(path: string): string {
		return path === "/" ? "" : path.replace(/^\/+|\/+$/g, "");
	}

	private file(path: string): Entry {
		const e = this.entries.get(this.key(path));
		if (!e || e.type !== "file") throw missing(path);
		return e;
	}

	private ensureParents(path: string): void {
		const parent = parentPath(this.key(path));
		if (parent && !this.entries.has(parent)) this.mkdirSync(parent);
	}

	private mkdirSync(path: string): void {
		const k = this.key(path);
		const existing = this.entries.get(k);
		if (existing?.type === "file") throw new Error(`EEXIST: a file exists at '${path}'`);
		if (existing) return;
		this.ensureParents(k);
		const now = Date.now();
		this.entries.set(k, { type: "folder", data: "", size: 0, ctime: now, mtime: now });
	}

	exists(normalizedPath: string, sensitive?: boolean): Promise<boolean> {
		const k = this.key(normalizedPath);
		if (sensitive === false) {
			const lower = k.toLowerCase();
			return Promise.resolve([...this.entries.keys()].some((p) => p.toLowerCase() === lower));
		}
		return Promise.resolve(this.entries.has(k));
	}

	stat(normalizedPath: string): Promise<O.Stat | null> {
		const e = this.entries.get(this.key(normalizedPath));
		if (!e) return Promise.resolve(null);
		return Promise.resolve({ type: e.type, ctime: e.ctime, mtime: e.mtime, size: e.size });
	}

	/** Like Obsidian: full vault-relative paths of the direct children; rejects when the folder is missing. */
	list(normalizedPath: string): Promise<O.ListedFiles> {
		const k = this.key(normalizedPath);
		const dir = this.entries.get(k);
		if (!dir || dir.type !== "folder") return Promise.reject(missing(normalizedPath));
		const files: string[] = [];
		const folders: string[] = [];
		for (const [p, e] of this.entries) {
			if (p === "" || parentPath(p) !== k) continue;
			(e.type === "file" ? files : folders).push(p);
		}
		return Promise.resolve({ files: files.sort(), folders: folders.sort() });
	}

	read(normalizedPath: string): Promise<string> {
		try {
			return Promise.resolve(this.file(normalizedPath).data);
		} catch (e) {
			return Promise.reject(e instanceof Error ? e : new Error(String(e)));
		}
	}

	async readBinary(normalizedPath: string): Promise<ArrayBuffer> {
		const text = await this.read(normalizedPath);
		const bytes = this.file(normalizedPath).raw ?? encoder.encode(text);
		return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
	}

	write(normalizedPath: string, data: string, options?: O.DataWriteOptions): Promise<void> {
		return this.put(normalizedPath, data, undefined, options);
	}

	/** Writes text, or bytes (`raw`, kept as they are when they are not valid UTF-8). */
	private put(normalizedPath: string, data: string, raw: Uint8Array | undefined, options?: O.DataWriteOptions): Promise<void> {
		const k = this.key(normalizedPath);
		const existing = this.entries.get(k);
		if (existing?.type === "folder") return Promise.reject(new Error(`EISDIR: '${normalizedPath}' is a folder`));
		// Strict like the desktop adapter (Node's fs): the parent folder must exist; mkdir first.
		const parent = this.entries.get(parentPath(k));
		if (!parent || parent.type !== "folder") return Promise.reject(missing(normalizedPath));
		const now = Date.now();
		this.entries.set(k, {
			type: "file",
			data,
			raw,
			size: raw?.length ?? utf8Length(data),
			ctime: options?.ctime ?? existing?.ctime ?? now,
			mtime: options?.mtime ?? now,
		});
		this.log.push(`write ${k}`);
		return Promise.resolve();
	}

	writeBinary(normalizedPath: string, data: ArrayBuffer, options?: O.DataWriteOptions): Promise<void> {
		const bytes = new Uint8Array(data.slice(0));
		const text = decoder.decode(bytes);
		const exact = utf8Length(text) === bytes.length && text.indexOf("\uFFFD") < 0;
		return this.put(normalizedPath, text, exact ? undefined : bytes, options);
	}

	append(normalizedPath: string, data: string, options?: O.DataWriteOptions): Promise<void> {
		const k = this.key(normalizedPath);
		const existing = this.entries.get(k);
		if (existing?.type === "folder") return Promise.reject(new Error(`EISDIR: '${normalizedPath}' is a folder`));
		if (!existing) return this.write(k, data, options);
		existing.data += data;
		if (existing.raw !== undefined) existing.raw = concatBytes(existing.raw, encoder.encode(data));
		existing.size += utf8Length(data);
		existing.mtime = options?.mtime ?? Date.now();
		this.log.push(`append ${k}`);
		return Promise.resolve();
	}

	async appendBinary(normalizedPath: string, data: ArrayBuffer, options?: O.DataWriteOptions): Promise<void> {
		const existing = this.entries.get(this.key(normalizedPath));
		if (existing?.type !== "file") return this.writeBinary(normalizedPath, data, options);
		const before = existing.raw ?? encoder.encode(existing.data);
		await this.writeBinary(normalizedPath, concatBytes(before, new Uint8Array(data)).buffer as ArrayBuffer, { ctime: existing.ctime, mtime: options?.mtime });
	}

	async process(normalizedPath: string, fn: (data: string) => string, options?: O.DataWriteOptions): Promise<string> {
		const next = fn(await this.read(normalizedPath));
		await this.write(normalizedPath, next, options);
		return next;
	}

	getResourcePath(normalizedPath: string): string {
		return `app://local/${encodeURI(this.key(normalizedPath))}`;
	}

	mkdir(normalizedPath: string): Promise<void> {
		try {
			this.mkdirSync(normalizedPath);
			return Promise.resolve();
		} catch (e) {
			return Promise.reject(e instanceof Error ? e : new Error(String(e)));
		}
	}

	async trashSystem(normalizedPath: string): Promise<boolean> {
		await this.removeAny(normalizedPath);
		return true;
	}

	async trashLocal(normalizedPath: string): Promise<void> {
		const k = this.key(normalizedPath);
		const e = this.entries.get(k);
		if (!e) throw missing(normalizedPath);
		if (e.type === "file") await this.writeBinary(`.trash/${baseName(k)}`, await this.readBinary(k));
		await this.removeAny(k);
	}

	rmdir(normalizedPath: string, recursive: boolean): Promise<void> {
		const k = this.key(normalizedPath);
		const e = this.entries.get(k);
		if (!e || e.type !== "folder") return Promise.reject(missing(normalizedPath));
		const inside = [...this.entries.keys()].filter((p) => p.startsWith(`${k}/`));
		if (inside.length && !recursive) return Promise.reject(new Error(`ENOTEMPTY: '${normalizedPath}' is not empty`));
		for (const p of inside) this.entries.delete(p);
		this.entries.delete(k);
		this.log.push(`rmdir ${k}`);
		return Promise.resolve();
	}

	remove(normalizedPath: string): Promise<void> {
		try {
			this.file(normalizedPath);
		} catch (e) {
			return Promise.reject(e instanceof Error ? e : new Error(String(e)));
		}
		this.entries.delete(this.key(normalizedPath));
		this.log.push(`remove ${this.key(normalizedPath)}`);
		return Promise.resolve();
	}

	private removeAny(path: string): Promise<void> {
		const e = this.entries.get(this.key(path));
		return e?.type === "folder" ? this.rmdir(path, true) : this.remove(path);
	}

	rename(normalizedPath: string, normalizedNewPath: string): Promise<void> {
		const from = this.key(normalizedPath);
		const to = this.key(normalizedNewPath);
		if (!this.entries.has(from)) return Promise.reject(missing(normalizedPath));
		if (this.entries.has(to)) return Promise.reject(new Error(`EEXIST: '${normalizedNewPath}' exists`));
		if (this.entries.get(parentPath(to))?.type !== "folder") return Promise.reject(missing(normalizedNewPath));
		for (const [p, e] of [...this.entries]) {
			if (p === from || p.startsWith(`${from}/`)) {
				this.entries.delete(p);
				this.entries.set(to + p.slice(from.length), e);
			}
		}
		this.log.push(`rename ${from} ${to}`);
		return Promise.resolve();
	}

	async copy(normalizedPath: string, normalizedNewPath: string): Promise<void> {
		if (await this.exists(normalizedNewPath)) throw new Error(`EEXIST: '${normalizedNewPath}' exists`);
		await this.writeBinary(normalizedNewPath, await this.readBinary(normalizedPath));
	}

	/** Not Obsidian API: every path, for test assertions. */
	allPaths(): string[] {
		return [...this.entries.keys()].filter((p) => p !== "").sort();
	}

	/** Not Obsidian API: the entry kind at `path`. */
	kind(path: string): "file" | "folder" | undefined {
		return this.entries.get(this.key(path))?.type;
	}
}
