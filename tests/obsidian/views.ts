// Views: View, ItemView (header + content as Obsidian builds them) and a small MarkdownView.
import type * as O from "obsidian";
import type { App } from "./app";
import { Component } from "./events";
import { setIcon } from "./icons";
import type { TFile } from "./vault";
import type { WorkspaceLeaf } from "./workspace";

export abstract class View extends Component {
	app: App;
	icon: O.IconName = "";
	navigation = false;
	leaf: WorkspaceLeaf;
	containerEl: HTMLElement;
	scope: O.Scope | null = null;

	constructor(leaf: WorkspaceLeaf) {
		super();
		this.leaf = leaf;
		this.app = leaf.app;
		this.containerEl = createDiv("workspace-leaf-content");
	}

	protected onOpen(): Promise<void> {
		return Promise.resolve();
	}
	protected onClose(): Promise<void> {
		return Promise.resolve();
	}
	abstract getViewType(): string;
	abstract getDisplayText(): string;
	getState(): Record<string, unknown> {
		return {};
	}
	setState(_state: unknown, _result: O.ViewStateResult): Promise<void> {
		return Promise.resolve();
	}
	getEphemeralState(): Record<string, unknown> {
		return {};
	}
	setEphemeralState(_state: unknown): void {}
	getIcon(): O.IconName {
		return this.icon;
	}
	onResize(): void {}
	onPaneMenu(_menu: O.Menu, _source: string): void {}

	/** Internal (Obsidian calls it when the leaf shows the view): load, then onOpen. */
	async open(parentEl: HTMLElement): Promise<void> {
		this.containerEl.setAttr("data-type", this.getViewType());
		parentEl.appendChild(this.containerEl);
		this.load();
		await this.onOpen();
	}

	/** Internal: onClose, then unload everything the view registered, then remove its DOM. */
	async close(): Promise<void> {
		await this.onClose();
		this.unload();
		this.containerEl.detach();
	}
}

export abstract class ItemView extends View {
	contentEl: HTMLElement;
	private actionsEl: HTMLElement;
	private titleEl: HTMLElement;

	constructor(leaf: WorkspaceLeaf) {
		super(leaf);
		const header = this.containerEl.createDiv("view-header");
		header.createDiv("view-header-left");
		this.titleEl = header.createDiv("view-header-title-container").createDiv("view-header-title");
		this.actionsEl = header.createDiv("view-actions");
		this.contentEl = this.containerEl.createDiv("view-content");
	}

	addAction(icon: O.IconName, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
		const el = createEl("a", { cls: ["clickable-icon", "view-action"], attr: { "aria-label": title } });
		this.actionsEl.prepend(el);
		setIcon(el, icon);
		el.addEventListener("click", callback);
		return el;
	}

	override async open(parentEl: HTMLElement): Promise<void> {
		this.titleEl.setText(this.getDisplayText());
		await super.open(parentEl);
	}
}

/** A minimal editor: enough for "send the selection instead of the note". */
export class TestEditor implements Pick<O.Editor, "getValue" | "setValue" | "getSelection" | "somethingSelected" | "replaceSelection" | "lineCount" | "getLine" | "focus" | "hasFocus"> {
	private value = "";
	private selection: [number, number] = [0, 0];
	getValue(): string {
		return this.value;
	}
	setValue(content: string): void {
		this.value = content;
		this.selection = [0, 0];
	}
	getSelection(): string {
		return this.value.slice(this.selection[0], this.selection[1]);
	}
	somethingSelected(): boolean {
		return this.selection[1] > this.selection[0];
	}
	replaceSelection(replacement: string): void {
		this.value = this.value.slice(0, this.selection[0]) + replacement + this.value.slice(this.selection[1]);
		this.selection = [this.selection[0] + replacement.length, this.selection[0] + replacement.length];
	}
	lineCount(): number {
		return this.value.split("\n").length;
	}
	getLine(line: number): string {
		return this.value.split("\n")[line] ?? "";
	}
	focus(): void {}
	hasFocus(): boolean {
		return false;
	}
	/** Not Obsidian API: select characters [from, to) of the document. */
	select(from: number, to: number): void {
		this.selection = [Math.max(0, from), Math.min(this.value.length, to)];
	}
}

/** A note open in the editor. Holds its text in a TestEditor. */
export class MarkdownView extends ItemView {
	file: TFile | null = null;
	editor = new TestEditor();
	override navigation = true;
	getViewType(): string {
		return "markdown";
	}
	getDisplayText(): string {
		return this.file?.basename ?? "";
	}
	getViewData(): string {
		return this.editor.getValue();
	}
	/** Internal: load `file` into the editor, as opening a note does. */
	async loadFile(file: TFile): Promise<void> {
		this.file = file;
		this.editor.setValue(await this.app.vault.read(file));
	}
}

/** What an empty leaf shows. */
export class EmptyView extends ItemView {
	getViewType(): string {
		return "empty";
	}
	getDisplayText(): string {
		return "New tab";
	}
}
