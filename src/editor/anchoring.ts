// Hunks follow the person's typing. While a proposal waits for review the note may change: each
// hunk's range is mapped through the editor's changes (CodeMirror's ChangeDesc), and a hunk whose own
// text was changed under it is stale: accepting it would overwrite what the person just wrote.
import type { ChangeDesc } from "@codemirror/state";
import type { Hunk } from "./hunks";

export interface LiveHunk extends Hunk {
	/** The text under it changed after the proposal was made: shown, but cannot be accepted. */
	stale: boolean;
}

/**
 * Whether `changes` alter the text of `[from, to)`: a deletion or replacement of any of its
 * characters, or an insertion strictly inside it. A change that only touches its ends leaves its
 * text whole; for an insertion hunk (`from === to`), only a deletion across its point does.
 */
export function touchesHunk(changes: ChangeDesc, from: number, to: number): boolean {
	let touched = false;
	changes.iterChangedRanges((fromA, toA) => {
		if (fromA < to && toA > from) touched = true;
	});
	return touched;
}

/** The hunks where they are after `changes`; the ones whose text the changes altered are marked stale. */
export function mapHunks(hunks: readonly LiveHunk[], changes: ChangeDesc): LiveHunk[] {
	if (changes.empty) return [...hunks];
	return hunks.map((h) => {
		const stale = h.stale || touchesHunk(changes, h.from, h.to);
		// The ends stay on their own text: typing just before a hunk stays before it, just after stays
		// after it. An insertion keeps before text typed at its point (a new line inserted at a line's
		// start then stays a line of its own).
		const from = changes.mapPos(h.from, h.from === h.to ? -1 : 1);
		const to = h.from === h.to ? from : Math.max(from, changes.mapPos(h.to, -1));
		return { ...h, from, to, stale };
	});
}

/** Hunks planned on a stretch of the note (the selection) placed at `offset` in the note. */
export function placeHunks(hunks: readonly Hunk[], offset: number): LiveHunk[] {
	return hunks.map((h) => ({ ...h, from: h.from + offset, to: h.to + offset, stale: false }));
}
