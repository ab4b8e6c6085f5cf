// The review of a proposal inside the editor, as CodeMirror state: the hunks waiting for a decision,
// carried through every transaction (re-anchored, stale when their text changed), and the decisions
// taken. The note is unchanged until a hunk is accepted; each decision is one transaction, so one
// undo takes back one decision.
import { EditorState, StateEffect, StateField, Transaction, type TransactionSpec } from "@codemirror/state";
import { mapHunks, type LiveHunk } from "./anchoring";

export type Decision = "accepted" | "rejected";

export interface Review {
	/** The hunks waiting for a decision, in the note's order. */
	pending: readonly LiveHunk[];
	/** What was decided, in the order it was (for the chat saved with the edit). */
	decided: readonly { id: string; decision: Decision; stale: boolean }[];
}

const EMPTY: Review = { pending: [], decided: [] };

/** A new proposal to review (hunks in the note's positions). */
export const proposeHunks = StateEffect.define<readonly LiveHunk[]>();
/** Hunks decided (accepted: the same transaction carries their change). */
export const decideHunks = StateEffect.define<{ ids: readonly string[]; decision: Decision }>();
/** The review is over (closed, or a new one starts). */
export const endReview = StateEffect.define<null>();

/**
 * The user event of an accept. The history of @codemirror/commands joins a transaction into the
 * previous undo step when it has no user event, or an "input.type" / "delete" one, and lands next
 * to the previous change within half a second: an accept names its own event so it never joins
 * the person's typing or another accept.
 */
export const ACCEPT_EVENT = "input.discover.accept";

export const reviewField = StateField.define<Review>({
	create: () => EMPTY,
	update(review, tr) {
		let next = review;
		// Decisions first, on the hunks as they were before this transaction: an accept's own change
		// is the hunk's change, not an edit under it.
		for (const effect of tr.effects) {
			if (!effect.is(decideHunks)) continue;
			const ids = new Set(effect.value.ids);
			const decided = next.pending.filter((h) => ids.has(h.id)).map((h) => ({ id: h.id, decision: effect.value.decision, stale: h.stale }));
			next = { pending: next.pending.filter((h) => !ids.has(h.id)), decided: [...next.decided, ...decided] };
		}
		if (next.pending.length > 0 && !tr.changes.empty) next = { ...next, pending: mapHunks(next.pending, tr.changes) };
		// A new proposal is in the positions of the document after this transaction.
		for (const effect of tr.effects) {
			if (effect.is(endReview)) next = EMPTY;
			else if (effect.is(proposeHunks)) next = { pending: [...effect.value].sort((a, b) => a.from - b.from), decided: [] };
		}
		return next;
	},
});

export function reviewOf(state: EditorState): Review {
	return state.field(reviewField, false) ?? EMPTY;
}

/**
 * Accepting one hunk: its change and its decision in one transaction (one undo step). Undefined
 * when the hunk is not pending or is stale (its text changed under it: it cannot be accepted).
 */
export function acceptHunk(state: EditorState, id: string): TransactionSpec | undefined {
	const hunk = reviewOf(state).pending.find((h) => h.id === id);
	if (!hunk || hunk.stale) return undefined;
	return {
		changes: { from: hunk.from, to: hunk.to, insert: hunk.insert },
		effects: decideHunks.of({ ids: [id], decision: "accepted" }),
		annotations: Transaction.userEvent.of(ACCEPT_EVENT),
	};
}

/**
 * Accepting all: every pending hunk that is not stale, in one transaction (one decision, one undo
 * step). The stale ones stay pending, shown as stale, for the person to reject or redo.
 */
export function acceptAll(state: EditorState): TransactionSpec | undefined {
	const fresh = reviewOf(state).pending.filter((h) => !h.stale);
	if (fresh.length === 0) return undefined;
	return {
		// The hunks are in the original document's positions and never overlap: one ChangeSet.
		changes: fresh.map((h) => ({ from: h.from, to: h.to, insert: h.insert })),
		effects: decideHunks.of({ ids: fresh.map((h) => h.id), decision: "accepted" }),
		annotations: Transaction.userEvent.of(ACCEPT_EVENT),
	};
}

/** Rejecting hunks changes no text (nothing to undo in the note). */
export function rejectHunks(state: EditorState, ids?: readonly string[]): TransactionSpec | undefined {
	const pending = reviewOf(state).pending;
	const chosen = ids ? pending.filter((h) => ids.includes(h.id)) : pending;
	if (chosen.length === 0) return undefined;
	return { effects: decideHunks.of({ ids: chosen.map((h) => h.id), decision: "rejected" }), annotations: Transaction.addToHistory.of(false) };
}
