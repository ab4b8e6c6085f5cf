import { debounce } from "obsidian";
import type { App, Component, TAbstractFile, WorkspaceLeaf } from "obsidian";
import { ActiveNote } from "./ActiveNote";
import { AttachedSelection, type Attachment } from "./AttachedSelection";
import { BudgetMeter } from "./BudgetMeter";
import { ContextChip } from "./ContextChip";
import type { NoteFit } from "./EmptyChat";
import type { ContextFit } from "../format";
import type { PromptPreview } from "../ports";

/** Asks the engine what the next prompt would cost with this context (undefined: no engine yet). */
export type PreviewFn = (context: string | undefined) => PromptPreview | undefined;

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
	 * What to send with a message: an attached selection; else the selection when chosen, else the
	 * whole note; nothing when off. `wholeNote` (a command about the note) skips both selections.
	 */
	async contextFor(wholeNote: boolean): Promise<{ context?: string; contextName?: string }> {
		const attached = this.attached.attachment;
		if (attached && !wholeNote) return { context: attached.text, contextName: attached.noteName ? `${attached.noteName} (selection)` : "Selection" };
		if (!this.chip.includeNote) return {};
		const selection = !wholeNote && this.chip.useSelection ? this.note.selection() : "";
		const context = selection || (await this.note.text());
		return context === undefined ? {} : { context, contextName: this.note.name };
	}

	/** The engine reported the prompt it just built (`budget`: its margin-adjusted limit). */
	showPrompt(estimatedTokens: number, budget: number, context: ContextFit): void {
		this.meter.update(estimatedTokens, this.promptBudget(), budget);
		this.chip.update({ fit: context });
		this.fit = context;
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
		let context: string | undefined = this.attached.attachment?.text;
		if (context === undefined && this.chip.includeNote) context = this.chip.useSelection ? this.note.selection() : this.note.cachedText();
		try {
			const preview = this.preview(context);
			if (!preview) return;
			this.meter.update(preview.estimatedTokens, this.promptBudget(), preview.budget, preview.margin);
			// The chip speaks for the note; an attached selection is not the note.
			this.fit = context === undefined || this.attached.attachment ? undefined : preview.context;
			this.chip.update({ fit: this.fit });
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
