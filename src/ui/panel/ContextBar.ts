import { debounce } from "obsidian";
import type { App, Component, TAbstractFile, WorkspaceLeaf } from "obsidian";
import { ActiveNote } from "./ActiveNote";
import { AttachedSelection, type Attachment } from "./AttachedSelection";
import { BudgetMeter } from "./BudgetMeter";
import { ContextChip } from "./ContextChip";
import type { NoteFit } from "./EmptyChat";
import type { ContextFit } from "../format";
import type { PromptPreview } from "../ports";
import type { ContextSource, SourceFit } from "../../core/types";
import { inclusionOf } from "./sources/inclusion";

/** Asks the engine what the next prompt would cost with these sources (undefined: no engine yet). */
export type PreviewFn = (sources: ContextSource[]) => PromptPreview | undefined;

/** The sources the person added (notes, folders, tags, `@vault`): they join the preview and the send. */
export interface AddedSources {
	previewSources(): ContextSource[];
	sendSources(query: string): Promise<ContextSource[]>;
	showFits(fits: readonly SourceFit[]): void;
}

/**
 * The row above the input: the active note's chip and the budget meter. It follows the active
 * leaf and the note's edits, and tells the panel what context to send.
 */
export class ContextBar {
	readonly note: ActiveNote;
	private readonly chip: ContextChip;
	private readonly meter: BudgetMeter;
	/** Told when the note, its inclusion or its fit changes (the empty chat shows them). */
	onNoteFit: ((note: NoteFit) => void) | undefined;
	private fit: ContextFit | undefined;
	private readonly attached: AttachedSelection;
	/** The sources added to the chat, set by the panel. */
	added: AddedSources | undefined;
	/** Typing updates the meter after a short pause, never on every key. */
	readonly refreshPreview = debounce(() => this.updatePreview(), 150, true);

	constructor(
		parentEl: HTMLElement,
		private readonly app: App,
		includeByDefault: boolean,
		private readonly preview: PreviewFn,
		/** The prompt budget the meter shows: context size minus the answer's reserve. */
		private readonly promptBudget: () => number,
	) {
		this.note = new ActiveNote(app);
		this.attached = new AttachedSelection(parentEl, () => this.updatePreview());
		const row = parentEl.createDiv({ cls: "discover-chat-context-row" });
		this.chip = new ContextChip(row, includeByDefault, () => {
			this.refreshPreview();
			this.tellNoteFit();
		});
		this.meter = new BudgetMeter(row);
	}

	/** Follows the workspace for as long as `owner` is loaded. */
	register(owner: Component): void {
		owner.registerEvent(this.app.workspace.on("active-leaf-change", (leaf) => this.onLeafChange(leaf)));
		owner.registerEvent(this.app.vault.on("modify", (file) => this.onFileModified(file)));
		owner.registerEvent(this.app.vault.on("delete", (file) => this.onFileGone(file)));
		owner.registerEvent(this.app.vault.on("rename", (file, oldPath) => this.onFileGone(file, oldPath)));
		owner.register(() => this.refreshPreview.cancel());
	}

	/** "Ask about selection": this text goes with the next message, whatever the note toggle says. */
	attachSelection(attachment: Attachment): void {
		this.attached.set(attachment);
		this.updatePreview();
	}

	get attachment(): Attachment | undefined {
		return this.attached.attachment;
	}

	/**
	 * The attached selection was answered about: the next message goes with the note again. Only
	 * `sent`, the one that went out: one attached while the answer streamed waits for its own turn.
	 */
	detachSelection(sent: Attachment | undefined): void {
		if (!sent || this.attached.attachment !== sent) return;
		this.attached.set(undefined);
		this.updatePreview();
	}

