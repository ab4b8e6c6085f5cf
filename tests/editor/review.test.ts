import fc from "fast-check";
import { ChangeSet, EditorState, Transaction, type TransactionSpec } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { mapHunks, placeHunks, type LiveHunk } from "../../src/editor/anchoring";
import { applyHunks, planEdit } from "../../src/editor/hunks";
import { ACCEPT_EVENT, acceptAll, acceptHunk, endReview, proposeHunks, rejectHunks, reviewField, reviewOf } from "../../src/editor/review";

const ORIGINAL = "# Plan\n\nThe quick brown fox.\nIt jumps over the dog.\n\nA line left alone.\nThe end of it.\n";
const PROPOSAL = "# Plan\n\nThe slow brown fox.\nIt jumps over the dog.\n\nA line left alone.\nThe very end.\n";

/** An editor state with the review of PROPOSAL open, and every transaction applied to it recorded. */
function reviewing(): { state: () => EditorState; dispatch: (spec: TransactionSpec) => Transaction; log: Transaction[] } {
	let state = EditorState.create({ doc: ORIGINAL, extensions: [reviewField] });
	const log: Transaction[] = [];
	const dispatch = (spec: TransactionSpec): Transaction => {
		const tr = state.update(spec);
		log.push(tr);
		state = tr.state;
		return tr;
	};
	dispatch({ effects: proposeHunks.of(placeHunks(planEdit(ORIGINAL, PROPOSAL), 0)) });
	log.length = 0;
	return { state: () => state, dispatch, log };
}

describe("the review in the editor", () => {
	it("leaves the note unchanged until a hunk is accepted", () => {
		const r = reviewing();
		expect(r.state().doc.toString()).toBe(ORIGINAL);
		expect(reviewOf(r.state()).pending.map((h) => h.id)).toEqual(["h1", "h2"]);
	});

	it("accepts one hunk as exactly one transaction, with its own user event (one undo step each)", () => {
		const r = reviewing();
		r.dispatch(acceptHunk(r.state(), "h1") as TransactionSpec);
		expect(r.log).toHaveLength(1);
		expect(r.log[0]?.annotation(Transaction.userEvent)).toBe(ACCEPT_EVENT);
		// The history of @codemirror/commands joins only events with no name or matching /^(input\.type|delete)($|\.)/.
		expect(/^(input\.type|delete)($|\.)/.test(ACCEPT_EVENT)).toBe(false);
		expect(r.state().doc.toString()).toBe(applyHunks(ORIGINAL, planEdit(ORIGINAL, PROPOSAL), ["h1"]));
		r.dispatch(acceptHunk(r.state(), "h2") as TransactionSpec);
		expect(r.log).toHaveLength(2);
		expect(r.state().doc.toString()).toBe(PROPOSAL);
		expect(reviewOf(r.state()).decided).toEqual([
			{ id: "h1", decision: "accepted", stale: false },
			{ id: "h2", decision: "accepted", stale: false },
		]);
		// Undoing the last accept (its inverse changes, as the history applies them) gives back the text before it.
		const inverse = r.log[1]?.changes.invert(r.log[0]?.state.doc ?? r.state().doc);
		expect(inverse?.apply(r.state().doc).toString()).toBe(applyHunks(ORIGINAL, planEdit(ORIGINAL, PROPOSAL), ["h1"]));
	});

	it("rejects without touching the text or the undo history", () => {
		const r = reviewing();
		const tr = r.dispatch(rejectHunks(r.state(), ["h2"]) as TransactionSpec);
		expect(tr.docChanged).toBe(false);
		expect(tr.annotation(Transaction.addToHistory)).toBe(false);
		expect(r.state().doc.toString()).toBe(ORIGINAL);
		expect(reviewOf(r.state()).pending.map((h) => h.id)).toEqual(["h1"]);
		r.dispatch(rejectHunks(r.state()) as TransactionSpec);
		expect(reviewOf(r.state()).pending).toEqual([]);
		expect(r.state().doc.toString()).toBe(ORIGINAL);
	});

	it("re-anchors the hunks when the person types before and between them", () => {
		const r = reviewing();
		r.dispatch({ changes: { from: 2, insert: "Big " } });
		const between = ORIGINAL.indexOf("A line") + 4;
		r.dispatch({ changes: { from: between, insert: "NEW " } });
		const pending = reviewOf(r.state()).pending;
		expect(pending.every((h) => !h.stale)).toBe(true);
		expect(r.state().doc.sliceString(pending[0]?.from ?? 0, pending[0]?.to ?? 0)).toBe("The quick brown fox.\n");
		r.dispatch(acceptHunk(r.state(), "h1") as TransactionSpec);
		r.dispatch(acceptHunk(r.state(), "h2") as TransactionSpec);
		expect(r.state().doc.toString()).toBe("# Big Plan\n\nThe slow brown fox.\nIt jumps over the dog.\n\nNEW A line left alone.\nThe very end.\n");
	});

	it("marks a hunk stale when its text changes under it, and refuses to accept it", () => {
		const r = reviewing();
		const inside = ORIGINAL.indexOf("quick");
		r.dispatch({ changes: { from: inside, to: inside + 5, insert: "QUICK" } });
		const [h1, h2] = reviewOf(r.state()).pending;
		expect(h1?.stale).toBe(true);
		expect(h2?.stale).toBe(false);
		expect(acceptHunk(r.state(), "h1")).toBeUndefined();
		// What the person typed stays.
		expect(r.state().doc.toString()).toContain("The QUICK brown fox.");
	});

	it("accepts all on a note edited meanwhile: the fresh hunks in one transaction, the stale one left for a decision", () => {
		const r = reviewing();
		const inEnd = ORIGINAL.indexOf("end of");
		r.dispatch({ changes: { from: inEnd, to: inEnd + 3, insert: "close" } });
		r.dispatch({ changes: { from: 0, insert: "---\ntags: x\n---\n" } });
		r.log.length = 0;
		r.dispatch(acceptAll(r.state()) as TransactionSpec);
		expect(r.log).toHaveLength(1);
		expect(r.log[0]?.annotation(Transaction.userEvent)).toBe(ACCEPT_EVENT);
		expect(r.state().doc.toString()).toBe("---\ntags: x\n---\n# Plan\n\nThe slow brown fox.\nIt jumps over the dog.\n\nA line left alone.\nThe close of it.\n");
		expect(reviewOf(r.state()).pending.map((h) => [h.id, h.stale])).toEqual([["h2", true]]);
		expect(acceptAll(r.state())).toBeUndefined();
	});
});

