// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import type * as O from "obsidian";
import { activateLeaf, asObsidianApp, clearNotices, createTestApp, flush, notices, pressKey, typeInto } from "../obsidian/harness";
import { LLMError } from "../../src/providers/errors";
import { DiscoverView } from "../../src/ui/panel/DiscoverView";
import type { ChatRuntimeFactory } from "../../src/ui/host";
import { fakeWorld, ManualFrames, message, sentContext, sentContextName } from "./fakes";
import { mountView, type Mounted } from "./mountView";

let mounted: Mounted | undefined;
const wait = (ms: number): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, ms));
afterEach(async () => {
	mounted?.leaf.detach();
	await flush();
	document.body.empty();
	mounted = undefined;
});

async function setup(...args: Parameters<typeof mountView>): Promise<Mounted> {
	mounted = await mountView(...args);
	return mounted;
}

async function type(m: Mounted, text: string): Promise<void> {
	typeInto(m.input(), text);
	pressKey(m.input(), "Enter");
	await flush();
}

describe("sending and streaming", () => {
	it("Enter sends the draft, shows it, and streams the answer into one bubble", async () => {
		const m = await setup();
		await type(m, "What is Alpha?");
		expect(m.chat.sent.map((s) => s.text)).toEqual(["What is Alpha?"]);
		expect(m.input().value).toBe("");
		m.chat.token("Alpha is ");
		m.chat.token("a **note**.");
		m.frames.frame();
		await flush();
		const bubbles = m.messages();
		expect(bubbles.map((b) => b.hasClass("discover-chat-message-user"))).toEqual([true, false]);
		expect(m.texts()[1]).toBe("Alpha is a note.");
		expect(bubbles[1]!.querySelector("strong")?.textContent).toBe("note");
		m.chat.finish();
		await flush();
		expect(m.messages()).toHaveLength(2);
		expect(m.messages()[1]!.hasClass("discover-chat-message-streaming")).toBe(false);
	});

	it("Shift+Enter does not send", async () => {
		const m = await setup();
		typeInto(m.input(), "line one");
		pressKey(m.input(), "Enter", { shift: true });
		await flush();
		expect(m.chat.sent).toHaveLength(0);
	});

	it("renders at most once per frame while streaming", async () => {
		const m = await setup();
		await type(m, "Count");
		const body = () => m.messages()[1]!.querySelector(".discover-chat-message-body")!;
		for (let i = 0; i < 50; i++) m.chat.token(`${i} `);
		await flush();
		const beforeFrame = body().textContent;
		m.frames.frame();
		await flush();
		expect(beforeFrame).not.toContain("49");
		expect(body().textContent).toContain("49");
		expect(m.frames.pending).toBe(0);
		m.chat.token("more");
		expect(m.frames.pending).toBe(1);
	});

	it("sends the active note as context, with its name", async () => {
		const m = await setup();
		await type(m, "Summarize");
		expect(sentContext(m.chat.sent[0]!.opts)).toContain("Alpha is the first note.");
		expect(sentContextName(m.chat.sent[0]!.opts)).toBe("Alpha");
		expect(m.chat.sent[0]!.opts.includeHistory).toBe(true);
	});
});

