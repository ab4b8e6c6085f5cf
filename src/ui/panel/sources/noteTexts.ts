// Note texts for the sources, cached by path and modification time: previews run on every pause in
// typing and must not read the vault each time; a changed note (new mtime) is read again.
import type { App, TFile } from "obsidian";

export class NoteTexts {
	private cache = new Map<string, { mtime: number; text: string }>();

	constructor(private readonly app: App) {}

	/** The text when it is cached and current, else undefined (call `load`). */
	cached(file: TFile): string | undefined {
		const hit = this.cache.get(file.path);
		return hit && hit.mtime === file.stat.mtime ? hit.text : undefined;
	}

	async read(file: TFile): Promise<string> {
		const cached = this.cached(file);
		if (cached !== undefined) return cached;
		const text = await this.app.vault.cachedRead(file);
		this.cache.set(file.path, { mtime: file.stat.mtime, text });
		return text;
	}

	/** Reads the files not cached yet; true when any was read. */
	async load(files: readonly TFile[]): Promise<boolean> {
		let read = false;
		for (const file of files) {
			if (this.cached(file) !== undefined) continue;
			await this.read(file);
			read = true;
		}
		return read;
	}

	/** Only the given paths stay cached (the rest were removed from the chat). */
	keepOnly(paths: ReadonlySet<string>): void {
		for (const path of [...this.cache.keys()]) if (!paths.has(path)) this.cache.delete(path);
	}
}
