// @vitest-environment happy-dom
// The commands and the editor's menu item (src/ui/commands.ts), run the way Obsidian runs them:
// through the command registry, with check callbacks deciding what the palette lists.
import { afterEach, describe, expect, it } from "vitest";
import type * as O from "obsidian";
import { activateLeaf, commandAvailable, flush, loadPlugin, openEditorMenu, pressKey, runCommand, TEST_MANIFEST, typeInto, unloadPlugin } from "../obsidian/harness";
import { Plugin } from "../obsidian/plugin";
import type { App } from "../obsidian/app";
import DiscoverPlugin from "../../src/main";
import { registerDiscoverCommands } from "../../src/wiring/commands";
import { DiscoverView } from "../../src/ui/panel/DiscoverView";
import { VIEW_TYPE_DISCOVER } from "../../src/ui/viewType";
import { mountView, NOTE_TEXT, type Mounted } from "../ui/mountView";
import { sentContext, sentContextName } from "../ui/fakes";

class CommandsOnly extends Plugin {
	override onload(): void {
		registerDiscoverCommands(this as unknown as O.Plugin);
	}
}

let mounted: Mounted | undefined;
let plugin: CommandsOnly | undefined;
afterEach(async () => {
	plugin?.unload();
	mounted?.leaf.detach();
	await flush();
	document.body.empty();
	mounted = plugin = undefined;
});

/** The panel with a fake engine, a note open and active, and the commands registered. */
async function setup(...args: Parameters<typeof mountView>): Promise<Mounted> {
	mounted = await mountView(...args);
	plugin = new CommandsOnly(mounted.app, TEST_MANIFEST);
	plugin.load();
	return mounted;
}

const id = (name: string): string => `${TEST_MANIFEST.id}:${name}`;

async function run(app: App, name: string): Promise<boolean> {
	const ran = runCommand(app, id(name));
	await flush();
	return ran;
}

async function answered(m: Mounted, question: string, answer: string): Promise<void> {
	typeInto(m.input(), question);
	pressKey(m.input(), "Enter");
	await flush();
	m.chat.token(answer);
	m.chat.finish();
	await flush();
}

const attachmentEl = (m: Mounted): HTMLElement => m.q(".discover-chat-attachment");

