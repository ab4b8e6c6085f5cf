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
	/**
	 * The accepted hunks where their new text is now, with the text they replaced: an undo that puts
	 * that text back brings the hunk back into review (kept after the review ends, until a new one).
	 */
	accepted: readonly AcceptedHunk[];
}

interface AcceptedHunk {
	id: string;
	/** Where the accepted text (`insert`) is in the note now. */
	from: number;
	to: number;
	insert: string;
	/** The text the accept replaced: what an undo puts back. */
	removed: string;
}

const EMPTY: Review = { pending: [], decided: [], accepted: [] };

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
		// Every transaction of every editor passes here: with nothing pending or accepted and no
		// effect of the review's own, the value stays the very same (nothing is allocated).
		if (review.pending.length === 0 && review.accepted.length === 0 && !tr.effects.some((e) => e.is(proposeHunks) || e.is(decideHunks) || (e.is(endReview) && review.decided.length > 0))) return review;
		// An undo of an accept, or a redo of it (its changes are the accept's own, mapped there).
		let next: Review | undefined = !tr.changes.empty && (tr.isUserEvent("undo") || tr.isUserEvent("redo")) ? followHistory(review, tr) : undefined;
		if (next === undefined) {
			next = review;
			// Decisions first, on the hunks as they were before this transaction: an accept's own change
			// is the hunk's change, not an edit under it.
			const nowAccepted: AcceptedHunk[] = [];
			for (const effect of tr.effects) {
				if (!effect.is(decideHunks)) continue;
				const ids = new Set(effect.value.ids);
				const chosen: LiveHunk[] = next.pending.filter((h) => ids.has(h.id));
				const decided = chosen.map((h) => ({ id: h.id, decision: effect.value.decision, stale: h.stale }));
				if (effect.value.decision === "accepted") nowAccepted.push(...chosen.map((h) => acceptedAt(h, tr)));
				next = { ...next, pending: next.pending.filter((h) => !ids.has(h.id)), decided: [...next.decided, ...decided] };
			}
			if (!tr.changes.empty) {
				const pending = next.pending.length > 0 ? mapHunks(next.pending, tr.changes) : next.pending;
				const accepted = mapAccepted(next.accepted, tr);
				if (!samePlaces(pending, next.pending) || accepted !== next.accepted) next = { ...next, pending: samePlaces(pending, next.pending) ? next.pending : pending, accepted };
			}
			if (nowAccepted.length > 0) next = { ...next, accepted: [...next.accepted, ...nowAccepted] };
		}
		// A new proposal is in the positions of the document after this transaction.
		for (const effect of tr.effects) {
			if (effect.is(endReview)) next = { ...EMPTY, accepted: next.accepted };
			else if (effect.is(proposeHunks)) next = { pending: [...effect.value].sort((a, b) => a.from - b.from), decided: [], accepted: [] };
		}
		return next;
	},
});

/** An accepted hunk where its text is after the accept's transaction. */
function acceptedAt(h: LiveHunk, tr: Transaction): AcceptedHunk {
	const from = tr.changes.mapPos(h.from, -1);
	return { id: h.id, from, to: from + h.insert.length, insert: h.insert, removed: tr.startState.doc.sliceString(h.from, h.to) };
}

/** Whether `mapped` is `before` unmoved and nothing newly stale (then `before` is kept as it is). */
function samePlaces(mapped: readonly LiveHunk[], before: readonly LiveHunk[]): boolean {
	return mapped === before || mapped.every((h, k) => h.from === before[k]?.from && h.to === before[k]?.to && h.stale === before[k]?.stale);
}

/** The accepted texts through a change not of this review (typing elsewhere, or inside them); the same array when none moved. */
function mapAccepted(accepted: readonly AcceptedHunk[], tr: Transaction): readonly AcceptedHunk[] {
	if (tr.changes.empty || accepted.length === 0) return accepted;
	let moved = false;
	const mapped = accepted.map((a) => {
		const from = tr.changes.mapPos(a.from, a.from === a.to ? -1 : 1);
		const to = a.from === a.to ? from : Math.max(from, tr.changes.mapPos(a.to, -1));
		if (from === a.from && to === a.to) return a;
		moved = true;
		return { ...a, from, to };
	});
	return moved ? mapped : accepted;
}

/**
 * An undo that puts back exactly what an accept replaced brings that hunk back into review; a redo
 * that writes a pending hunk's new text exactly over it accepts it again. Other changes of the
 * transaction are mapped as any edit.
 */
function followHistory(review: Review, tr: Transaction): Review | undefined {
	const restored: LiveHunk[] = [];
	const reaccepted: AcceptedHunk[] = [];
	const undo = tr.isUserEvent("undo");
	tr.changes.iterChanges((fromA, toA, fromB, toB, inserted) => {
		const text = inserted.toString();
		if (undo) {
			const a = review.accepted.find((x) => x.from === fromA && x.to === toA && x.removed === text && !restored.some((r) => r.id === x.id));
			if (a) restored.push({ id: a.id, from: fromB, to: toB, insert: a.insert, stale: false });
		} else {
			const h = review.pending.find((x) => !x.stale && x.from === fromA && x.to === toA && x.insert === text && !reaccepted.some((r) => r.id === x.id));
			if (h) reaccepted.push({ id: h.id, from: fromB, to: toB, insert: h.insert, removed: tr.startState.doc.sliceString(fromA, toA) });
		}
	});
	if (restored.length === 0 && reaccepted.length === 0) return undefined;
	const back = new Set(restored.map((r) => r.id));
	const again = new Set(reaccepted.map((r) => r.id));
	const pending = mapHunks(
		review.pending.filter((h) => !again.has(h.id)),
		tr.changes,
	);
	const accepted = mapAccepted(
		review.accepted.filter((a) => !back.has(a.id)),
		tr,
	);
	return {
		pending: [...pending, ...restored].sort((a, b) => a.from - b.from),
		decided: [...review.decided.filter((d) => !back.has(d.id)), ...reaccepted.map((r) => ({ id: r.id, decision: "accepted" as const, stale: false }))],
		accepted: [...accepted, ...reaccepted],
	};
}

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
