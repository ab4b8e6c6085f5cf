import { MarkdownView, TFile } from "obsidian";
import type { App, WorkspaceLeaf } from "obsidian";

/**
 * Follows the note the person is reading. Clicking into the chat makes the chat the active leaf,
 * so the last Markdown view is remembered to read its selection and content.
 */
export class ActiveNote {
	private view: MarkdownView | undefined;
	private file: TFile | undefined;
	private cache: { path: string; text: string } | undefined;

	constructor(private readonly app: App) {
		const view = app.workspace.getActiveViewOfType(MarkdownView);
		if (view) this.view = view;
		this.file = view?.file ?? app.workspace.getActiveFile() ?? undefined;
	}

	/** Returns true when the note changed. */
	onLeafChange(leaf: WorkspaceLeaf | null): boolean {
		const before = this.file?.path;
		if (leaf?.view instanceof MarkdownView) {
			this.view = leaf.view;
			this.file = leaf.view.file ?? undefined;
		} else {
			const file = this.app.workspace.getActiveFile();
			// Another kind of leaf (the chat itself, a sidebar) keeps the note the person was reading.
			if (file) this.file = file;
		}
		if (this.view && this.view.file !== this.file) this.view = undefined;
		return before !== this.file?.path;
	}

	onFileChanged(path: string): void {
		if (this.cache?.path === path) this.cache = undefined;
	}

	onFileGone(path: string): void {
		if (this.file?.path === path) {
			this.file = undefined;
			this.view = undefined;
		}
		this.onFileChanged(path);
	}

	get current(): TFile | undefined {
		return this.file;
	}

	get name(): string | undefined {
		return this.file?.basename;
	}

	get path(): string {
		return this.file?.path ?? "";
	}

	/** The editor's selection in the remembered note, or "". */
	selection(): string {
		try {
			return this.view?.editor?.getSelection() ?? "";
		} catch {
			return "";
		}
	}

	/** The note's text, cached until the file changes; undefined while it is unknown. */
	cachedText(): string | undefined {
		return this.file && this.cache?.path === this.file.path ? this.cache.text : undefined;
	}

	async text(): Promise<string | undefined> {
		const file = this.file;
		if (!(file instanceof TFile)) return undefined;
		if (this.cache?.path === file.path) return this.cache.text;
		const text = await this.app.vault.cachedRead(file);
		this.cache = { path: file.path, text };
		return text;
	}
}
