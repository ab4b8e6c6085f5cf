// VaultAccess over a plain map of paths to texts: the tools' stand-in vault in tests, the terminal
// chat and scripts. Tags are read from the text the way Obsidian's metadata cache reports them
// (inline #tags outside code, and frontmatter `tags`), well enough for list_notes.
import { NoteIndex } from "../context/NoteIndex";
import type { VaultAccess, VaultFile, VaultNote } from "./types";

export function tagsOf(text: string): string[] {
	const tags = new Set<string>();
	const fm = /^---\n([\s\S]*?)\n---/.exec(text);
	if (fm?.[1]) {
		const line = /^tags:\s*(.*)$/m.exec(fm[1]);
		const inline = line?.[1]?.replace(/[[\]]/g, "").split(/[,\s]+/) ?? [];
		const listed = line && !line[1]?.trim() ? [...fm[1].slice(line.index + line[0].length).matchAll(/^\s*-\s*(\S+)/gm)].map((m) => m[1] ?? "") : [];
		for (const t of [...inline, ...listed]) if (t.trim()) tags.add(t.trim().replace(/^#/, ""));
	}
	const body = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
	for (const m of body.matchAll(/(?:^|\s)#([\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*)/gu)) if (m[1]) tags.add(m[1]);
	return [...tags];
}

export class MemoryVault implements VaultAccess {
	readonly configDir: string;
	/** Each file's text; `bytes` when it was set as bytes that are not its text's UTF-8 (writeBytes). */
	readonly files = new Map<string, { text: string; mtime: number; bytes?: Uint8Array }>();
	readonly trashed: string[] = [];
	readonly index = new NoteIndex();
	activeNote: { path: string; selection: string } | null = null;
	private clock: number;

	constructor(notes: Record<string, string> = {}, opts: { configDir: string; now?: number }) {
		this.configDir = opts.configDir;
		this.clock = opts.now ?? Date.UTC(2026, 0, 1);
		for (const [path, text] of Object.entries(notes)) this.write(path, text);
	}

	/** Not VaultAccess: sets a note as another program would (and indexes it). */
	write(path: string, text: string): void {
		this.files.set(path, { text, mtime: ++this.clock });
		if (path.endsWith(".md")) this.index.upsert(path, text, undefined, this.clock);
	}

	/**
	 * Not VaultAccess: sets a note's bytes as another program would. Its text is what a vault's UTF-8
	 * read makes of them (U+FFFD where they are not UTF-8, a BOM kept), as Obsidian's adapter reads.
	 */
	writeBytes(path: string, bytes: Uint8Array): void {
		const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
		this.write(path, text);
		const file = this.files.get(path);
		if (file) file.bytes = new Uint8Array(bytes);
	}

	listNotes(): VaultNote[] {
		return [...this.files].filter(([p]) => p.endsWith(".md")).map(([path, f]) => ({ path, size: f.bytes?.length ?? new TextEncoder().encode(f.text).length, mtime: f.mtime, tags: tagsOf(f.text) }));
	}
	listPdfs(): VaultFile[] {
		return [...this.files].filter(([p]) => /\.pdf$/i.test(p)).map(([path, f]) => ({ path, size: f.bytes?.length ?? new TextEncoder().encode(f.text).length, mtime: f.mtime }));
	}
	exists(path: string): boolean {
		return this.files.has(path) || [...this.files.keys()].some((p) => p.startsWith(`${path}/`));
	}
	read(path: string): Promise<string> {
		const f = this.files.get(path);
		return f ? Promise.resolve(f.text) : Promise.reject(new Error(`File not found: ${path}`));
	}
	readBytes(path: string): Promise<Uint8Array> {
		const f = this.files.get(path);
		if (!f) return Promise.reject(new Error(`File not found: ${path}`));
		return Promise.resolve(f.bytes ? new Uint8Array(f.bytes) : new TextEncoder().encode(f.text));
	}
	// Async so a throw in fn is a rejection, as in vault.process.
	async process(path: string, fn: (text: string) => string): Promise<string> {
		const f = this.files.get(path);
		if (!f) throw new Error(`File not found: ${path}`);
		const next = fn(f.text);
		this.write(path, next);
		return next;
	}
	create(path: string, content: string): Promise<void> {
		if (this.exists(path)) return Promise.reject(new Error("File already exists."));
		this.write(path, content);
		return Promise.resolve();
	}
	trash(path: string): Promise<void> {
		this.files.delete(path);
		this.index.remove(path);
		this.trashed.push(path);
		return Promise.resolve();
	}
	active(): { path: string; selection: string } | null {
		return this.activeNote;
	}
	search(query: string, limit: number): ReturnType<NoteIndex["search"]> {
		return this.index.search(query, { limit });
	}
}