describe("message actions and progress", () => {
	it("Copy puts the message's Markdown on the clipboard", async () => {
		const copied: string[] = [];
		Object.defineProperty(navigator, "clipboard", { value: { writeText: (t: string) => (copied.push(t), Promise.resolve()) }, configurable: true });
		const m = await setup();
		await type(m, "Question");
		m.chat.token("An **answer**.");
		m.chat.finish();
		await flush();
		m.messages()[1]!.querySelector<HTMLButtonElement>(".discover-chat-copy")!.click();
		m.messages()[0]!.querySelector<HTMLButtonElement>(".discover-chat-copy")!.click();
		await flush();
		expect(copied).toEqual(["An **answer**.", "Question"]);
	});

	it("shows the engine's progress text until the answer starts", async () => {
		const m = await setup();
		await type(m, "Long chat question");
		const status = m.q(".discover-chat-status");
		expect(status.textContent).toBe("Waiting for the model…");
		m.chat.status("Summarizing earlier messages…");
		expect(status.textContent).toBe("Summarizing earlier messages…");
		expect(status.hasClass("discover-chat-hidden")).toBe(false);
		m.chat.status("Continuing conversation…");
		expect(status.textContent).toBe("Continuing conversation…");
		m.chat.token("Hi");
		expect(status.textContent).toBe("Writing the answer…");
		expect(status.hasClass("discover-chat-hidden")).toBe(false);
	});

	it("marks the answer as coming while it streams: a streaming class for the caret and a status line, both gone when it ends", async () => {
		const m = await setup();
		await type(m, "Question");
		m.chat.token("Part");
		const status = m.q(".discover-chat-status");
		expect(m.messages()[1]!.hasClass("discover-chat-message-streaming")).toBe(true);
		expect(status.textContent).toBe("Writing the answer…");
		m.chat.finish();
		await flush();
		expect(m.messages()[1]!.hasClass("discover-chat-message-streaming")).toBe(false);
		expect(status.hasClass("discover-chat-hidden")).toBe(true);
	});
});

describe("Stop", () => {
	it("turns Send into Stop while streaming and keeps the partial answer with a stopped mark", async () => {
		const m = await setup();
		await type(m, "Tell me a story");
		expect(m.button().getAttr("aria-label")).toBe("Stop answer");
		m.chat.token("Once upon");
		m.frames.frame();
		m.button().click();
		await flush();
		expect(m.chat.busy).toBe(false);
		expect(m.button().getAttr("aria-label")).toBe("Send message");
		const answer = m.messages()[1]!;
		expect(answer.querySelector(".discover-chat-message-body")!.textContent).toBe("Once upon");
		expect(answer.querySelector(".discover-chat-message-stopped")?.textContent).toBe("stopped");
	});

	it("Stop before the request goes out sends nothing and puts the question back", async () => {
		const m = await setup();
		let ready: () => void = () => undefined;
		m.runtime.syncSettings = () => new Promise<void>((resolve) => (ready = resolve));
		await type(m, "Never mind");
		expect(m.button().getAttr("aria-label")).toBe("Stop answer");
		m.button().click();
		ready();
		await flush();
		expect(m.chat.sent).toHaveLength(0);
		expect(m.input().value).toBe("Never mind");
		expect(m.button().getAttr("aria-label")).toBe("Send message");
		expect(m.root.querySelector(".discover-chat-error")).toBeNull();
	});

	it("makes a second send impossible while an answer streams", async () => {
		const m = await setup();
		await type(m, "First");
		await type(m, "Second");
		m.button().click(); // Stop, not Send
		await flush();
		expect(m.chat.sent.map((s) => s.text)).toEqual(["First"]);
		expect(m.input().value).toBe("Second");
	});
});

describe("errors", () => {
	it("shows the diagnosis inline with Retry, and Retry sends again", async () => {
		const m = await setup();
		await type(m, "Hello?");
		m.chat.fail(new LLMError("network", "fetch failed"));
		await flush();
		await flush();
		const error = m.q(".discover-chat-error");
		expect(error.textContent).toContain("Can't reach the model server");
		expect(error.textContent).toContain("fetch failed");
		expect(m.q(".discover-chat-error-message").textContent).toContain("Is Ollama running?");
		expect(m.button().getAttr("aria-label")).toBe("Send message");
		typeInto(m.input(), "a draft typed meanwhile");
		m.q<HTMLButtonElement>(".discover-chat-retry").click();
		await flush();
		expect(m.chat.sent.map((s) => s.text)).toEqual(["Hello?", "Hello?"]);
		expect(m.input().value).toBe("a draft typed meanwhile");
		expect(m.root.querySelector(".discover-chat-error")).toBeNull();
	});

	it("puts a message that was never sent back into the input", async () => {
		const m = await setup();
		m.chat.maxMessageChars = 10;
		await type(m, "This message is far too long");
		expect(m.input().value).toBe("This message is far too long");
		expect(m.q(".discover-chat-error").textContent).toContain("Message too long");
		expect(m.root.querySelector(".discover-chat-retry")).toBeNull();
	});

	it("puts unsent text back ahead of a draft typed meanwhile", async () => {
		const m = await setup();
		let fail: (err: unknown) => void = () => undefined;
		m.runtime.syncSettings = () => new Promise((_resolve, reject) => (fail = reject));
		await type(m, "My careful question");
		expect(m.input().value).toBe("");
		typeInto(m.input(), "another thought");
		fail(new Error("The API key secret is missing"));
		await flush();
		expect(m.input().value).toBe("My careful question\n\nanother thought");
		expect(m.q(".discover-chat-error").textContent).toContain("The API key secret is missing");
	});
});

