// What the inline edit draws in the note: the prompt as a block widget at the selection, each hunk's
// removed words struck through where they are, and under each hunk its new version with the added
// words highlighted and its Accept and Reject buttons. Block widgets must come from state, not from
// a view plugin: the decorations are a field that follows the prompt's and the review's fields.
import { StateField, type EditorState, type Range } from "@codemirror/state";
import { Decoration, EditorView, WidgetType, type DecorationSet } from "@codemirror/view";
import type { LiveHunk } from "../../editor/anchoring";
import { hunkWords } from "../../editor/hunks";
import { acceptHunk, rejectHunks, reviewField, reviewOf } from "../../editor/review";
import { editUiField } from "./editUi";
import { EDIT_TEXT } from "./editText";

class ElementWidget extends WidgetType {
	constructor(
		private readonly el: HTMLElement,
		private readonly key: string,
	) {
		super();
	}
	override eq(other: ElementWidget): boolean {
		return other.key === this.key && other.el === this.el;
	}
	override toDOM(): HTMLElement {
		return this.el;
	}
	override ignoreEvent(): boolean {
		return true;
	}
}

/** One hunk's new version under it: its words, the added ones highlighted, and its two buttons. */
class HunkWidget extends WidgetType {
	constructor(
		readonly hunk: LiveHunk,
		readonly removed: string,
		private readonly n: number,
		private readonly total: number,
		/** Still streaming: shown without buttons (nothing to decide yet). */
		private readonly streaming = false,
	) {
		super();
	}
	override eq(other: HunkWidget): boolean {
		return other.hunk.id === this.hunk.id && other.hunk.stale === this.hunk.stale && other.hunk.insert === this.hunk.insert && other.removed === this.removed && other.n === this.n && other.total === this.total && other.streaming === this.streaming;
	}
	override toDOM(view: EditorView): HTMLElement {
		const cls = ["discover-edit-hunk", this.hunk.stale ? "is-stale" : "", this.streaming ? "is-streaming" : ""].filter((c) => c !== "");
		const el = createDiv({ cls, attr: { role: "group", "aria-label": EDIT_TEXT.hunk(this.n, this.total), "data-hunk": this.hunk.id } });
		const text = el.createDiv({ cls: "discover-edit-hunk-text" });
		for (const part of hunkWords(this.removed, this.hunk.insert)) {
			if (part.kind === " ") text.appendText(part.text);
			else if (part.kind === "+") text.createEl("ins", { cls: "discover-edit-added", text: part.text });
		}
		if (this.hunk.insert === "") text.createSpan({ cls: "discover-edit-deleted-note", text: "∅" });
		if (this.streaming) return el;
		const bar = el.createDiv({ cls: "discover-edit-hunk-bar" });
		if (this.hunk.stale) bar.createSpan({ cls: "discover-edit-stale", text: EDIT_TEXT.stale() });
		const accept = bar.createEl("button", { cls: ["discover-edit-button", "mod-cta"], text: EDIT_TEXT.accept(), attr: { type: "button" } });
		accept.disabled = this.hunk.stale;
		const reject = bar.createEl("button", { cls: "discover-edit-button", text: EDIT_TEXT.reject(), attr: { type: "button" } });
		accept.addEventListener("click", () => decide(view, this.hunk.id, true));
		reject.addEventListener("click", () => decide(view, this.hunk.id, false));
		return el;
	}
	override ignoreEvent(): boolean {
		return true;
	}
}

function decide(view: EditorView, id: string, accept: boolean): void {
	const spec = accept ? acceptHunk(view.state, id) : rejectHunks(view.state, [id]);
	if (spec) view.dispatch(spec);
}

/** The removed words of a hunk, struck through in the note (their places found from the word diff). */
function removedMarks(state: EditorState, h: LiveHunk, out: Range<Decoration>[]): string {
	const removed = state.doc.sliceString(h.from, h.to);
	let at = h.from;
	for (const part of hunkWords(removed, h.insert)) {
		if (part.kind === "+") continue;
		if (part.kind === "-" && part.text.length > 0) out.push(Decoration.mark({ class: "discover-edit-removed" }).range(at, at + part.text.length));
		at += part.text.length;
	}
	return removed;
}

function decorationsOf(state: EditorState): DecorationSet {
	const ui = state.field(editUiField);
	const ranges: Range<Decoration>[] = [];
	if (ui.phase !== "closed" && ui.promptEl) ranges.push(Decoration.widget({ widget: new ElementWidget(ui.promptEl, "prompt"), block: true, side: -1 }).range(ui.at));
	const streaming = ui.phase === "streaming";
	const hunks = streaming ? ui.streamed : reviewOf(state).pending;
	hunks.forEach((h, k) => {
		const removed = removedMarks(state, h, ranges);
		// Under the hunk's last line: before the next line when the hunk ends at a line's start.
		const line = state.doc.lineAt(h.to);
		const atStart = h.to === line.from && h.to > h.from;
		ranges.push(Decoration.widget({ widget: new HunkWidget(h, removed, k + 1, hunks.length, streaming), block: true, side: atStart ? -1 : 1 }).range(atStart ? line.from : line.to));
	});
	return Decoration.set(ranges, true);
}

/** The decorations, redrawn when the note, the prompt or the review changes. */
export const editDecorations = StateField.define<DecorationSet>({
	create: (state) => decorationsOf(state),
	update(decos, tr) {
		if (!tr.docChanged && tr.effects.length === 0 && tr.startState.field(reviewField) === tr.state.field(reviewField)) return decos;
		// Typing in an editor with no prompt open and nothing to review: nothing drawn, nothing to draw.
		if (decos.size === 0 && tr.state.field(editUiField).phase === "closed" && reviewOf(tr.state).pending.length === 0) return decos;
		return decorationsOf(tr.state);
	},
	provide: (f) => EditorView.decorations.from(f),
});

