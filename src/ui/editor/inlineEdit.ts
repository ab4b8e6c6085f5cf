// Edit with Discover in the editor (CodeMirror 6): a prompt at the selection, the proposal streamed
// into a diff beside it, then each hunk reviewed where the text is. Removed words are struck through
// in the note itself, the new version of each hunk shows under it with its added words highlighted,
// and Accept / Reject sit on every hunk (Ctrl/Cmd+Enter accepts all, Escape rejects all, Tab moves
// between hunks). Nothing changes in the note until a hunk is accepted; each decision is one
// transaction (src/editor/review.ts).
import { Prec, type Extension } from "@codemirror/state";
import { debounce, Notice } from "obsidian";
import { EditorView, keymap, ViewPlugin, type ViewUpdate } from "@codemirror/view";
import { mapHunks, placeHunks } from "../../editor/anchoring";
import { linesOf, planEdit, wordsOf } from "../../editor/hunks";
import { acceptAll, endReview, proposeHunks, rejectHunks, reviewField, reviewOf, type Review } from "../../editor/review";
import { editDecorations } from "./editDecorations";
import { editUiField, setPhase, streamHunks, type EditUi, type Phase } from "./editUi";
import { EDIT_TEXT } from "./editText";

export { editUiField } from "./editUi";

export interface EditRequest {
	/** The editor the edit is in (the wiring finds its note through it). */
	view: EditorView;
	/** The whole note when the prompt opened; `from`/`to` are the selection in it. */
	note: string;
	instruction: string;
	/** The selected text ("" at a cursor). */
	selection: string;
	from: number;
	to: number;
	signal: AbortSignal;
	/** The proposal so far, each time more of it arrives: read only when drawn (reading it parses the whole answer). */
	onText: (soFar: () => string) => void;
}

export type EditOutcome = { proposal: string } | { tooLarge: { instructionTokens: number; selectionTokens: number; neededTokens: number; budgetTokens: number } };

export interface InlineEditPorts {
	/** Streams the model's rewrite of the selection (the budget checked first: too large says so). */
	propose(request: EditRequest): Promise<EditOutcome>;
	/** Recent instructions, newest first (Up recalls them). */
	recent(): readonly string[];
	remember(instruction: string): void;
	/** The review ended: what was proposed and decided (saved as a chat by the caller). */
	finished?(record: { view: EditorView; instruction: string; original: string; proposal: string; decided: Review["decided"] }): void;
}

/** The streamed diff in the note is redrawn at most this often (each redraw plans the lines so far). */
const STREAM_DRAW_MS = 60;

/** The prompt's elements: built in an editor when its prompt first opens (most editors never open one). */
interface PromptDom {
	el: HTMLElement;
	input: HTMLInputElement;
	message: HTMLElement;
	sendButton: HTMLButtonElement;
	stopButton: HTMLButtonElement;
	/** Accept all and Reject all: the keys' buttons, for touch and for anyone who prefers them. */
	reviewButtons: HTMLElement;
}

/** The per-view controller: the prompt's elements, the request in flight, the recall of instructions. */
class InlineEditView {
	private dom: PromptDom | undefined;
	private abort: AbortController | undefined;
	/** The proposal so far, unread (the latest the engine handed over). */
	private streamed: (() => string) | undefined;
	/** The streamed diff's redraw, at most once every STREAM_DRAW_MS (the first of a stream at once). */
	private readonly drawLater = debounce(() => this.drawStream(), STREAM_DRAW_MS, false);
	private recall = -1;
	private instruction = "";
	private original = "";
	private note = "";
	private proposal = "";

	constructor(
		private readonly view: EditorView,
		private readonly ports: InlineEditPorts,
	) {
		controllers.set(view, this);
		liveViews.add(view);
	}

	/** The prompt's elements, built on first use. */
	private get prompt(): PromptDom {
		return (this.dom ??= this.buildPrompt());
	}

