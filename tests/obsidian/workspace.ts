// The workspace: leaves in a root split and a right sidebar, the active leaf and active file.
import type * as O from "obsidian";
import type { Extension } from "@codemirror/state";
import type { App } from "./app";
import { Events } from "./events";
import { EmptyView, MarkdownView, type View } from "./views";
import type { TFile } from "./vault";

export type ViewCreator = (leaf: WorkspaceLeaf) => View;

let leafCounter = 0;

export class WorkspaceLeaf extends Events {
	readonly id = `leaf-${++leafCounter}`;
	view: View;
	containerEl: HTMLElement;
	/** Not Obsidian API: which part of the window the leaf sits in. */
	readonly side: "root" | "right";
	private pinned = false;

	constructor(
		readonly app: App,
		side: "root" | "right",
	) {
		super();
		this.side = side;
		this.containerEl = createDiv("workspace-leaf");
		this.view = new EmptyView(this);
	}

	get isDeferred(): boolean {
		return false;
	}
	loadIfDeferred(): Promise<void> {
		return Promise.resolve();
	}

	async open(view: View): Promise<View> {
		await this.view.close();
		this.view = view;
		await view.open(this.containerEl);
		return view;
	}

	async setViewState(viewState: O.ViewState): Promise<void> {
		const creator = this.app.workspace.viewCreator(viewState.type);
		const view = creator ? creator(this) : new EmptyView(this);
		await this.open(view);
		if (viewState.state) await view.setState(viewState.state, { history: false });
		if (viewState.active) this.app.workspace.setActiveLeaf(this);
	}

	getViewState(): O.ViewState {
		return { type: this.view.getViewType(), state: this.view.getState(), pinned: this.pinned };
	}

	async openFile(file: O.TFile): Promise<void> {
		const own = this.app.vault.getFileByPath(file.path);
		if (!own) throw new Error(`File does not exist: ${file.path}`);
		const view = this.view instanceof MarkdownView ? this.view : await this.open(new MarkdownView(this));
		await (view as MarkdownView).loadFile(own);
		this.app.workspace.noteFileOpened(this);
	}

	getEphemeralState(): Record<string, unknown> {
		return this.view.getEphemeralState();
	}
	setEphemeralState(state: unknown): void {
		this.view.setEphemeralState(state);
	}
	togglePinned(): void {
		this.setPinned(!this.pinned);
	}
	setPinned(pinned: boolean): void {
		this.pinned = pinned;
		this.trigger("pinned-change", pinned);
	}
	getIcon(): O.IconName {
		return this.view.getIcon();
	}
	getDisplayText(): string {
		return this.view.getDisplayText();
	}
	onResize(): void {
		this.view.onResize();
	}

	detach(): void {
		void this.app.workspace.removeLeaf(this);
	}
}

interface WorkspaceDom {
	containerEl: HTMLElement;
	ribbonEl: HTMLElement;
	rootEl: HTMLElement;
	rightEl: HTMLElement;
}

export class Workspace extends Events {
	layoutReady = false;
	activeLeaf: WorkspaceLeaf | null = null;
	// Built on first use, so an App without a DOM (vault-only tests in Node) still works.
	private dom: WorkspaceDom | null = null;
	/** Not Obsidian API: true once a right-sidebar leaf was revealed. */
	rightSplitCollapsed = true;
	/** Not Obsidian API: the plugins' editor extensions (Plugin.registerEditorExtension), for a test's EditorView. */
	readonly editorExtensions: Extension[] = [];
	private leaves: WorkspaceLeaf[] = [];
	private views = new Map<string, ViewCreator>();
	private layoutCallbacks: (() => unknown)[] = [];
	private recentFileLeaf: WorkspaceLeaf | null = null;

	constructor(private readonly app: App) {
		super();
	}

	private get parts(): WorkspaceDom {
		if (!this.dom) {
			const containerEl = createDiv("workspace");
			this.dom = {
				containerEl,
				ribbonEl: containerEl.createDiv("workspace-ribbon side-dock-ribbon mod-left"),
				rootEl: containerEl.createDiv("workspace-split mod-vertical mod-root"),
				rightEl: containerEl.createDiv("workspace-split mod-horizontal mod-sidedock mod-right-split"),
			};
		}
		return this.dom;
	}
	get containerEl(): HTMLElement {
		return this.parts.containerEl;
	}
	/** Not Obsidian API: the ribbon the plugin's icons go to, and the two areas leaves live in. */
	get ribbonEl(): HTMLElement {
		return this.parts.ribbonEl;
	}
	get rootEl(): HTMLElement {
		return this.parts.rootEl;
	}
	get rightEl(): HTMLElement {
		return this.parts.rightEl;
	}

	/** Internal: Plugin.registerView goes through here. */
	registerViewType(type: string, creator: ViewCreator): void {
		if (this.views.has(type)) throw new Error(`Attempting to register an existing view type "${type}"`);
		this.views.set(type, creator);
	}
	unregisterViewType(type: string): void {
		this.views.delete(type);
	}
	viewCreator(type: string): ViewCreator | undefined {
		return this.views.get(type);
	}

	onLayoutReady(callback: () => unknown): void {
		if (this.layoutReady) callback();
		else this.layoutCallbacks.push(callback);
	}

