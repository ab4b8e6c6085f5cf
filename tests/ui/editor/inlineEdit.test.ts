// @vitest-environment happy-dom
// Edit with Discover in a real CodeMirror 6 editor (the packages Obsidian ships): the prompt at the
// selection, the proposal streamed, then each hunk accepted or rejected where the text is.
import "obsidian";
import { EditorSelection, EditorState, Transaction } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { afterEach, describe, expect, it, vi } from "vitest";
import { inlineEditExtension, openInlineEdit, type EditOutcome, type EditRequest, type InlineEditPorts } from "../../../src/ui/editor/inlineEdit";
import { reviewOf } from "../../../src/editor/review";
import { editDecorations } from "../../../src/ui/editor/editDecorations";

const NOTE = "# Plan\n\nThe quick brown fox.\nIt jumps over the dog.\n\nA line left alone.\nThe end of it.\n";
const REWRITE = "The slow brown fox.\nIt jumps over the dog.\n\nA line left alone.\nThe very end.\n";

interface Harness {
	view: EditorView;
	requests: EditRequest[];
	finished: Omit<Parameters<NonNullable<InlineEditPorts["finished"]>>[0], "view">[];
	transactions: Transaction[];
	/** Ends the request in flight with this outcome. */
	answer: (outcome: EditOutcome) => Promise<void>;
	input: () => HTMLInputElement;
	q: <T extends Element = HTMLElement>(selector: string) => T[];
}

let current: EditorView | undefined;
afterEach(() => {
	current?.destroy();
	document.body.empty();
});

function setup(recent: string[] = []): Harness {
	const requests: EditRequest[] = [];
	const finished: Harness["finished"] = [];
	const transactions: Transaction[] = [];
	let settle: ((o: EditOutcome) => void) | undefined;
	const ports: InlineEditPorts = {
		propose: (request) => {
			requests.push(request);
			return new Promise<EditOutcome>((resolve, reject) => {
				settle = resolve;
				request.signal.addEventListener("abort", () => reject(new DOMException("Stopped", "AbortError")));
			});
		},
		recent: () => recent,
		remember: (i) => recent.unshift(i),
		finished: ({ view: _view, ...r }) => finished.push(r),
	};
	const parent = document.body.createDiv();
	const view = new EditorView({
		state: EditorState.create({ doc: NOTE, extensions: [inlineEditExtension(ports), EditorState.transactionExtender.of((tr) => (transactions.push(tr), null))] }),
		parent,
	});
	current = view;
	const q = <T extends Element = HTMLElement>(selector: string): T[] => Array.from(view.dom.querySelectorAll<T>(selector));
	return {
		view,
		requests,
		finished,
		transactions,
		answer: async (outcome) => {
			settle?.(outcome);
			await new Promise((r) => window.setTimeout(r, 0));
		},
		input: () => q<HTMLInputElement>(".discover-edit-input")[0]!,
		q,
	};
}

function key(el: HTMLElement, k: string, init: KeyboardEventInit = {}): void {
	el.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...init }));
}

/** Selects the note's body (from "The quick" to the end), opens the prompt and sends `instruction`. */
async function ask(h: Harness, instruction = "tighten this"): Promise<void> {
	const from = NOTE.indexOf("The quick");
	h.view.dispatch({ selection: EditorSelection.single(from, NOTE.length) });
	expect(openInlineEdit(h.view)).toBe(true);
	h.input().value = instruction;
	key(h.input(), "Enter");
	await Promise.resolve();
}