	private buildPrompt(): PromptDom {
		const el = createDiv({ cls: "discover-edit-prompt" });
		const row = el.createDiv({ cls: "discover-edit-prompt-row" });
		const input = row.createEl("input", { cls: "discover-edit-input", attr: { type: "text", enterkeyhint: "send" } });
		const sendButton = row.createEl("button", { cls: ["discover-edit-button", "mod-cta"], text: EDIT_TEXT.send(), attr: { type: "button" } });
		const stopButton = row.createEl("button", { cls: ["discover-edit-button", "discover-edit-stop"], text: EDIT_TEXT.stop(), attr: { type: "button" } });
		const reviewButtons = row.createDiv({ cls: "discover-edit-review-buttons" });
		const acceptAllButton = reviewButtons.createEl("button", { cls: ["discover-edit-button", "mod-cta"], text: EDIT_TEXT.acceptAll(), attr: { type: "button" } });
		const rejectAllButton = reviewButtons.createEl("button", { cls: "discover-edit-button", text: EDIT_TEXT.rejectAll(), attr: { type: "button" } });
		acceptAllButton.addEventListener("click", () => this.acceptAll());
		rejectAllButton.addEventListener("click", () => this.close());
		const close = row.createEl("button", { cls: "discover-edit-button", text: EDIT_TEXT.close(), attr: { type: "button" } });
		const message = el.createDiv({ cls: "discover-edit-message", attr: { role: "status", "aria-live": "polite" } });
		input.addEventListener("keydown", (e) => this.onKey(e));
		sendButton.addEventListener("click", () => void this.send());
		stopButton.addEventListener("click", () => this.stop());
		close.addEventListener("click", () => this.close());
		this.view.dom.addEventListener("keydown", this.hunkKeys);
		return { el, input, message, sendButton, stopButton, reviewButtons };
	}

	get ui(): EditUi {
		return this.view.state.field(editUiField);
	}

	open(): void {
		// An edit already shown (its proposal being written, or its changes waiting for a decision)
		// is never dropped for a new one: the person is told to finish it, and taken to it.
		if (this.ui.phase === "streaming" || reviewOf(this.view.state).pending.length > 0) {
			new Notice(EDIT_TEXT.busy());
			if (!this.focusHunk(1, true)) this.view.dispatch({ effects: EditorView.scrollIntoView(this.ui.at, { y: "center" }) });
			return;
		}
		const { from, to } = this.view.state.selection.main;
		this.stop();
		const prompt = this.prompt;
		this.view.dispatch({ effects: [endReview.of(null), setPhase.of({ phase: "prompt", from, to, promptEl: prompt.el })] });
		this.original = this.view.state.sliceDoc(from, to);
		this.note = this.view.state.doc.toString();
		prompt.input.value = "";
		prompt.input.placeholder = EDIT_TEXT.placeholder(from === to);
		this.recall = -1;
		prompt.message.setText("");
		this.render();
		prompt.input.focus();
	}

	close(): void {
		this.stop();
		const review = reviewOf(this.view.state);
		if (review.pending.length > 0) this.view.dispatch(rejectHunks(this.view.state) ?? {});
		if (this.ui.phase !== "closed") this.view.dispatch({ effects: [setPhase.of({ phase: "closed" }), endReview.of(null)] });
		this.view.focus();
	}

	stop(): void {
		this.abort?.abort();
		this.abort = undefined;
	}

	async send(): Promise<void> {
		const { input, message } = this.prompt;
		const instruction = input.value.trim();
		if (instruction === "" || this.ui.phase !== "prompt") return;
		this.instruction = instruction;
		this.ports.remember(instruction);
		const abort = new AbortController();
		this.abort = abort;
		this.streamed = undefined;
		this.view.dispatch({ effects: setPhase.of({ phase: "streaming" }) });
		message.setText(EDIT_TEXT.streaming());
		const { from, to } = this.ui.origin;
		try {
			const outcome = await this.ports.propose({ view: this.view, note: this.note, instruction, selection: this.original, from, to, signal: abort.signal, onText: (soFar) => this.showStream(soFar) });
			if (abort.signal.aborted) return;
			if ("tooLarge" in outcome) {
				this.view.dispatch({ effects: setPhase.of({ phase: "prompt" }) });
				message.setText(EDIT_TEXT.tooLarge(outcome.tooLarge));
				return;
			}
			this.review(outcome.proposal);
		} catch (err) {
			message.setText(abort.signal.aborted ? "" : EDIT_TEXT.failed(err instanceof Error ? err.message : String(err)));
			if ((this.ui.phase as Phase) === "streaming") this.view.dispatch({ effects: setPhase.of({ phase: "prompt" }) });
		} finally {
			if (this.abort === abort) this.abort = undefined;
			this.drawLater.cancel();
			this.streamed = undefined;
			this.render();
		}
	}