	/**
	 * What to send with a message: an attached selection; else the editor's selection when chosen,
	 * else the whole note (nothing when off); then the added sources. `wholeNote` (a command about
	 * the note) sends the note alone.
	 */
	async sourcesFor(wholeNote: boolean, query: string): Promise<ContextSource[]> {
		const attached = this.attached.attachment;
		if (wholeNote) {
			const text = this.chip.includeNote ? await this.note.text() : undefined;
			return text === undefined ? [] : [this.activeSource(text)];
		}
		const sources: ContextSource[] = [];
		if (attached) sources.push(this.selectionSource(attached.text, attached.noteName));
		else if (this.chip.includeNote) {
			const selection = this.chip.useSelection ? this.note.selection() : "";
			const text = selection === "" ? await this.note.text() : undefined;
			if (selection !== "") sources.push(this.selectionSource(selection, this.note.name));
			else if (text !== undefined) sources.push(this.activeSource(text));
		}
		if (this.added) sources.push(...(await this.added.sendSources(query)));
		return sources;
	}

	private activeSource(text: string): ContextSource {
		return { id: this.note.path || (this.note.name ?? "note"), name: this.note.name ?? "Note", text, kind: "active" };
	}

	private selectionSource(text: string, noteName: string | undefined): ContextSource {
		return { id: "selection", name: noteName ? `${noteName} (selection)` : "Selection", text, kind: "selection" };
	}

	/** The sources the preview can count now (texts not read yet are left out until they are). */
	private previewSources(): ContextSource[] {
		const sources: ContextSource[] = [];
		const attached = this.attached.attachment;
		if (attached) sources.push(this.selectionSource(attached.text, attached.noteName));
		else if (this.chip.includeNote) {
			if (this.chip.useSelection) sources.push(this.selectionSource(this.note.selection(), this.note.name));
			else {
				const text = this.note.cachedText();
				if (text !== undefined) sources.push(this.activeSource(text));
			}
		}
		if (this.added) sources.push(...this.added.previewSources());
		return sources;
	}

	/** The chip's fit: the selection's or the note's, whichever is sent in the note's place. */
	private chipFit(fits: readonly SourceFit[]): ContextFit | undefined {
		if (this.attached.attachment || !this.chip.includeNote) return undefined;
		const id = this.chip.useSelection ? "selection" : this.note.path || (this.note.name ?? "note");
		return inclusionOf(fits.find((f) => f.id === id));
	}

	/** The engine reported the prompt it just built (`budget`: its margin-adjusted limit). */
	showPrompt(estimatedTokens: number, budget: number, fits: readonly SourceFit[]): void {
		this.meter.update(estimatedTokens, this.promptBudget(), budget);
		this.fit = this.chipFit(fits);
		this.chip.update({ fit: this.fit });
		this.added?.showFits(fits);
		this.tellNoteFit();
	}

	/** Re-reads the note and selection, then updates the chip and meter. */
	refresh(): void {
		this.chip.update({ noteName: this.note.name, selectionLength: this.note.selection().length, fit: undefined });
		this.fit = undefined;
		this.tellNoteFit();
		this.updatePreview();
		this.note.text().then(
			() => this.updatePreview(),
			() => undefined,
		);
	}

	updatePreview(): void {
		try {
			const preview = this.preview(this.previewSources());
			if (!preview) return;
			this.meter.update(preview.estimatedTokens, this.promptBudget(), preview.budget, preview.margin);
			// The chip speaks for the note; an attached selection is not the note.
			this.fit = this.chipFit(preview.sources);
			this.chip.update({ fit: this.fit });
			this.added?.showFits(preview.sources);
			this.tellNoteFit();
		} catch {
			// A preview is a hint; a broken one must never block typing.
		}
	}

	private tellNoteFit(): void {
		this.onNoteFit?.({ noteName: this.note.name, included: this.chip.includeNote, fit: this.chip.includeNote ? this.fit : undefined });
	}

	private onLeafChange(leaf: WorkspaceLeaf | null): void {
		if (this.note.onLeafChange(leaf)) this.refresh();
		else this.chip.update({ selectionLength: this.note.selection().length });
	}

	private onFileModified(file: TAbstractFile): void {
		this.note.onFileChanged(file.path);
		if (file.path === this.note.path) this.refresh();
	}

	private onFileGone(file: TAbstractFile, oldPath?: string): void {
		this.note.onFileGone(oldPath ?? file.path);
		this.note.onLeafChange(this.app.workspace.getMostRecentLeaf());
		this.refresh();
	}
}
