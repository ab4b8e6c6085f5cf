// The state of the inline edit's prompt in the editor: which phase it is in (prompt, streaming,
// review), where the selection was when it opened, and the document's changes since, through which
// the proposal's hunks are mapped when it arrives.
import { ChangeSet, StateEffect, StateField } from "@codemirror/state";
import { mapHunks, type LiveHunk } from "../../editor/anchoring";
import { reviewOf } from "../../editor/review";

export type Phase = "closed" | "prompt" | "streaming" | "review";

export interface EditUi {
	phase: Phase;
	/** The selection when the prompt opened, in the document of that moment. */
	origin: { from: number; to: number };
	/** The document's changes since then (the proposal's hunks are mapped through them). */
	since: ChangeSet;
	/** Where the prompt shows now. */
	at: number;
	/** The prompt's element (the view's controller owns it). */
	promptEl?: HTMLElement;
	/** While the proposal streams: its hunks so far, drawn in the note without buttons. */
	streamed: readonly LiveHunk[];
}

export const CLOSED: EditUi = { phase: "closed", origin: { from: 0, to: 0 }, since: ChangeSet.empty(0), at: 0, streamed: [] };

export const setPhase = StateEffect.define<{ phase: Phase; from?: number; to?: number; promptEl?: HTMLElement }>();
/** The streamed proposal's hunks so far, in the positions of the document after the transaction. */
export const streamHunks = StateEffect.define<readonly LiveHunk[]>();

export const editUiField = StateField.define<EditUi>({
	create: () => CLOSED,
	update(ui, tr) {
		let next = ui;
		if (next.phase !== "closed" && !tr.changes.empty) next = { ...next, since: next.since.compose(tr.changes), at: tr.changes.mapPos(next.at, -1), streamed: mapHunks(next.streamed, tr.changes) };
		for (const e of tr.effects) {
			if (!e.is(setPhase)) continue;
			if (e.value.phase === "prompt" && e.value.from !== undefined) {
				const from = e.value.from;
				next = { phase: "prompt", origin: { from, to: e.value.to ?? from }, since: ChangeSet.empty(tr.state.doc.length), at: tr.state.doc.lineAt(from).from, promptEl: e.value.promptEl, streamed: [] };
			} else next = e.value.phase === "closed" ? { ...CLOSED, promptEl: next.promptEl } : { ...next, phase: e.value.phase, streamed: [] };
		}
		for (const e of tr.effects) if (e.is(streamHunks) && next.phase === "streaming") next = { ...next, streamed: e.value };
		const pending = reviewOf(tr.state).pending;
		// The review ends with its last decision; an undo of an accept brings its hunk back, and the review with it.
		if (next.phase === "review" && pending.length === 0) next = { ...CLOSED, promptEl: next.promptEl };
		else if (next.phase === "closed" && pending.length > 0 && next.promptEl !== undefined) next = { ...next, phase: "review", since: ChangeSet.empty(tr.state.doc.length), at: tr.state.doc.lineAt(pending[0]?.from ?? 0).from };
		return next;
	},
});