	/**
	 * While it streams: the proposal so far, in the note, against as much of the selection (its
	 * lines so far, and as many words of the line being written), word by word. A token only keeps
	 * the latest proposal; it is read and drawn at most every STREAM_DRAW_MS (the first at once).
	 */
	private showStream(soFar: () => string): void {
		const first = this.streamed === undefined;
		this.streamed = soFar;
		if (first) this.drawStream();
		else this.drawLater();
	}

	private drawStream(): void {
		const ui = this.ui;
		if (ui.phase !== "streaming" || this.streamed === undefined) return;
		const soFar = this.streamed();
		const done = soFar.lastIndexOf("\n") + 1;
		const lines = linesOf(this.original);
		const whole = linesOf(soFar.slice(0, done)).length;
		const writing = wordsOf(soFar.slice(done)).length;
		const prefix = lines.slice(0, whole).join("") + (writing > 0 ? wordsOf(lines[whole] ?? "").slice(0, writing).join("") : "");
		const hunks = mapHunks(placeHunks(planEdit(prefix, soFar), ui.origin.from), ui.since);
		this.view.dispatch({ effects: streamHunks.of(hunks) });
	}

	private review(proposal: string): void {
		this.proposal = proposal;
		const ui = this.ui;
		const hunks = mapHunks(placeHunks(planEdit(this.original, proposal), ui.origin.from), ui.since);
		if (hunks.length === 0) {
			this.view.dispatch({ effects: setPhase.of({ phase: "prompt" }) });
			this.prompt.message.setText(EDIT_TEXT.noChange());
			return;
		}
		this.prompt.message.setText(EDIT_TEXT.keys());
		this.view.dispatch({ effects: [proposeHunks.of(hunks), setPhase.of({ phase: "review" })] });
		this.focusHunk(1);
	}

	acceptAll(): boolean {
		const spec = acceptAll(this.view.state);
		if (spec) this.view.dispatch(spec);
		return true;
	}

	/** Moves the cursor to the next (1) or previous (-1) pending hunk, around the end. */
	focusHunk(step: 1 | -1, focusButton = false): boolean {
		const pending = reviewOf(this.view.state).pending;
		if (pending.length === 0) return false;
		const head = this.view.state.selection.main.head;
		const next = step === 1 ? (pending.find((h) => h.from > head) ?? pending[0]) : ([...pending].reverse().find((h) => h.from < head) ?? pending[pending.length - 1]);
		if (next) {
			this.view.dispatch({ selection: { anchor: next.from }, effects: EditorView.scrollIntoView(next.from, { y: "center" }) });
			// By keyboard alone: the hunk's Accept takes the focus (Enter or Space decides, Tab goes on to Reject).
			if (focusButton) this.view.dom.querySelector<HTMLButtonElement>(`.discover-edit-hunk[data-hunk="${next.id}"] button:not([disabled])`)?.focus();
		}
		return true;
	}

	/** onHunkKey as the editor's listener (added with the prompt, removed when the editor closes). */
	private readonly hunkKeys = (e: KeyboardEvent): void => this.onHunkKey(e);

