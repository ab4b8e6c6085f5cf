// @vitest-environment happy-dom
// The answer being streamed is on disk, as the panel drives it: hiding or leaving the
// page checkpoints at once, and an answer a crash interrupted shows marked "Interrupted".
import { afterEach, describe, expect, it } from "vitest";
import type * as O from "obsidian";
import { asObsidianApp, createTestApp, flush, openNote, pressKey, typeInto, type App } from "../obsidian/harness";
import { StubAdapter } from "../support/stubAdapter";
import { ChatService } from "../../src/chat/ChatService";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { DiscoverView } from "../../src/ui/panel/DiscoverView";
import type { ChatRuntimeFactory, DiscoverHost } from "../../src/ui/host";
import { testSettings } from "./fakes";
import { until } from "../support/chatHarness";

const cleanups: (() => void)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0)) c();
	await flush();
	document.body.empty();
	setVisibility("visible");
});

function setVisibility(state: DocumentVisibilityState): void {
	Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
}

const PARTIAL = "Once upon a time, in a vault far away";

async function mount(store: MemoryFileStore, activeSessionId?: string) {
	const app: App = await createTestApp({ files: { "Notes/Alpha.md": "# Alpha\n" } });
	await openNote(app, "Notes/Alpha.md");
	const host: DiscoverHost = { app: asObsidianApp(app), settings: testSettings({ activeSessionId }), saveSettings: () => Promise.resolve() };
	const factory: ChatRuntimeFactory = (h, onEvent) => {
		const sessions = new SessionManager(store);
		// Timers that never fire: only the page events can checkpoint in these tests.
		const chat = new ChatService({ adapter: new StubAdapter({ hangAfter: PARTIAL, chunkSize: 6 }), sessions, settings: h.settings, onEvent, timers: { set: () => 0, clear: () => undefined } });
		return Promise.resolve({ chat, sessions, adapter: () => undefined, syncSettings: () => Promise.resolve() });
	};
	const leaf = app.workspace.getRightLeaf(false)!;
	const view = new DiscoverView(leaf as unknown as O.WorkspaceLeaf, host, factory);
	await leaf.open(view as unknown as Parameters<typeof leaf.open>[0]);
	cleanups.push(() => leaf.detach());
	const root = view.contentEl;
	const bodies = () => Array.from(root.querySelectorAll(".discover-chat-message-body")).map((e) => e.textContent ?? "");
	const streamPartial = async () => {
		const input = root.querySelector<HTMLTextAreaElement>(".discover-chat-input")!;
		typeInto(input, "Tell me a story");
		pressKey(input, "Enter");
		await flush();
		await until(() => bodies()[1] === PARTIAL, "the partial answer");
	};
	/** What a fresh start of the app would find on disk. */
	const onDisk = async () => {
		const id = host.settings.activeSessionId;
		return id === undefined ? [] : (await new SessionManager(store).load(id)).messages;
	};
	return { root, host, bodies, streamPartial, onDisk };
}

describe("the panel keeps the answer being streamed on disk", () => {
	it("pagehide checkpoints the partial answer at once", async () => {
		const store = new MemoryFileStore();
		const m = await mount(store);
		await m.streamPartial();
		expect((await m.onDisk()).map((x) => x.role)).toEqual(["user"]);
		window.dispatchEvent(new Event("pagehide"));
		await flush();
		await until(() => store.files.size > 0 && [...store.files.values()].some((t) => t.includes('"interrupted":true')), "the checkpoint");
		expect((await m.onDisk()).at(-1)).toMatchObject({ role: "assistant", content: PARTIAL, interrupted: true });
	});

	it("visibilitychange to hidden checkpoints at once; to visible it does not", async () => {
		const store = new MemoryFileStore();
		const m = await mount(store);
		await m.streamPartial();
		document.dispatchEvent(new Event("visibilitychange"));
		await flush();
		expect((await m.onDisk()).map((x) => x.role)).toEqual(["user"]);
		setVisibility("hidden");
		document.dispatchEvent(new Event("visibilitychange"));
		await flush();
		await until(() => [...store.files.values()].some((t) => t.includes('"interrupted":true')), "the checkpoint");
		expect((await m.onDisk()).at(-1)).toMatchObject({ role: "assistant", content: PARTIAL, interrupted: true });
	});

	it("after a crash, the partial answer shows marked Interrupted; a stopped one shows no such mark", async () => {
		const store = new MemoryFileStore();
		const first = await mount(store);
		await first.streamPartial();
		window.dispatchEvent(new Event("pagehide"));
		await until(() => [...store.files.values()].some((t) => t.includes('"interrupted":true')), "the checkpoint");
		// The crash: the first panel is never closed; the app starts again on what the disk holds.
		const again = await mount(store, first.host.settings.activeSessionId);
		await until(() => again.bodies().length === 2, "the reopened chat");
		expect(again.bodies()).toEqual(["Tell me a story", PARTIAL]);
		const marks = Array.from(again.root.querySelectorAll(".discover-chat-message-interrupted")).map((e) => e.textContent);
		expect(marks).toEqual(["Interrupted"]);
		expect(again.root.querySelector(".discover-chat-message-stopped")).toBeNull();
	});
});