describe("commands", () => {
	it("are all registered, named in sentence case without the plugin's name, with no default hotkey", async () => {
		const m = await setup();
		const names = ["new-chat", "open-chat-history", "ask-about-selection", "insert-last-answer", "summarize-note", "focus-chat-input", "stop-answer"];
		for (const name of names) {
			const command = m.app.commands.commands.get(id(name));
			expect(command, name).toBeDefined();
			expect(command?.hotkeys ?? []).toEqual([]);
			// Obsidian shows "Discover: <name>"; the name itself does not repeat "Discover".
			const own = command!.name.replace(/^Discover: /, "");
			expect(own).not.toMatch(/discover/i);
			expect(own[0]).toBe(own[0]!.toUpperCase());
			expect(own.slice(1)).toBe(own.slice(1).toLowerCase());
		}
	});

	it("“New chat” starts a fresh chat in the panel", async () => {
		const m = await setup();
		await answered(m, "What is Alpha?", "A note.");
		const before = m.chat.sessionId;
		expect(m.messages()).toHaveLength(2);
		expect(await run(m.app, "new-chat")).toBe(true);
		await flush();
		expect(m.chat.sessionId).not.toBe(before);
		expect(m.chat.messages).toEqual([]);
		expect(m.messages()).toHaveLength(0);
	});

	it("“Open chat history” opens the history", async () => {
		const m = await setup();
		expect(document.querySelector(".discover-chat-history")).toBeNull();
		expect(await run(m.app, "open-chat-history")).toBe(true);
		expect(document.querySelector(".discover-chat-history")).not.toBeNull();
	});

	it("“Ask about selection” is listed only with text selected, and sends that text as the next message's context", async () => {
		const m = await setup();
		const editor = m.markdownView!.editor;
		expect(commandAvailable(m.app, id("ask-about-selection"))).toBe(false);
		const start = NOTE_TEXT.indexOf("Alpha is");
		editor.select(start, start + "Alpha is the first note.".length);
		expect(commandAvailable(m.app, id("ask-about-selection"))).toBe(true);
		expect(await run(m.app, "ask-about-selection")).toBe(true);
		expect(attachmentEl(m).hasClass("discover-chat-hidden")).toBe(false);
		expect(attachmentEl(m).textContent).toContain("Selection from Alpha");
		// A snapshot: moving the selection afterwards does not change what is sent.
		editor.select(0, 0);
		typeInto(m.input(), "Explain this");
		pressKey(m.input(), "Enter");
		await flush();
		expect(sentContext(m.chat.sent[0]!.opts)).toBe("Alpha is the first note.");
		expect(sentContextName(m.chat.sent[0]!.opts)).toBe("Alpha (selection)");
		m.chat.token("It introduces Alpha.");
		m.chat.finish();
		await flush();
		// Answered: the next message goes with the note again.
		expect(attachmentEl(m).hasClass("discover-chat-hidden")).toBe(true);
		typeInto(m.input(), "And the rest?");
		pressKey(m.input(), "Enter");
		await flush();
		expect(sentContext(m.chat.sent[1]!.opts)).toBe(NOTE_TEXT);
	});

	it("a selection attached while an answer streams waits for the next message", async () => {
		const m = await setup();
		const editor = m.markdownView!.editor;
		editor.select(0, 7);
		await run(m.app, "ask-about-selection");
		typeInto(m.input(), "First");
		pressKey(m.input(), "Enter");
		await flush();
		editor.select(NOTE_TEXT.indexOf("It links"), NOTE_TEXT.length - 1);
		await run(m.app, "ask-about-selection");
		m.chat.token("Answer one.");
		m.chat.finish();
		await flush();
		expect(attachmentEl(m).hasClass("discover-chat-hidden")).toBe(false);
		typeInto(m.input(), "Second");
		pressKey(m.input(), "Enter");
		await flush();
		expect(m.chat.sent.map((s) => sentContext(s.opts))).toEqual(["# Alpha", "It links to [[Beta]]."]);
	});

	it("the attached selection can be removed before sending", async () => {
		const m = await setup();
		m.markdownView!.editor.select(0, 7);
		await run(m.app, "ask-about-selection");
		attachmentEl(m).querySelector<HTMLElement>(".discover-chat-attachment-remove")!.click();
		expect(attachmentEl(m).hasClass("discover-chat-hidden")).toBe(true);
		typeInto(m.input(), "Hi");
		pressKey(m.input(), "Enter");
		await flush();
		expect(sentContext(m.chat.sent[0]!.opts)).toBe(NOTE_TEXT);
	});

	it("the editor's context menu offers “Ask about selection in chat” only over a selection", async () => {
		const m = await setup();
		const view = m.markdownView!;
		expect(openEditorMenu(m.app, view).items).toHaveLength(0);
		view.editor.select(0, 7);
		const items = openEditorMenu(m.app, view).items;
		expect(items.map((i) => i.dom.querySelector(".menu-item-title")?.textContent)).toEqual(["Ask about selection in chat"]);
		items[0]!.dom.click();
		await flush();
		expect(attachmentEl(m).hasClass("discover-chat-hidden")).toBe(false);
		typeInto(m.input(), "What is this?");
		pressKey(m.input(), "Enter");
		await flush();
		expect(sentContext(m.chat.sent[0]!.opts)).toBe("# Alpha");
	});

	it("“Insert last answer into the note” is listed only once there is an answer and a note's editor is active", async () => {
		const m = await setup();
		const editor = m.markdownView!.editor;
		expect(commandAvailable(m.app, id("insert-last-answer"))).toBe(false);
		await answered(m, "Name a colour", "**Red**");
		// The chat panel is the active leaf: editor commands do not apply.
		activateLeaf(m.app, m.leaf);
		expect(commandAvailable(m.app, id("insert-last-answer"))).toBe(false);
		activateLeaf(m.app, m.app.workspace.getMostRecentLeaf()!);
		expect(commandAvailable(m.app, id("insert-last-answer"))).toBe(true);
		editor.select(NOTE_TEXT.length, NOTE_TEXT.length);
		expect(await run(m.app, "insert-last-answer")).toBe(true);
		expect(editor.getValue()).toBe(`${NOTE_TEXT}**Red**`);
	});

	it("“Summarize this note” sends /summarize's request with the whole note, and needs a note", async () => {
		const m = await setup();
		expect(commandAvailable(m.app, id("summarize-note"))).toBe(true);
		expect(await run(m.app, "summarize-note")).toBe(true);
		await flush();
		expect(m.chat.sent.map((s) => s.text)).toEqual(["Summarize this note."]);
		expect(m.chat.sent[0]!.opts.includeHistory).toBe(false);
		expect(sentContext(m.chat.sent[0]!.opts)).toBe(NOTE_TEXT);
	});

	it("“Summarize this note” is not listed without a note", async () => {
		const m = await setup({ open: null });
		expect(commandAvailable(m.app, id("summarize-note"))).toBe(false);
	});

	it("“Focus the chat input” puts the cursor in the input", async () => {
		const m = await setup();
		expect(document.activeElement).not.toBe(m.input());
		expect(await run(m.app, "focus-chat-input")).toBe(true);
		expect(document.activeElement).toBe(m.input());
		expect(m.app.workspace.activeLeaf).toBe(m.leaf);
	});

	it("“Stop the answer” is listed only while an answer streams, and stops it", async () => {
		const m = await setup();
		expect(commandAvailable(m.app, id("stop-answer"))).toBe(false);
		typeInto(m.input(), "Tell me a long story");
		pressKey(m.input(), "Enter");
		await flush();
		m.chat.token("Once upon");
		expect(commandAvailable(m.app, id("stop-answer"))).toBe(true);
		expect(await run(m.app, "stop-answer")).toBe(true);
		await flush();
		expect(m.chat.busy).toBe(false);
		expect(m.chat.messages[1]).toMatchObject({ role: "assistant", content: "Once upon", cancelled: true });
		expect(commandAvailable(m.app, id("stop-answer"))).toBe(false);
	});

	it("a command opens the panel when it is closed, then acts on it", async () => {
		const { plugin: discover, app } = await loadPlugin(DiscoverPlugin);
		expect(app.workspace.getLeavesOfType(VIEW_TYPE_DISCOVER)).toHaveLength(0);
		runCommand(app, id("focus-chat-input"));
		// Opening the panel is asynchronous: wait for the focus by time (up to 10 s on a loaded machine), not by a count of ticks.
		for (const until = Date.now() + 10_000; Date.now() < until && document.activeElement?.className !== "discover-chat-input"; ) await new Promise((r) => window.setTimeout(r, 5));
		const leaves = app.workspace.getLeavesOfType(VIEW_TYPE_DISCOVER);
		expect(leaves).toHaveLength(1);
		expect(leaves[0]!.view).toBeInstanceOf(DiscoverView);
		expect(document.activeElement).toBe(leaves[0]!.view.containerEl.querySelector(".discover-chat-input"));
		unloadPlugin(discover);
	});
});