	/** Keys on a hunk's buttons (the editor ignores events inside its widgets): Escape rejects all, Mod+Enter accepts all. */
	private onHunkKey(e: KeyboardEvent): void {
		if (!(e.target instanceof HTMLElement) || e.target.closest(".discover-edit-hunk") === null || reviewOf(this.view.state).pending.length === 0) return;
		if (e.key === "Escape") {
			e.preventDefault();
			this.close();
		} else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
			e.preventDefault();
			this.acceptAll();
			this.view.focus();
		}
	}

	private onKey(e: KeyboardEvent): void {
		if (e.isComposing) return;
		if (e.key === "Enter" && !e.shiftKey) {
			e.preventDefault();
			void this.send();
		} else if (e.key === "Escape") {
			e.preventDefault();
			if (this.ui.phase === "streaming") this.stop();
			else this.close();
		} else if ((e.key === "ArrowUp" || e.key === "ArrowDown") && this.ui.phase === "prompt") {
			const recent = this.ports.recent();
			const next = e.key === "ArrowUp" ? Math.min(recent.length - 1, this.recall + 1) : this.recall - 1;
			if (recent.length === 0 || next === this.recall) return;
			e.preventDefault();
			this.recall = Math.max(-1, next);
			this.prompt.input.value = this.recall < 0 ? "" : (recent[this.recall] ?? "");
		}
	}

	destroy(): void {
		this.stop();
		this.drawLater.cancel();
		// The editor closes with changes still to decide: what was decided is saved, the rest as not decided.
		const review = reviewOf(this.view.state);
		if (this.ui.phase === "review" && review.pending.length > 0) this.ports.finished?.({ view: this.view, instruction: this.instruction, original: this.original, proposal: this.proposal, decided: review.decided });
		this.view.dom.removeEventListener("keydown", this.hunkKeys);
		liveViews.delete(this.view);
	}

	update(u: ViewUpdate): void {
		const before = u.startState.field(editUiField);
		if (before.phase === "review" && this.ui.phase === "closed") {
			this.ports.finished?.({ view: this.view, instruction: this.instruction, original: this.original, proposal: this.proposal, decided: reviewOf(u.startState).decided.concat(this.lastDecided(u)) });
		}
		if (before.phase !== this.ui.phase) this.render();
	}

	/** The decisions of the transactions that ended the review. */
	private lastDecided(u: ViewUpdate): Review["decided"] {
		const had = new Set(reviewOf(u.startState).decided.map((d) => d.id));
		return reviewOf(u.state).decided.filter((d) => !had.has(d.id));
	}

	private render(): void {
		const dom = this.dom;
		if (dom === undefined) return;
		const phase = this.ui.phase;
		dom.el.toggleClass("is-streaming", phase === "streaming");
		dom.el.setAttr("aria-label", phase === "review" ? EDIT_TEXT.review() : dom.input.placeholder);
		dom.reviewButtons.toggleClass("discover-edit-hidden", phase !== "review");
		dom.input.toggleClass("discover-edit-hidden", phase === "review");
		dom.input.disabled = phase !== "prompt";
		dom.sendButton.toggleClass("discover-edit-hidden", phase !== "prompt");
		dom.stopButton.toggleClass("discover-edit-hidden", phase !== "streaming");
	}
}

const controllers = new WeakMap<EditorView, InlineEditView>();
/** The editors with the extension, to find the one a command's editor is (Obsidian hands commands its Editor, not the view). */
const liveViews = new Set<EditorView>();

export function inlineEditViews(): readonly EditorView[] {
	return [...liveViews].filter((v) => v.dom.isConnected);
}

/** Opens the prompt at the view's selection; false when the view has no inline edit extension. */
export function openInlineEdit(view: EditorView): boolean {
	const ctrl = controllers.get(view);
	if (!ctrl) return false;
	ctrl.open();
	return true;
}

/** The editor extension: register once with `registerEditorExtension`; open with `openInlineEdit(view)`. */
export function inlineEditExtension(ports: InlineEditPorts): Extension {
	const plugin = ViewPlugin.define((view) => new InlineEditView(view, ports));
	const whenReviewing =
		(run: (ctrl: InlineEditView) => boolean) =>
		(view: EditorView): boolean => {
			const ctrl = view.plugin(plugin);
			return ctrl !== null && reviewOf(view.state).pending.length > 0 && run(ctrl);
		};
	return [
		reviewField,
		editUiField,
		editDecorations,
		plugin,
		Prec.highest(
			keymap.of([
				{ key: "Mod-Enter", run: whenReviewing((c) => c.acceptAll()) },
				{
					key: "Escape",
					run: whenReviewing((c) => {
						c.close();
						return true;
					}),
				},
				{ key: "Tab", run: whenReviewing((c) => c.focusHunk(1, true)) },
				{ key: "Shift-Tab", run: whenReviewing((c) => c.focusHunk(-1, true)) },
			]),
		),
	];
}