describe("context chip", () => {
	it("follows the active note, and its toggle leaves the note out", async () => {
		const m = await setup();
		expect(m.q(".discover-chat-context-name").textContent).toBe("Alpha");
		expect(m.q(".discover-chat-context-fit").textContent).toBe("Whole note");
		const beta = m.app.vault.getFileByPath("Notes/Beta.md")!;
		await m.app.workspace.getLeaf(true).openFile(beta);
		await flush();
		expect(m.q(".discover-chat-context-name").textContent).toBe("Beta");
		// Focusing the chat keeps the note the person was reading.
		activateLeaf(m.app, m.leaf);
		expect(m.q(".discover-chat-context-name").textContent).toBe("Beta");
		m.q<HTMLButtonElement>(".discover-chat-context-chip").click();
		expect(m.q(".discover-chat-context-chip").getAttr("aria-pressed")).toBe("false");
		await type(m, "No context please");
		expect(sentContext(m.chat.sent[0]!.opts)).toBeUndefined();
	});

	it("starts with the note left out when the setting says so", async () => {
		const m = await setup({ settings: { includeActiveNote: false } });
		expect(m.q(".discover-chat-context-chip").getAttr("aria-pressed")).toBe("false");
		expect(m.q(".discover-chat-context-fit").textContent).toBe("Not included");
		await type(m, "Without the note");
		expect(sentContext(m.chat.sent[0]!.opts)).toBeUndefined();
	});

	it("shows how much of a long note fits", async () => {
		const m = await setup({ files: { "Long.md": "word ".repeat(40_000) }, open: "Long.md" });
		await flush();
		expect(m.q(".discover-chat-context-fit").textContent).toMatch(/^Excerpts, \d{1,2}%$/);
		m.chat.budget = 40;
		typeInto(m.input(), "x");
		m.view.setDraft("y");
		await wait(200);
		expect(m.q(".discover-chat-context-fit").textContent).toBe("Not included: budget full");
	});

	it("can send the selection instead of the note", async () => {
		const m = await setup();
		m.markdownView!.editor.select(9, 33);
		activateLeaf(m.app, m.leaf);
		const selection = m.q<HTMLButtonElement>(".discover-chat-context-selection");
		expect(selection.hasClass("discover-chat-hidden")).toBe(false);
		selection.click();
		await type(m, "Explain this");
		expect(sentContext(m.chat.sent[0]!.opts)).toBe("Alpha is the first note.");
	});
});

describe("budget meter", () => {
	it("shows tokens against the budget and warns at 60% and 80%", async () => {
		const m = await setup({ open: null });
		const meter = m.q(".discover-chat-meter");
		// The same budget the settings tab names (8,192 − 512); the engine's own limit is in the tooltip.
		expect(meter.textContent).toMatch(/^\d+ \/ 7\.7K tokens$/);
		expect(meter.getAttr("aria-label")).toContain("of 7,680 tokens");
		expect(meter.getAttr("aria-label")).toContain("summarized from about 6,528");
		expect([meter.getAttr("role"), meter.getAttr("aria-valuemax")]).toEqual(["meter", "7680"]);
		expect(meter.hasClass("discover-chat-meter-warn")).toBe(false);
		m.view.setDraft("x".repeat(4 * 4700));
		await wait(200);
		expect(meter.textContent).toBe("4.8K / 7.7K tokens");
		expect(meter.hasClass("discover-chat-meter-warn")).toBe(true);
		m.view.setDraft("x".repeat(4 * 6300));
		await wait(200);
		expect(meter.hasClass("discover-chat-meter-danger")).toBe(true);
		expect(meter.hasClass("discover-chat-meter-warn")).toBe(false);
	});
});

