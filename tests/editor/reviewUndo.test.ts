// Ctrl/Cmd+Z after an accept brings that hunk back into review. The history of @codemirror/commands
// (the one Obsidian's editor runs) undoes an accept by dispatching its inverted changes with the
// user event "undo", and redoes it with the changes again and "redo": those transactions are made here
// exactly so (the package itself is not among the plugin's dependencies).
import fc from "fast-check";
import { EditorState, type Transaction, type TransactionSpec } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { placeHunks } from "../../src/editor/anchoring";
import { applyHunks, planEdit } from "../../src/editor/hunks";
import { acceptAll, acceptHunk, endReview, proposeHunks, rejectHunks, reviewField, reviewOf } from "../../src/editor/review";

const ORIGINAL = "# Plan\n\nThe quick brown fox.\nIt jumps over the dog.\n\nA line left alone.\nThe end of it.\n";
const PROPOSAL = "# Plan\n\nThe slow brown fox.\nIt jumps over the dog.\n\nA line left alone.\nThe very end.\n";

function editor(original = ORIGINAL, proposal = PROPOSAL) {
	let state = EditorState.create({ doc: original, extensions: [reviewField] });
	const done: Transaction[] = [];
	const undone: Transaction[] = [];
	const dispatch = (spec: TransactionSpec): Transaction => {
		const tr = state.update(spec);
		state = tr.state;
		return tr;
	};
	dispatch({ effects: proposeHunks.of(placeHunks(planEdit(original, proposal), 0)) });
	return {
		state: () => state,
		dispatch,
		/** A change that goes into the history (an accept, or the person's typing). */
		record(spec: TransactionSpec | undefined): void {
			if (!spec) throw new Error("nothing to dispatch");
			done.push(dispatch(spec));
			undone.length = 0;
		},
		undo(): void {
			const tr = done.pop();
			if (!tr) throw new Error("nothing to undo");
			undone.push(dispatch({ changes: tr.changes.invert(tr.startState.doc), userEvent: "undo" }));
		},
		redo(): void {
			const tr = undone.pop();
			if (!tr) throw new Error("nothing to redo");
			done.push(dispatch({ changes: tr.changes.invert(tr.startState.doc), userEvent: "redo" }));
		},
	};
}

describe("undo after an accept", () => {
	it("brings the hunk back into review, where it was, and redo accepts it again", () => {
		const e = editor();
		e.record(acceptHunk(e.state(), "h1"));
		expect(reviewOf(e.state()).pending.map((h) => h.id)).toEqual(["h2"]);
		e.undo();
		expect(e.state().doc.toString()).toBe(ORIGINAL);
		const pending = reviewOf(e.state()).pending;
		expect(pending.map((h) => [h.id, h.stale])).toEqual([
			["h1", false],
			["h2", false],
		]);
		expect(e.state().doc.sliceString(pending[0]!.from, pending[0]!.to)).toBe("The quick brown fox.\n");
		expect(reviewOf(e.state()).decided.map((d) => d.id)).toEqual([]);
		// It can be accepted again from the review.
		e.redo();
		expect(e.state().doc.toString()).toBe(applyHunks(ORIGINAL, planEdit(ORIGINAL, PROPOSAL), ["h1"]));
		expect(reviewOf(e.state()).pending.map((h) => h.id)).toEqual(["h2"]);
		expect(reviewOf(e.state()).decided).toEqual([{ id: "h1", decision: "accepted", stale: false }]);
	});

	it("brings back every hunk of an accept-all, after the review ended, and after typing elsewhere was undone first", () => {
		const e = editor();
		e.record(acceptAll(e.state()));
		expect(reviewOf(e.state()).pending).toEqual([]);
		e.dispatch({ effects: endReview.of(null) });
		e.record({ changes: { from: 0, insert: "Top\n" } });
		e.undo();
		e.undo();
		expect(e.state().doc.toString()).toBe(ORIGINAL);
		expect(reviewOf(e.state()).pending.map((h) => h.id)).toEqual(["h1", "h2"]);
		e.record(acceptHunk(e.state(), "h2"));
		expect(e.state().doc.toString()).toBe(applyHunks(ORIGINAL, planEdit(ORIGINAL, PROPOSAL), ["h2"]));
	});

	it("an undo of typing does not bring back a rejected hunk", () => {
		const e = editor();
		e.dispatch(rejectHunks(e.state(), ["h1"]) as TransactionSpec);
		e.record({ changes: { from: 0, insert: "x" } });
		e.undo();
		expect(reviewOf(e.state()).pending.map((h) => h.id)).toEqual(["h2"]);
	});

	it("as a property: accepting any subset one by one, then undoing every accept, leaves the original bytes and every hunk pending again", () => {
		const lineArb = fc.constantFrom("alpha", "beta", "gamma", "", "delta epsilon", "zeta");
		const textArb = fc.array(lineArb, { minLength: 1, maxLength: 12 }).map((ls) => `${ls.join("\n")}\n`);
		fc.assert(
			fc.property(textArb, textArb, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (original, proposal, pick) => {
				const e = editor(original, proposal);
				const hunks = planEdit(original, proposal);
				const ids = hunks.filter((_, k) => pick[k % pick.length] === true).map((h) => h.id);
				for (const id of ids) e.record(acceptHunk(e.state(), id));
				expect(e.state().doc.toString()).toBe(applyHunks(original, hunks, ids));
				for (let k = 0; k < ids.length; k++) e.undo();
				expect(e.state().doc.toString()).toBe(original);
				expect(reviewOf(e.state()).pending.map((h) => [h.id, h.from, h.to, h.insert])).toEqual(hunks.map((h) => [h.id, h.from, h.to, h.insert]));
			}),
			{ numRuns: 200 },
		);
	});
});
