// @vitest-environment happy-dom
// Each message's buttons: Copy, Insert into the note, and for answers Copy as a quote callout.
import { afterEach, describe, expect, it } from "vitest";
import { activateLeaf, clearNotices, flush, notices, pressKey, typeInto } from "../obsidian/harness";
import { toCalloutQuote } from "../../src/ui/panel/MessageActions";
import { mountView, NOTE_TEXT, type Mounted } from "./mountView";

let mounted: Mounted | undefined;
afterEach(async () => {
	mounted?.leaf.detach();
	await flush();
	document.body.empty();
	clearNotices();
	mounted = undefined;
});

const ANSWER = "Alpha has **two** parts:\n\n- the intro\n- a link to [[Beta]]";

async function withAnswer(...args: Parameters<typeof mountView>): Promise<Mounted> {
	const m = (mounted = await mountView(...args));
	typeInto(m.input(), "What is in Alpha?");
	pressKey(m.input(), "Enter");
	await flush();
	m.chat.token(ANSWER);
	m.chat.finish();
	await flush();
	return m;
}

function catchClipboard(): string[] {
	const copied: string[] = [];
	Object.defineProperty(navigator, "clipboard", { value: { writeText: (t: string) => (copied.push(t), Promise.resolve()) }, configurable: true });
	return copied;
}

const button = (message: HTMLElement, cls: string): HTMLButtonElement | null => message.querySelector<HTMLButtonElement>(`.${cls}`);

describe("message actions", () => {
	it("every button is an icon with an aria-label; answers have three, questions two", async () => {
		const m = await withAnswer();
		const [question, answer] = m.messages();
		const labels = (el: HTMLElement) => Array.from(el.querySelectorAll<HTMLElement>(".discover-chat-message-actions button")).map((b) => b.getAttr("aria-label"));
		expect(labels(question!)).toEqual(["Copy message", "Insert into the note"]);
		expect(labels(answer!)).toEqual(["Copy message", "Insert into the note", "Copy as a quote callout"]);
		for (const b of Array.from(answer!.querySelectorAll(".discover-chat-message-actions button"))) expect(b.querySelector("svg")).not.toBeNull();
	});

	it("Copy puts the message's Markdown on the clipboard", async () => {
		const m = await withAnswer();
		const copied = catchClipboard();
		button(m.messages()[1]!, "discover-chat-copy")!.click();
		await flush();
		expect(copied).toEqual([ANSWER]);
	});

	it("Copy as a quote callout quotes every line under > [!quote], blank lines included", async () => {
		const m = await withAnswer();
		const copied = catchClipboard();
		button(m.messages()[1]!, "discover-chat-copy-quote")!.click();
		await flush();
		expect(copied).toEqual(["> [!quote]\n> Alpha has **two** parts:\n>\n> - the intro\n> - a link to [[Beta]]"]);
	});

	it("toCalloutQuote keeps Windows line ends and trailing newlines from breaking the quote", () => {
		expect(toCalloutQuote("a\r\nb\n\n")).toBe("> [!quote]\n> a\n> b");
		expect(toCalloutQuote("> already quoted")).toBe("> [!quote]\n> > already quoted");
	});

	it("Insert puts the message at the cursor of the note last used, even with the panel focused", async () => {
		const m = await withAnswer();
		const editor = m.markdownView!.editor;
		const at = NOTE_TEXT.indexOf("It links");
		editor.select(at, at);
		activateLeaf(m.app, m.leaf);
		const answer = m.messages()[1]!;
		answer.dispatchEvent(new Event("pointerenter"));
		expect(button(answer, "discover-chat-insert")!.hasClass("discover-chat-hidden")).toBe(false);
		button(answer, "discover-chat-insert")!.click();
		expect(editor.getValue()).toBe(NOTE_TEXT.slice(0, at) + ANSWER + NOTE_TEXT.slice(at));
		expect(notices()).toContain("Inserted into Alpha");
		// A question can be inserted too.
		button(m.messages()[0]!, "discover-chat-insert")!.click();
		expect(editor.getValue()).toContain(`${ANSWER}What is in Alpha?`);
	});

	it("Insert is hidden while no note is open, and shows once one is", async () => {
		const m = await withAnswer({ open: null });
		const answer = m.messages()[1]!;
		expect(button(answer, "discover-chat-insert")!.hasClass("discover-chat-hidden")).toBe(true);
		const note = m.app.workspace.getLeaf(true);
		await note.openFile(m.app.vault.getFileByPath("Notes/Beta.md")!);
		answer.dispatchEvent(new Event("pointerenter"));
		expect(button(answer, "discover-chat-insert")!.hasClass("discover-chat-hidden")).toBe(false);
	});
});