describe("slash commands", () => {
	it("offers /summarize and sends it without history, with the whole note", async () => {
		const m = await setup();
		typeInto(m.input(), "/su");
		const menu = m.q(".discover-chat-command-menu");
		expect(menu.hasClass("discover-chat-hidden")).toBe(false);
		expect(menu.textContent).toContain("/summarize");
		pressKey(m.input(), "Enter");
		await flush();
		expect(m.chat.sent).toHaveLength(1);
		expect(m.chat.sent[0]!.text).toBe("Summarize this note.");
		expect(m.chat.sent[0]!.opts.includeHistory).toBe(false);
		expect(sentContext(m.chat.sent[0]!.opts)).toContain("Alpha is the first note.");
	});
});

describe("sessions", () => {
	it("reopens the active session scrolled to the end, rendering lazily", async () => {
		const m = await setup({
			before: (w) => {
				const msgs = Array.from({ length: 1000 }, (_, i) => message(i % 2 ? "assistant" : "user", `Message ${i}`));
				const s = w.sessions.add("Long chat", msgs);
				w.host.settings.activeSessionId = s.id;
			},
		});
		expect(m.q(".discover-chat-title").textContent).toBe("Long chat");
		expect(m.messages()).toHaveLength(30);
		expect(m.texts().at(-1)).toBe("Message 999");
		m.q<HTMLButtonElement>(".discover-chat-load-earlier").click();
		await flush();
		expect(m.messages()).toHaveLength(60);
		expect(m.texts()[0]).toBe("Message 940");
	});

	it("shows a line where earlier messages were summarized, never the summary itself", async () => {
		const m = await setup({
			before: (w) => {
				const a = message("user", "Old question");
				const b = message("assistant", "Old answer");
				const summary = message("system", "SUMMARY TEXT", { summaryOf: b.id });
				const s = w.sessions.add("Chat", [summary, a, b, message("user", "New question")]);
				w.host.settings.activeSessionId = s.id;
			},
		});
		expect(m.root.textContent).not.toContain("SUMMARY TEXT");
		const line = m.q(".discover-chat-summary-line");
		expect(line.previousElementSibling?.textContent).toContain("Old answer");
	});

	it("remembers the new session as active and renames it from the header", async () => {
		const m = await setup();
		await type(m, "First question");
		m.chat.finish();
		await flush();
		expect(m.host.settings.activeSessionId).toBe(m.chat.sessionId);
		const title = m.q<HTMLButtonElement>(".discover-chat-title");
		expect(title.textContent).toBe("First question");
		title.click();
		const input = m.q<HTMLInputElement>(".discover-chat-title-input");
		input.value = "Renamed";
		pressKey(input, "Enter");
		await flush();
		expect(m.sessions.sessions.get(m.chat.sessionId!)!.title).toBe("Renamed");
	});

	it("hints that the title renames: a pencil icon beside the title text, and a label that says so", async () => {
		const m = await setup();
		await type(m, "First question");
		m.chat.finish();
		await flush();
		const title = m.q<HTMLButtonElement>(".discover-chat-title");
		expect(title.querySelector(".discover-chat-title-text")?.textContent).toBe("First question");
		expect(title.querySelector(".discover-chat-title-pencil svg.lucide-pencil")).not.toBeNull();
		expect(title.getAttribute("aria-label")).toBe("Rename “First question”");
	});

	it("remembers the chat and shows its title as soon as the question is saved, before the answer", async () => {
		const m = await setup();
		await type(m, "Why is the sky blue?");
		await flush();
		expect(m.chat.busy).toBe(true);
		expect(m.host.settings.activeSessionId).toBe(m.chat.sessionId);
		expect(m.q(".discover-chat-title").textContent).toBe("Why is the sky blue?");
	});

	it("keeps working when settings cannot be saved", async () => {
		const m = await setup();
		m.host.saveSettings = () => Promise.reject(new Error("data.json is read-only"));
		await type(m, "Still works?");
		m.chat.token("Yes.");
		m.chat.finish();
		await flush();
		expect(m.texts()).toEqual(["Still works?", "Yes."]);
		expect(m.host.settings.activeSessionId).toBe(m.chat.sessionId);
		expect(m.button().getAttr("aria-label")).toBe("Send message");
		clearNotices();
		m.q<HTMLButtonElement>('[aria-label="New chat"]').click();
		await flush();
		expect(m.messages()).toHaveLength(0);
		expect(m.host.settings.activeSessionId).toBe(m.chat.sessionId);
		expect(notices()).toEqual([]);
	});

	it("New chat starts an empty chat and makes it the active one", async () => {
		const m = await setup();
		await type(m, "First question");
		m.chat.finish();
		await flush();
		const first = m.chat.sessionId;
		m.q<HTMLButtonElement>('[aria-label="New chat"]').click();
		await flush();
		expect(m.chat.sessionId).not.toBe(first);
		expect(m.host.settings.activeSessionId).toBe(m.chat.sessionId);
		expect(m.messages()).toHaveLength(0);
		expect(m.q(".discover-chat-title").textContent).toBe("New chat");
		// An empty chat is already new: clicking again leaves no empty chats behind in history.
		const count = m.sessions.sessions.size;
		m.q<HTMLButtonElement>('[aria-label="New chat"]').click();
		await flush();
		expect(m.sessions.sessions.size).toBe(count);
		expect(document.activeElement).toBe(m.input());
	});

	it("deleting the open chat in history replaces it with a new one, stopping a running answer first", async () => {
		const m = await setup();
		await type(m, "Doomed chat");
		m.chat.token("partial");
		const doomed = m.chat.sessionId;
		m.q<HTMLButtonElement>('[aria-label="Open history"]').click();
		await flush();
		await flush();
		Array.from(document.body.querySelectorAll<HTMLButtonElement>(".discover-chat-history-actions button")).find((b) => b.textContent === "Delete")!.click();
		await flush();
		document.body.querySelector<HTMLButtonElement>(".discover-chat-confirm .mod-warning")!.click();
		await flush();
		await flush();
		expect(m.chat.busy).toBe(false);
		expect(m.chat.sessionId).not.toBe(doomed);
		expect(m.host.settings.activeSessionId).toBe(m.chat.sessionId);
		expect(m.messages()).toHaveLength(0);
		pressKey(window, "Escape");
	});

	it("a rename that cannot be saved says so and shows the saved title", async () => {
		const m = await setup();
		await type(m, "Original title");
		m.chat.finish();
		await flush();
		m.sessions.rename = () => Promise.reject(new Error("disk full"));
		clearNotices();
		m.q<HTMLButtonElement>(".discover-chat-title").click();
		const input = m.q<HTMLInputElement>(".discover-chat-title-input");
		input.value = "Lost name";
		pressKey(input, "Enter");
		await flush();
		await flush();
		expect(notices()).toEqual(["Couldn't rename the chat: disk full"]);
		expect(m.q(".discover-chat-title").textContent).toBe("Original title");
	});

	it("saves the partial answer as a quit task, which Obsidian waits for", async () => {
		const m = await setup();
		await type(m, "Stream until quit");
		m.chat.token("partial");
		const tasks: Promise<unknown>[] = [];
		m.app.workspace.trigger("quit", { add: (task: () => Promise<unknown>) => tasks.push(task()) });
		expect(tasks).toHaveLength(1);
		await Promise.all(tasks);
		expect(m.chat.flushCalls).toBe(1);
		expect(m.closeCalls).toBe(1);
	});

	it("does not switch chats under a running answer, and says why", async () => {
		const other = { id: "" };
		const m = await setup({ before: (w) => (other.id = w.sessions.add("Other chat", [message("user", "Elsewhere")]).id) });
		await type(m, "Still answering");
		clearNotices();
		await m.view.openSession(other.id);
		expect(m.q(".discover-chat-title").textContent).toBe("Still answering");
		expect(notices()).toEqual(["Stop the current answer before switching chats."]);
		m.chat.finish();
		await flush();
		await m.view.openSession(other.id);
		expect(m.q(".discover-chat-title").textContent).toBe("Other chat");
		expect(m.texts()).toEqual(["Elsewhere"]);
	});

	it("flushes a partial answer and pending calibration when the panel closes", async () => {
		const m = await setup();
		await type(m, "Stream forever");
		m.chat.token("partial");
		m.leaf.detach();
		await flush();
		expect(m.chat.flushCalls).toBe(1);
		expect(m.closeCalls).toBe(1);
		mounted = undefined;
	});
});

