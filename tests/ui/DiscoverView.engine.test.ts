// @vitest-environment happy-dom
// The panel on the real engine: ChatService and SessionManager over an in-memory store, a stub model.
import { afterEach, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, flush, openNote, pressKey, type App } from "../obsidian/harness";
import { StubAdapter, type StubAdapterOptions } from "../support/stubAdapter";
import { ChatService } from "../../src/chat/ChatService";
import type { LLMAdapter } from "../../src/core/types";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { ChatRuntimeFactory, DiscoverHost } from "../../src/ui/host";
import { openEnginePanel } from "./enginePanel";
import { testSettings } from "./fakes";
import { until } from "../support/chatHarness";

const cleanups: (() => void)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0)) c();
	await flush();
	document.body.empty();
});

interface World {
	app: App;
	store: MemoryFileStore;
	host: DiscoverHost;
	adapter: { current: LLMAdapter };
}

async function world(opts: StubAdapterOptions = {}, settings = {}): Promise<World> {
	const app = await createTestApp({ files: { "Notes/Alpha.md": "# Alpha\n\nAlpha is the first note.\n" } });
	await openNote(app, "Notes/Alpha.md");
	const host: DiscoverHost = { app: asObsidianApp(app), settings: testSettings(settings), saveSettings: () => Promise.resolve() };
	return { app, store: new MemoryFileStore(), host, adapter: { current: new StubAdapter(opts) } };
}

async function mount(w: World) {
	const factory: ChatRuntimeFactory = (host, onEvent) => {
		const sessions = new SessionManager(w.store);
		const chat = new ChatService({ adapter: w.adapter.current, sessions, settings: host.settings, model: "stub", onEvent });
		return Promise.resolve({
			chat,
			sessions,
			adapter: () => undefined,
			syncSettings: () => {
				chat.setAdapter(w.adapter.current);
				return Promise.resolve();
			},
		});
	};
	const { view, leaf, root, send, idle } = await openEnginePanel(w.app, w.host, factory);
	cleanups.push(() => leaf.detach());
	const bodies = () => Array.from(root.querySelectorAll(".discover-chat-message-body")).map((e) => e.textContent ?? "");
	return { view, leaf, root, send, idle, bodies };
}

describe("the panel on the real engine", () => {
	it("streams, saves, and shows the same chat after a restart", async () => {
		const w = await world({ reply: "Alpha is **first**.", chunkSize: 3 });
		const first = await mount(w);
		await first.send("What is Alpha?");
		await first.idle();
		await until(() => first.bodies().length === 2 && first.bodies()[1] === "Alpha is first.", "the answer");
		expect(w.host.settings.activeSessionId).toBeDefined();
		first.leaf.detach();
		await flush();

		const again = await mount(w);
		await until(() => again.bodies().length === 2, "the reopened chat");
		expect(again.bodies()).toEqual(["What is Alpha?", "Alpha is first."]);
		expect(again.root.querySelector(".discover-chat-title")?.textContent).toBe("What is Alpha?");
	});

	it("Stop keeps the partial answer, marked and saved", async () => {
		const w = await world({ hangAfter: "Once upon a time", chunkSize: 5 });
		const m = await mount(w);
		await m.send("Tell me a story");
		await until(() => m.bodies()[1] === "Once upon a time", "the partial answer");
		m.root.querySelector<HTMLButtonElement>(".discover-chat-send")!.click();
		await m.idle();
		await until(() => m.root.querySelector(".discover-chat-message-stopped") !== null, "the stopped mark");
		await flush();
		// One bubble for the partial answer: the saved one replaces what streamed, never adds a copy.
		expect(m.bodies()).toEqual(["Tell me a story", "Once upon a time"]);
		const session = await new SessionManager(w.store).load(w.host.settings.activeSessionId!);
		expect(session.messages.map((x) => [x.role, x.content, x.cancelled === true])).toEqual([
			["user", "Tell me a story", false],
			["assistant", "Once upon a time", true],
		]);
	});

	it("Retry after a failure sends the same message once, without a duplicate", async () => {
		const w = await world({ failChatWith: "server" });
		const m = await mount(w);
		await m.send("Hello?");
		await until(() => m.root.querySelector(".discover-chat-error") !== null, "the error");
		expect(m.root.querySelector(".discover-chat-error")?.textContent).toContain("The server had a problem");
		w.adapter.current = new StubAdapter({ reply: "Hi there." });
		m.root.querySelector<HTMLButtonElement>(".discover-chat-retry")!.click();
		await flush();
		await m.idle();
		await until(() => m.bodies().includes("Hi there."), "the answer");
		const session = await new SessionManager(w.store).load(w.host.settings.activeSessionId!);
		expect(session.messages.filter((x) => x.role === "user").map((x) => x.content)).toEqual(["Hello?"]);
		expect(m.bodies()).toEqual(["Hello?", "Hi there."]);
	});

	it("marks where earlier messages were summarized, and never shows the summary", async () => {
		const w = await world({ reply: (_req, i) => `Answer ${i} ${"detail ".repeat(120)}` }, { maxPromptTokens: 1024, reservedResponseTokens: 128, recentMessagesToKeep: 2, minRecentMessagesToKeep: 1, includeActiveNote: false });
		const m = await mount(w);
		for (let i = 0; i < 6; i++) {
			await m.send(`Question ${i} ${"word ".repeat(60)}`);
			await m.idle();
		}
		await until(() => m.root.querySelector(".discover-chat-summary-line") !== null, "the summary line");
		expect(m.root.textContent).not.toMatch(/Summary [0-9a-z]+ of \d+ lines/);
	});

	it("a chat saved after the history was opened shows up at once, despite the list cache", async () => {
		const w = await world({ reply: "Fine." });
		const m = await mount(w);
		const history = () => m.root.querySelector<HTMLButtonElement>('[aria-label="Open history"]')!;
		const titles = () => Array.from(document.body.querySelectorAll(".discover-chat-history-item-title")).map((e) => e.textContent);
		history().click();
		await until(() => document.body.querySelector(".discover-chat-history-empty") !== null, "the empty history");
		pressKey(window, "Escape");
		await m.send("A brand new question");
		await m.idle();
		history().click();
		await until(() => titles().length === 1, "the new chat in the history");
		expect(titles()).toEqual(["A brand new question"]);
		pressKey(window, "Escape");
	});
});
