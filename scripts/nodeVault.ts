// VaultAccess over a folder on disk, for the terminal chat's --tools (Node only: it lives in scripts/,
// never reachable from the plugin's bundle). The tools check every path the model gives against
// src/tools/paths.ts before it gets here; this file adds what only the disk can tell: a symbolic
// link inside the folder that points outside it is never followed, and writes go through a
// temporary file and a rename, so a crash never leaves half a note.
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { mkdir, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { NoteIndex, tagsOf, type NoteSearchHit, type VaultAccess, type VaultNote } from "../src/headless";
import { markdownNotes, stampOf } from "./vaultWalk";

/** What a refresh found: notes read again (changed), read for the first time (added), dropped (removed), only stat'ed (unchanged). */
export interface VaultRefresh {
	added: number;
	changed: number;
	removed: number;
	unchanged: number;
}

export interface NodeVaultOptions {
	/** Obsidian's config folder name (default ".obsidian"); hidden folders are skipped anyway. */
	configDir?: string;
	/** Vault-relative folders not indexed nor listed (the chats folder when it is inside the vault, --exclude folders). */
	skipFolders?: string[];
	/** Called after each indexed note: (done, total). */
	onProgress?: (done: number, total: number) => void;
}

/** Where Obsidian's "move to Obsidian trash" puts files: `<vault>/.trash`. */
export const TRASH_FOLDER = ".trash";

export class NodeVault implements VaultAccess {
	readonly configDir: string;
	readonly index = new NoteIndex();
	private readonly notes = new Map<string, VaultNote>();
	/** Each indexed note's stamp when it was read (vaultWalk's stampOf): what refresh compares. */
	private readonly stamps = new Map<string, string>();
	private refreshing: Promise<unknown> = Promise.resolve();

	private constructor(
		/** The folder's real path (symbolic links resolved). */
		readonly root: string,
		configDir: string,
		/** Vault folders never indexed nor listed (the chats folder, --exclude folders). */
		private readonly skip: readonly string[],
	) {
		this.configDir = configDir;
	}

	/** Reads and indexes every Markdown note under `dir` (hidden files and folders, symbolic links and `skipFolders` skipped). */
	static async open(dir: string, opts: NodeVaultOptions = {}): Promise<NodeVault> {
		const root = await realpath(dir);
		if (!(await stat(root)).isDirectory()) throw new Error(`${dir} is not a folder.`);
		const skip = (opts.skipFolders ?? []).filter((f) => f !== "").map((f) => f.replace(/\/+$/, ""));
		const vault = new NodeVault(root, opts.configDir ?? ".obsidian", skip);
		const files = markdownNotes(root, skip);
		let done = 0;
		for (const file of files) {
			await vault.load(file.path).catch(() => undefined); // Gone or unreadable since listed: not a note now.
			opts.onProgress?.(++done, files.length);
		}
		return vault;
	}

	/**
	 * Brings the notes and the index up to date with the disk: a note whose stamp (mtime, ctime,
	 * size, inode) moved is read and re-indexed, a new one added, a gone one removed; unchanged notes are
	 * only stat'ed. Refreshes run one after another, so two callers never interleave their updates.
	 */
	refresh(): Promise<VaultRefresh> {
		const next = this.refreshing.then(() => this.syncWithDisk());
		this.refreshing = next.catch(() => undefined);
		return next;
	}

	private async syncWithDisk(): Promise<VaultRefresh> {
		const report: VaultRefresh = { added: 0, changed: 0, removed: 0, unchanged: 0 };
		const seen = new Set<string>();
		for (const note of markdownNotes(this.root, this.skip)) {
			seen.add(note.path);
			const known = this.stamps.get(note.path);
			if (known === note.stamp) {
				report.unchanged++;
				continue;
			}
			try {
				await this.load(note.path);
				if (known === undefined) report.added++;
				else report.changed++;
			} catch {
				// Deleted or made unreadable since the walk: not a note the chat can use now.
				if (known !== undefined) {
					this.forget(note.path);
					report.removed++;
				}
			}
		}
		for (const path of [...this.notes.keys()]) {
			// A note written by a tool after the walk listed the folder is kept: it is on disk.
			if (!seen.has(path) && !isNoteFile(join(this.root, ...path.split("/")))) {
				this.forget(path);
				report.removed++;
			}
		}
		return report;
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
		// Stat before reading: a change that lands between the two leaves an older stamp, which the
		// next refresh sees as changed, rather than a newer stamp on older text, never re-read.
		const info = await stat(abs);
		const body = text ?? (await readFile(abs, "utf8"));
		this.notes.set(path, { path, size: info.size, mtime: info.mtimeMs, tags: tagsOf(body) });
		this.stamps.set(path, stampOf(info));
		this.index.upsert(path, body, basename(path, ".md"), info.mtimeMs);
	}

	private forget(path: string): void {
		this.notes.delete(path);
		this.stamps.delete(path);
		this.index.remove(path);
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

	/** The note's bytes: edits check they are UTF-8 and keep a BOM. */
	async readBytes(path: string): Promise<Uint8Array> {
		return new Uint8Array(await readFile(this.inside(path)));
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
		this.forget(path);
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

function isNoteFile(abs: string): boolean {
	try {
		return lstatSync(abs).isFile();
	} catch {
		return false;
	}
}