	/** Internal: what Obsidian does when the layout has loaded. */
	setLayoutReady(): void {
		if (this.layoutReady) return;
		this.layoutReady = true;
		for (const cb of this.layoutCallbacks.splice(0)) cb();
		this.trigger("layout-change");
	}

	private createLeaf(side: "root" | "right"): WorkspaceLeaf {
		const leaf = new WorkspaceLeaf(this.app, side);
		this.leaves.push(leaf);
		(side === "root" ? this.rootEl : this.rightEl).appendChild(leaf.containerEl);
		return leaf;
	}

	getLeaf(newLeaf?: boolean | O.PaneType | "split"): WorkspaceLeaf {
		if (!newLeaf) {
			const current = this.activeLeaf?.side === "root" ? this.activeLeaf : this.leaves.find((l) => l.side === "root");
			if (current) return current;
		}
		return this.createLeaf("root");
	}

	getRightLeaf(_split: boolean): WorkspaceLeaf | null {
		return this.createLeaf("right");
	}

	getLeftLeaf(_split: boolean): WorkspaceLeaf | null {
		return null;
	}

	getLeafById(id: string): WorkspaceLeaf | null {
		return this.leaves.find((l) => l.id === id) ?? null;
	}

	getLeavesOfType(viewType: string): WorkspaceLeaf[] {
		return this.leaves.filter((l) => l.view.getViewType() === viewType);
	}

	detachLeavesOfType(viewType: string): void {
		for (const leaf of this.getLeavesOfType(viewType)) leaf.detach();
	}

	iterateAllLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
		for (const leaf of [...this.leaves]) callback(leaf);
	}

	iterateRootLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
		for (const leaf of this.leaves.filter((l) => l.side === "root")) callback(leaf);
	}

	revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
		if (leaf.side === "right") this.rightSplitCollapsed = false;
		return Promise.resolve();
	}

	setActiveLeaf(leaf: WorkspaceLeaf, _params?: { focus?: boolean } | boolean): void {
		if (this.activeLeaf === leaf) return;
		this.activeLeaf = leaf;
		this.trigger("active-leaf-change", leaf);
		if (leaf.view instanceof MarkdownView && leaf.view.file) {
			const changed = this.recentFileLeaf !== leaf;
			this.recentFileLeaf = leaf;
			if (changed) this.trigger("file-open", leaf.view.file);
		}
	}

	/** Internal: a note was loaded into `leaf`. */
	noteFileOpened(leaf: WorkspaceLeaf): void {
		this.activeLeaf = leaf;
		this.recentFileLeaf = leaf;
		this.trigger("active-leaf-change", leaf);
		this.trigger("file-open", this.getActiveFile());
	}

	/** Like Obsidian: the most recent note's file, even while a sidebar view has focus. */
	getActiveFile(): TFile | null {
		const view = this.recentFileLeaf?.view;
		return view instanceof MarkdownView ? view.file : null;
	}

	get activeEditor(): MarkdownView | null {
		const view = this.recentFileLeaf?.view;
		return view instanceof MarkdownView ? view : null;
	}

	getActiveViewOfType<T extends O.View>(type: O.Constructor<T>): T | null {
		const view: unknown = this.activeLeaf?.view;
		return view instanceof type ? view : null;
	}

	getMostRecentLeaf(): WorkspaceLeaf | null {
		return this.recentFileLeaf ?? this.leaves.find((l) => l.side === "root") ?? null;
	}

	/**
	 * Opens a link as Obsidian does for `[[Note]]` or `[text](Note.md)`: by path, by path + ".md",
	 * or by note name anywhere in the vault (the closest to `sourcePath` first).
	 */
	async openLinkText(linktext: string, sourcePath: string, newLeaf?: boolean | O.PaneType): Promise<void> {
		const target = linktext.split("#")[0]?.split("|")[0]?.trim() ?? "";
		const vault = this.app.vault;
		const folder = sourcePath.includes("/") ? sourcePath.slice(0, sourcePath.lastIndexOf("/") + 1) : "";
		const byName = vault
			.getMarkdownFiles()
			.filter((f) => f.basename === target || f.path === target || f.path === `${target}.md`)
			.sort((a, b) => Number(b.path.startsWith(folder)) - Number(a.path.startsWith(folder)));
		const file = vault.getFileByPath(target) ?? vault.getFileByPath(`${target}.md`) ?? byName[0] ?? null;
		// Obsidian creates a missing note on click; the runtime does the same.
		const opened = file ?? (await vault.create(`${target}.md`, ""));
		await this.getLeaf(newLeaf ?? false).openFile(opened);
	}

	/** Internal: closes the leaf's view and removes it. */
	async removeLeaf(leaf: WorkspaceLeaf): Promise<void> {
		const i = this.leaves.indexOf(leaf);
		if (i < 0) return;
		this.leaves.splice(i, 1);
		leaf.containerEl.detach();
		if (this.recentFileLeaf === leaf) this.recentFileLeaf = null;
		if (this.activeLeaf === leaf) {
			this.activeLeaf = null;
			this.trigger("active-leaf-change", null);
		}
		await leaf.view.close();
	}
}
