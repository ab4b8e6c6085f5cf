// VaultAccess over a folder on disk, for the terminal chat's --tools (Node only: it lives in scripts/,
// never reachable from the plugin's bundle). The tools check every path the model gives against
// src/tools/paths.ts before it gets here; this file adds what only the disk can tell: a symbolic
// link inside the folder that points outside it is never followed, and writes go through a
// temporary file and a rename, so a crash never leaves half a note.
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { lstat, mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { NoteIndex, tagsOf, type NoteSearchHit, type VaultAccess, type VaultNote } from "../src/headless";

export interface NodeVaultOptions {
	/** Obsidian's config folder name (default ".obsidian"); hidden folders are skipped anyway. */
	configDir?: string;
	/** Vault-relative folders not indexed nor listed (the chats folder when it is inside the vault). */
	skipFolders?: string[];
	/** Called after each indexed note: (done, total). */
	onProgress?: (done: number, total: number) => void;
}

/** Where Obsidian's "move to Obsidian trash" puts files: `<vault>/.trash`. */
export const TRASH_FOLDER = ".trash";

const toVaultPath = (root: string, abs: string): string => relative(root, abs).split(sep).join("/");

export class NodeVault implements VaultAccess {
	readonly configDir: string;
	readonly index = new NoteIndex();
	private readonly notes = new Map<string, VaultNote>();

	private constructor(
		/** The folder's real path (symbolic links resolved). */
		readonly root: string,
		configDir: string,
	) {
		this.configDir = configDir;
	}

	/** Reads and indexes every Markdown note under `dir` (hidden files and folders and symbolic links skipped). */
	static async open(dir: string, opts: NodeVaultOptions = {}): Promise<NodeVault> {
		const root = await realpath(dir);
		if (!(await stat(root)).isDirectory()) throw new Error(`${dir} is not a folder.`);
		const vault = new NodeVault(root, opts.configDir ?? ".obsidian");
		const skip = (opts.skipFolders ?? []).filter((f) => f !== "").map((f) => f.replace(/\/+$/, ""));
		const files = await markdownFiles(root, root, skip);
		let done = 0;
		for (const file of files) {
			await vault.load(toVaultPath(root, file));
			opts.onProgress?.(++done, files.length);
		}
		return vault;
	}

	/**
	 * The absolute path of vault path `path`. Refused when a symbolic link lies on the way (the path
	 * or its nearest existing folder resolves elsewhere): a link could lead outside the vault, or
	 * into the chats folder under another name.
	 */
	private inside(path: string): string {
		const abs = join(this.root, ...path.split("/"));
		let probe = abs;
		while (!existsSync(probe) && probe !== this.root) probe = dirname(probe);
		if (realpathSync(probe) !== probe || (existsSync(abs) && lstatSync(abs).isSymbolicLink())) {
			throw new Error(`${path} goes through a symbolic link, which the tools do not follow.`);
		}
		return abs;
	}

	private async load(path: string, text?: string): Promise<void> {
		const abs = this.inside(path);
		const body = text ?? (await readFile(abs, "utf8"));
		const info = await stat(abs);
		this.notes.set(path, { path, size: info.size, mtime: info.mtimeMs, tags: tagsOf(body) });
		this.index.upsert(path, body, basename(path, ".md"), info.mtimeMs);
	}

	listNotes(): VaultNote[] {
		return [...this.notes.values()];
	}

	exists(path: string): boolean {
		if (this.notes.has(path)) return true;
		try {
			return existsSync(this.inside(path));
		} catch {
			return false;
		}
	}

	read(path: string): Promise<string> {
		return readFile(this.inside(path), "utf8");
	}

	async process(path: string, fn: (text: string) => string): Promise<string> {
		const abs = this.inside(path);
		const next = fn(await readFile(abs, "utf8"));
		await writeAtomically(abs, next);
		await this.load(path, next);
		return next;
	}

	async create(path: string, content: string): Promise<void> {
		const abs = this.inside(path);
		if (existsSync(abs)) throw new Error("File already exists.");
		await mkdir(dirname(abs), { recursive: true });
		// "wx": fails rather than overwrite a file that appeared since the check.
		await writeFile(abs, content, { flag: "wx" });
		await this.load(path, content);
	}

	async trash(path: string): Promise<void> {
		const abs = this.inside(path);
		let target = join(this.root, TRASH_FOLDER, ...path.split("/"));
		if (existsSync(target)) target = target.replace(/\.md$/, ` ${Date.now()}.md`);
		await mkdir(dirname(target), { recursive: true });
		await rename(abs, target);
		this.notes.delete(path);
		this.index.remove(path);
	}

	/** The terminal has no editor: no active note. */
	active(): null {
		return null;
	}

	search(query: string, limit: number): NoteSearchHit[] {
		return this.index.search(query, { limit });
	}
}

async function writeAtomically(abs: string, text: string): Promise<void> {
	const tmp = join(dirname(abs), `.${basename(abs)}.discover-${process.pid}.tmp`);
	try {
		await writeFile(tmp, text);
		await rename(tmp, abs);
	} catch (err) {
		await rm(tmp, { force: true });
		throw err;
	}
}

async function markdownFiles(root: string, dir: string, skip: readonly string[]): Promise<string[]> {
	const found: string[] = [];
	for (const entry of await readdir(dir, { withFileTypes: true })) {
		// Hidden folders (.obsidian, .trash, .git) are not notes; links are not followed out of the folder.
		if (entry.name.startsWith(".") || entry.isSymbolicLink()) continue;
		const abs = join(dir, entry.name);
		const path = toVaultPath(root, abs);
		if (entry.isDirectory()) {
			if (!skip.some((f) => path === f || path.startsWith(`${f}/`))) found.push(...(await markdownFiles(root, abs, skip)));
		} else if (entry.isFile() && entry.name.toLowerCase().endsWith(".md") && !(await lstat(abs)).isSymbolicLink()) {
			found.push(abs);
		}
	}
	return found;
}