describe("Edit with Discover in the editor", () => {
	it("opens a prompt at the selection, sends the instruction and the selection, and streams the proposal into a diff", async () => {
		const h = setup();
		await ask(h);
		expect(h.q(".discover-edit-prompt")).toHaveLength(1);
		expect(h.requests).toHaveLength(1);
		expect(h.requests[0]).toMatchObject({ instruction: "tighten this", selection: NOTE.slice(NOTE.indexOf("The quick")) });
		h.requests[0]!.onText(() => "The slow brown");
		// In the note, where the text is: the words replaced so far struck through, the new ones under them.
		expect(h.q(".cm-content .discover-edit-removed").map((e) => e.textContent)).toEqual(["quick"]);
		expect(h.q(".discover-edit-hunk.is-streaming .discover-edit-added").map((e) => e.textContent)).toEqual(["slow"]);
		// Nothing to decide while it streams.
		expect(h.q(".discover-edit-hunk button")).toHaveLength(0);
		// More arrives: the diff is redrawn (at most every 60 ms), now over two lines, and still changes nothing.
		h.requests[0]!.onText(() => "The slow brown fox.\nIt leaps over");
		await new Promise((r) => window.setTimeout(r, 80));
		expect(h.q(".cm-content .discover-edit-removed").map((e) => e.textContent)).toEqual(["quick", "jumps"]);
		expect(h.q(".discover-edit-hunk.is-streaming .discover-edit-added").map((e) => e.textContent)).toEqual(["slow", "leaps"]);
		// Stop is there while it streams, Send is not.
		expect(h.q(".discover-edit-stop")[0]!.hasClass("discover-edit-hidden")).toBe(false);
		expect(h.view.state.doc.toString()).toBe(NOTE);
	});

	it("shows each hunk where the text is, changes nothing until one is accepted, and accepts or rejects one hunk per transaction", async () => {
		const h = setup();
		await ask(h);
		await h.answer({ proposal: REWRITE });
		expect(h.view.state.doc.toString()).toBe(NOTE);
		expect(h.q(".discover-edit-hunk")).toHaveLength(2);
		expect(h.q(".cm-content .discover-edit-removed").map((e) => e.textContent)).toEqual(["quick", "end of", "it"]);
		expect(h.q(".discover-edit-hunk .discover-edit-added").map((e) => e.textContent)).toEqual(["slow", "very", "end"]);
		h.transactions.length = 0;
		h.q<HTMLButtonElement>(".discover-edit-hunk button.mod-cta")[0]!.click();
		expect(h.transactions.filter((t) => t.docChanged)).toHaveLength(1);
		expect(h.view.state.doc.toString()).toBe(NOTE.replace("quick", "slow"));
		expect(h.q(".discover-edit-hunk")).toHaveLength(1);
		const reject = h.q<HTMLButtonElement>(".discover-edit-hunk button").find((b) => b.textContent === "Reject")!;
		reject.click();
		expect(h.view.state.doc.toString()).toBe(NOTE.replace("quick", "slow"));
		// The last decision ends the review, and what was decided is handed over to be saved as a chat.
		expect(h.q(".discover-edit-hunk")).toHaveLength(0);
		expect(h.finished).toEqual([
			{
				instruction: "tighten this",
				original: NOTE.slice(NOTE.indexOf("The quick")),
				proposal: REWRITE,
				decided: [
					{ id: "h1", decision: "accepted", stale: false },
					{ id: "h2", decision: "rejected", stale: false },
				],
			},
		]);
	});

	it("Ctrl/Cmd+Z after an accept brings the hunk back into review, with its buttons, even after the review ended", async () => {
		const h = setup();
		await ask(h);
		await h.answer({ proposal: REWRITE });
		h.transactions.length = 0;
		h.q<HTMLButtonElement>(".discover-edit-hunk button.mod-cta")[0]!.click();
		const accept = h.transactions.find((t) => t.docChanged)!;
		h.q<HTMLButtonElement>(".discover-edit-hunk button").find((b) => b.textContent === "Reject")!.click();
		expect(h.finished).toHaveLength(1);
		expect(h.q(".discover-edit-prompt")).toHaveLength(0);
		// The history's undo: the accept's changes inverted, with the user event "undo".
		h.view.dispatch({ changes: accept.changes.invert(accept.startState.doc), userEvent: "undo" });
		expect(h.view.state.doc.toString()).toBe(NOTE);
		expect(h.q(".discover-edit-hunk")).toHaveLength(1);
		expect(h.q(".cm-content .discover-edit-removed").map((e) => e.textContent)).toEqual(["quick"]);
		expect(h.q(".discover-edit-review-buttons")[0]!.hasClass("discover-edit-hidden")).toBe(false);
		h.q<HTMLButtonElement>(".discover-edit-hunk button.mod-cta")[0]!.click();
		expect(h.view.state.doc.toString()).toBe(NOTE.replace("quick", "slow"));
		expect(h.finished).toHaveLength(2);
		// What is decided now, all of it: the rejection stands, the accept was made again.
		expect(h.finished[1]?.decided).toEqual([
			{ id: "h2", decision: "rejected", stale: false },
			{ id: "h1", decision: "accepted", stale: false },
		]);
	});

	it("marks a hunk stale when the person types inside it, and its Accept is disabled", async () => {
		const h = setup();
		await ask(h);
		await h.answer({ proposal: REWRITE });
		const at = NOTE.indexOf("end of");
		h.view.dispatch({ changes: { from: at, insert: "very " } });
		const hunks = h.q(".discover-edit-hunk");
		expect(hunks[1]!.hasClass("is-stale")).toBe(true);
		expect(hunks[1]!.querySelector<HTMLButtonElement>("button.mod-cta")!.disabled).toBe(true);
		expect(hunks[0]!.hasClass("is-stale")).toBe(false);
	});

	it("by keyboard: Tab moves between hunks, Ctrl+Enter accepts all in one transaction, Escape rejects all", async () => {
		const h = setup();
		await ask(h);
		await h.answer({ proposal: REWRITE });
		const hunks = reviewOf(h.view.state).pending;
		expect(h.view.state.selection.main.head).toBe(hunks[0]!.from);
		key(h.view.contentDOM, "Tab");
		expect(h.view.state.selection.main.head).toBe(hunks[1]!.from);
		h.transactions.length = 0;
		// Mod is Cmd on a Mac, Ctrl elsewhere (CodeMirror reads the platform): one of the two is it.
		key(h.view.contentDOM, "Enter", { ctrlKey: true });
		if (reviewOf(h.view.state).pending.length > 0) key(h.view.contentDOM, "Enter", { metaKey: true });
		expect(h.transactions.filter((t) => t.docChanged)).toHaveLength(1);
		expect(h.view.state.doc.toString()).toBe(NOTE.slice(0, NOTE.indexOf("The quick")) + REWRITE);

		const g = setup();
		await ask(g);
		await g.answer({ proposal: REWRITE });
		// The keys have buttons too (phones have no keyboard), shown only while reviewing.
		expect(g.q(".discover-edit-review-buttons")[0]!.hasClass("discover-edit-hidden")).toBe(false);
		expect(g.q(".discover-edit-review-buttons button").map((b) => b.textContent)).toEqual(["Accept all", "Reject all"]);
		key(g.view.contentDOM, "Escape");
		expect(g.view.state.doc.toString()).toBe(NOTE);
		expect(g.q(".discover-edit-hunk")).toHaveLength(0);
		expect(g.finished[0]?.decided.map((d) => d.decision)).toEqual(["rejected", "rejected"]);
	});

	it("by keyboard alone, one hunk at a time: Tab puts the focus on the next hunk's Accept, Enter on it decides, Escape there rejects the rest", async () => {
		const h = setup();
		await ask(h);
		await h.answer({ proposal: REWRITE });
		key(h.view.contentDOM, "Tab");
		const focused = document.activeElement as HTMLButtonElement;
		expect(focused.textContent).toBe("Accept");
		expect(focused.closest(".discover-edit-hunk")?.getAttribute("data-hunk")).toBe("h2");
		// A button's Enter is its click.
		focused.click();
		expect(h.view.state.doc.toString()).toBe(NOTE.replace("The end of it.", "The very end."));
		key(h.view.contentDOM, "Tab");
		key(document.activeElement as HTMLElement, "Escape");
		expect(h.view.state.doc.toString()).toBe(NOTE.replace("The end of it.", "The very end."));
		expect(h.finished[0]?.decided).toEqual([
			{ id: "h2", decision: "accepted", stale: false },
			{ id: "h1", decision: "rejected", stale: false },
		]);
	});

	it("too large: the message names both sizes, and nothing is sent or changed", async () => {
		const h = setup();
		await ask(h);
		await h.answer({ tooLarge: { instructionTokens: 12, selectionTokens: 9_000, neededTokens: 20_326, budgetTokens: 8_000 } });
		expect(h.q(".discover-edit-message")[0]!.textContent).toBe(
			"The instruction (12 tokens) and the selection (9,000 tokens) need 20,326 tokens with room for the answer; the model has 8,000. Select less text, or choose a model with a larger context.",
		);
		expect(h.view.state.doc.toString()).toBe(NOTE);
		// The prompt stays open with the instruction, to send again after selecting less.
		expect(h.input().disabled).toBe(false);
	});

	it("a long pause in the stream: what arrives after it is drawn within one draw's interval (60 ms), and so is what arrives at a steady pace", async () => {
		const h = setup();
		await ask(h);
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
		try {
			const added = (): string[] => h.q(".discover-edit-hunk.is-streaming .discover-edit-added").map((e) => e.textContent ?? "");
			const onText = (text: string): void => h.requests[0]!.onText(() => text);
			// The first of the stream at once.
			onText("The slow brown");
			expect(added()).toEqual(["slow"]);
			// Then at a steady pace, a token every 10 ms: drawn while they keep coming, at least every 60 ms.
			let text = "The slow brown fox.\nIt leaps";
			onText(text);
			for (const word of [" over", " the", " dog.", "\n", "\n", "A", " line", " left", " behind."]) {
				vi.advanceTimersByTime(10);
				text += word;
				onText(text);
			}
			expect(added()).toEqual(["slow", "leaps"]);
			// The model thinks for five seconds: the last token before the pause is on screen during it.
			vi.advanceTimersByTime(60);
			expect(added()).toEqual(["slow", "leaps", "behind"]);
			vi.advanceTimersByTime(5000);
			// Then one more line arrives: on screen within 60 ms.
			onText(`${text}\nThe very`);
			vi.advanceTimersByTime(60);
			expect(added()).toEqual(["slow", "leaps", "behind", "very"]);
		} finally {
			vi.useRealTimers();
		}
	});

	it("opening again while the proposal is written keeps it going: nothing shown is dropped for a new prompt", async () => {
		const h = setup();
		await ask(h);
		h.requests[0]!.onText(() => "The slow brown");
		expect(openInlineEdit(h.view)).toBe(true);
		expect(h.requests[0]!.signal.aborted).toBe(false);
		expect(h.q(".discover-edit-hunk.is-streaming")).toHaveLength(1);
		await h.answer({ proposal: REWRITE });
		expect(h.q(".discover-edit-hunk button").length).toBeGreaterThan(0);
	});

	it("Stop ends the request and keeps the prompt; Escape closes it; Up recalls recent instructions", async () => {
		const h = setup(["make it shorter", "translate to German"]);
		await ask(h, "new one");
		h.q<HTMLButtonElement>(".discover-edit-stop")[0]!.click();
		expect(h.requests[0]!.signal.aborted).toBe(true);
		await new Promise((r) => window.setTimeout(r, 0));
		expect(h.input().disabled).toBe(false);
		h.input().value = "";
		key(h.input(), "ArrowUp");
		expect(h.input().value).toBe("new one");
		key(h.input(), "ArrowUp");
		expect(h.input().value).toBe("make it shorter");
		key(h.input(), "ArrowDown");
		expect(h.input().value).toBe("new one");
		key(h.input(), "Escape");
		expect(h.q(".discover-edit-prompt")).toHaveLength(0);
		expect(h.view.state.doc.toString()).toBe(NOTE);
	});

	it("builds nothing in an editor until its prompt is first opened, and keeps the decorations' value while nothing is open", () => {
		const made = vi.spyOn(window, "createDiv");
		try {
			const h = setup();
			expect(made).not.toHaveBeenCalled();
			const decorations = h.view.state.field(editDecorations);
			h.view.dispatch({ changes: { from: 0, insert: "Typing. " } });
			expect(made).not.toHaveBeenCalled();
			expect(h.view.state.field(editDecorations)).toBe(decorations);
			expect(openInlineEdit(h.view)).toBe(true);
			expect(made).toHaveBeenCalled();
			expect(h.q(".discover-edit-prompt")).toHaveLength(1);
		} finally {
			made.mockRestore();
		}
	});

	it("an editor closed with changes still to decide hands over what was decided, the rest as undecided, to be saved", async () => {
		const h = setup();
		await ask(h);
		await h.answer({ proposal: REWRITE });
		h.q<HTMLButtonElement>(".discover-edit-hunk button.mod-cta")[0]!.click();
		expect(h.finished).toHaveLength(0);
		h.view.destroy();
		expect(h.finished).toEqual([{ instruction: "tighten this", original: NOTE.slice(NOTE.indexOf("The quick")), proposal: REWRITE, decided: [{ id: "h1", decision: "accepted", stale: false }] }]);
	});

	it("an editor closed after its prompt was used leaves no listener of the edit's on it", async () => {
		const h = setup();
		// Spies that call through: what was added and removed, as it happened.
		const adds = vi.spyOn(h.view.dom, "addEventListener");
		const removes = vi.spyOn(h.view.dom, "removeEventListener");
		const keydown = (calls: unknown[][]): unknown[] => calls.filter((c) => c[0] === "keydown").map((c) => c[1]);
		await ask(h);
		await h.answer({ proposal: REWRITE });
		const added = keydown(adds.mock.calls);
		expect(added).toHaveLength(1);
		h.view.destroy();
		expect(keydown(removes.mock.calls)).toEqual(added);
	});
});
