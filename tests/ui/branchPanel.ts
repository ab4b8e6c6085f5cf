// The panel on the real engine (ChatService over an in-memory store) with a stub model, for the
// branch tests: Regenerate, Edit, Continue, Delete turn, the arrows between alternatives.
import { asObsidianApp, createTestApp, openNote, type App } from "../obsidian/harness";
import { StubAdapter, type StubAdapterOptions } from "../support/stubAdapter";
import { ChatService } from "../../src/chat/ChatService";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { FileStore } from "../../src/sessions/store";
import type { ChatRuntimeFactory, DiscoverHost, PanelSettings, SettingsSync } from "../../src/ui/host";
import { openEnginePanel } from "./enginePanel";
import { testSettings } from "./fakes";

const mounted: (() => void)[] = [];

/** Detaches every panel mounted since the last call (afterEach). */
export function unmountBranchPanels(): void {
	for (const detach of mounted.splice(0)) detach();
}

export interface BranchPanelOptions {
	/** A chat saved before the panel opens, shown as the active one. */
	saved?: { store: MemoryFileStore; activeSessionId: string };
	/** Wraps the store the engine writes to (a store that hangs, or fails). */
	store?: (store: MemoryFileStore) => FileStore;
	settings?: Partial<PanelSettings>;
	/** What the runtime's settings sync reports on each send (default: nothing changed). */
	sync?: () => SettingsSync | undefined;
}

export async function mountBranchPanel(opts: StubAdapterOptions = {}, panelOpts: BranchPanelOptions = {}) {
	const { saved } = panelOpts;
	const app: App = await createTestApp({ files: { "Notes/Alpha.md": "# Alpha\n\nAlpha is the first note.\n" } });
	await openNote(app, "Notes/Alpha.md");
	const host: DiscoverHost = { app: asObsidianApp(app), settings: testSettings({ includeActiveNote: false, activeSessionId: saved?.activeSessionId, ...panelOpts.settings }), saveSettings: () => Promise.resolve() };
	const store = saved?.store ?? new MemoryFileStore();
	const adapter = { current: new StubAdapter(opts) };
	let sessions!: SessionManager;
	const asked = { alternatives: 0 };
	const factory: ChatRuntimeFactory = (h, onEvent) => {
		sessions = new SessionManager(panelOpts.store ? panelOpts.store(store) : store);
		const chat = new ChatService({ adapter: adapter.current, sessions, settings: h.settings, model: "stub", onEvent });
		const alternatives = chat.alternatives.bind(chat);
		chat.alternatives = (id) => {
			asked.alternatives++;
			return alternatives(id);
		};
		return Promise.resolve({
			chat,
			sessions,
			adapter: () => undefined,
			syncSettings: () => {
				chat.setAdapter(adapter.current);
				return Promise.resolve(panelOpts.sync?.());
			},
		});
	};
	const panel = await openEnginePanel(app, host, factory);
	mounted.push(() => panel.leaf.detach());
	const { root } = panel;
	const bodies = () => Array.from(root.querySelectorAll(".discover-chat-message:not(.discover-chat-message-streaming) .discover-chat-message-body")).map((e) => e.textContent ?? "");
	const messageEls = () => Array.from(root.querySelectorAll<HTMLElement>(".discover-chat-message"));
	const button = (el: HTMLElement, cls: string) => el.querySelector<HTMLButtonElement>(`.${cls}`)!;
	const last = () => messageEls()[messageEls().length - 1]!;
	const renderedCount = () => root.querySelectorAll(".discover-chat-message").length;
	const position = (el: HTMLElement) => el.querySelector(".discover-chat-branch-position")?.textContent;
	return { ...panel, app, host, store, adapter, asked, sessions: () => sessions, bodies, messageEls, button, last, position, renderedCount, stub: () => adapter.current };
}

export type BranchPanel = Awaited<ReturnType<typeof mountBranchPanel>>;