describe("re-anchoring, as a property", () => {
	it("after random edits outside the hunks, each hunk still covers its text, and accepting a subset equals accepting it first and then making the edits", () => {
		const lineArb = fc.constantFrom("alpha", "beta", "gamma", "", "delta epsilon", "zeta");
		const textArb = fc.array(lineArb, { minLength: 1, maxLength: 16 }).map((ls) => `${ls.join("\n")}\n`);
		fc.assert(
			fc.property(textArb, textArb, fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.string({ maxLength: 4 })), { maxLength: 6 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (original, proposal, edits, pick) => {
				const hunks = planEdit(original, proposal);
				let live: LiveHunk[] = placeHunks(hunks, 0);
				let doc = EditorState.create({ doc: original }).doc;
				// Edits outside every hunk (not touching one's ends): each one mapped at once, as the editor does.
				let all = ChangeSet.empty(original.length);
				for (const [at, len, insert] of edits) {
					const gaps: [number, number][] = [];
					let start = 0;
					for (const h of live) {
						gaps.push([start, h.from - 1]);
						start = h.to + 1;
					}
					gaps.push([start, doc.length]);
					const open = gaps.filter(([a, b]) => b >= a);
					if (open.length === 0) continue;
					const [a, b] = open[at % open.length] as [number, number];
					const from = a + (at % (b - a + 1));
					const to = Math.min(b, from + len, doc.length);
					const change = ChangeSet.of({ from, to, insert }, doc.length);
					live = mapHunks(live, change);
					doc = change.apply(doc);
					all = all.compose(change);
				}
				for (const h of live) {
					expect(h.stale).toBe(false);
					const before = hunks.find((o) => o.id === h.id);
					expect(doc.sliceString(h.from, h.to)).toBe(original.slice(before?.from ?? 0, before?.to ?? 0));
				}
				const ids = hunks.filter((_, k) => pick[k % pick.length] === true).map((h) => h.id);
				// The same edits made after accepting: the edits mapped over the accepted hunks.
				const accepted = ChangeSet.of(
					hunks.filter((h) => ids.includes(h.id)).map((h) => ({ from: h.from, to: h.to, insert: h.insert })),
					original.length,
				);
				const expected = all.map(accepted).apply(EditorState.create({ doc: applyHunks(original, hunks, ids) }).doc).toString();
				expect(applyHunks(doc.toString(), live, ids)).toBe(expected);
			}),
			{ numRuns: 300 },
		);
	});
});

describe("the review in an editor with nothing to review", () => {
	it("keeps the identical value through typing, selections and undo when no review is pending (nothing allocated per transaction)", () => {
		let state = EditorState.create({ doc: ORIGINAL, extensions: [reviewField] });
		const before = reviewOf(state);
		const specs: TransactionSpec[] = [{ changes: { from: 0, insert: "x" } }, { selection: { anchor: 3 } }, { changes: { from: 0, to: 1 }, userEvent: "undo" }, { changes: { from: 2, insert: "y" }, userEvent: "redo" }, {}];
		for (const spec of specs) {
			state = state.update(spec).state;
			expect(reviewOf(state)).toBe(before);
		}
	});

	it("keeps the identical value when typing does not move what is pending or was accepted", () => {
		const r = reviewing();
		const end = r.state().doc.length;
		const pending = reviewOf(r.state());
		r.dispatch({ changes: { from: end, insert: "After.\n" } });
		expect(reviewOf(r.state())).toBe(pending);
		// The review ended with nothing accepted: typing anywhere keeps the same (empty) value.
		r.dispatch(rejectHunks(r.state()) as TransactionSpec);
		r.dispatch({ effects: endReview.of(null) });
		const ended = reviewOf(r.state());
		r.dispatch({ changes: { from: 0, insert: "Top\n" } });
		expect(reviewOf(r.state())).toBe(ended);
	});
});