describe("starting", () => {
	it("keeps the draft when the panel is closed and opened again", async () => {
		const m = await setup();
		typeInto(m.input(), "Half a thought");
		m.leaf.detach();
		await flush();
		const leaf = m.app.workspace.getRightLeaf(false)!;
		const view = new DiscoverView(leaf as unknown as O.WorkspaceLeaf, m.host, m.factory, { scheduler: new ManualFrames().options });
		await leaf.open(view as unknown as Parameters<typeof leaf.open>[0]);
		expect(view.contentEl.querySelector<HTMLTextAreaElement>(".discover-chat-input")!.value).toBe("Half a thought");
		leaf.detach();
	});

	it("a panel closed while its engine is still being built closes that engine and keeps none", async () => {
		const app = await createTestApp({ files: {} });
		const world = fakeWorld(asObsidianApp(app));
		let release: () => void = () => undefined;
		const factory: ChatRuntimeFactory = (h, onEvent) => new Promise((resolve) => (release = () => void world.factory(h, onEvent).then(resolve)));
		const leaf = app.workspace.getRightLeaf(false)!;
		const view = new DiscoverView(leaf as unknown as O.WorkspaceLeaf, world.host, factory, { scheduler: new ManualFrames().options });
		const opening = leaf.open(view as unknown as Parameters<typeof leaf.open>[0]);
		await flush();
		leaf.detach();
		await flush();
		release();
		await opening;
		await flush();
		expect(world.closeCalls).toBe(1);
		expect(view.chatRuntime).toBeUndefined();
	});

	it("shows why the engine could not start, and Retry starts it", async () => {
		let attempts = 0;
		const m = await setup({
			before: (w) => {
				const real = w.factory;
				w.factory = (h, onEvent) => (++attempts === 1 ? Promise.reject(new Error("Unknown provider")) : real(h, onEvent));
			},
		});
		expect(m.q(".discover-chat-error").textContent).toContain("The chat could not start");
		expect(m.q(".discover-chat-error").textContent).toContain("Unknown provider");
		m.q<HTMLButtonElement>(".discover-chat-retry").click();
		await flush();
		expect(m.view.chatRuntime).toBeDefined();
		expect(m.root.querySelector(".discover-chat-error")).toBeNull();
	});
});

describe("the chats folder changed while a chat is open", () => {
	it("sends nothing, starts a new chat, says where the old one is, and puts the message back", async () => {
		const m = await setup();
		await type(m, "First question");
		m.chat.finish();
		await flush();
		const before = m.chat.sessionId;
		m.runtime.syncSettings = () => Promise.resolve({ chatLeftBehind: { from: "Old/Chats", to: "New/Chats" } });
		await type(m, "Follow-up question");
		expect(m.chat.sent.map((s) => s.text)).toEqual(["First question"]);
		expect(m.input().value).toBe("Follow-up question");
		expect(m.chat.sessionId).not.toBe(before);
		expect(m.messages()).toHaveLength(0);
		expect(m.root.textContent).toContain("Chats are now saved in “New/Chats”. The earlier chat stays in “Old/Chats”.");
	});
});
