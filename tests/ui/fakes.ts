// Small, scriptable stand-ins for the engine so the panel's tests control every token and failure.
import type { ChatMessage, ChatSettings, ContextSource, LLMAdapter, Role, Session, SourceFit } from "../../src/core/types";
import type { ChatRuntime, ChatRuntimeFactory, DiscoverHost, PanelSettings } from "../../src/ui/host";
import type { ChatEvent, ChatPort, DiagnosableAdapter, PromptPreview, SearchHit, SendOptions, SessionSummary, SessionsPort } from "../../src/ui/ports";
import { DEFAULT_SETTINGS } from "../../src/settings/settings";
import { chatUsage } from "../../src/core/answerStats";
import { sessionToMarkdown, type MarkdownExportOptions } from "../../src/sessions/markdown";
import type { App } from "obsidian";

let counter = 0;
export function message(role: Role, content: string, extra: Partial<ChatMessage> = {}): ChatMessage {
	counter++;
	return { id: `m${String(counter).padStart(6, "0")}`, role, content, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, counter)).toISOString(), ...extra };
}

export class FakeSessions implements SessionsPort {
	readonly sessions = new Map<string, Session>();
	listCalls = 0;
	loadCalls = 0;
	onChange?: (sessionId: string) => void;
	/** Resolvers for searches the test wants to finish by hand. */
	heldSearches: { query: string; resolve: (hits: SearchHit[]) => void }[] = [];
	holdSearches = false;
	searchCalls: string[] = [];
	warmCalls = 0;

	warmSearch(): Promise<void> {
		this.warmCalls++;
		return Promise.resolve();
	}

	add(title: string, messages: ChatMessage[], updatedAt = new Date().toISOString()): Session {
		const id = `s${String(++counter).padStart(6, "0")}`;
		const session: Session = { id, title, createdAt: updatedAt, updatedAt, messages };
		this.sessions.set(id, session);
		return session;
	}

	list(): Promise<SessionSummary[]> {
		this.listCalls++;
		const all = [...this.sessions.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
		return Promise.resolve(
			all.map((s) => {
				const visible = s.messages.filter((m) => m.role !== "system");
				const usage = chatUsage(s.messages);
				return { id: s.id, title: s.title, createdAt: s.createdAt, updatedAt: s.updatedAt, messageCount: visible.length, preview: visible[visible.length - 1]?.content ?? "", ...(usage ? { usage } : {}) };
			}),
		);
	}

	load(id: string): Promise<Session> {
		this.loadCalls++;
		const s = this.sessions.get(id);
		return s ? Promise.resolve({ ...s, messages: [...s.messages] }) : Promise.reject(new Error(`No session ${id}`));
	}

	rename(id: string, title: string): Promise<void> {
		const s = this.sessions.get(id);
		if (s) s.title = title;
		return Promise.resolve();
	}

	delete(id: string): Promise<void> {
		this.sessions.delete(id);
		return Promise.resolve();
	}

	search(query: string): Promise<SearchHit[]> {
		this.searchCalls.push(query);
		const q = query.toLowerCase();
		const hits: SearchHit[] = [];
		for (const s of this.sessions.values())
			for (const m of s.messages)
				if (m.role !== "system" && m.content.toLowerCase().includes(q)) hits.push({ sessionId: s.id, messageId: m.id, role: m.role, snippet: m.content.slice(0, 160), createdAt: m.createdAt });
		if (!this.holdSearches) return Promise.resolve(hits);
		return new Promise((resolve) => this.heldSearches.push({ query, resolve: () => resolve(hits) }));
	}

	exportMarkdown(id: string, opts?: MarkdownExportOptions): Promise<string> {
		const s = this.sessions.get(id);
		if (!s) return Promise.reject(new Error("missing"));
		return Promise.resolve(sessionToMarkdown(s, opts));
	}
}

interface Pending {
	content: string;
	thinking: string;
	opts: SendOptions;
	resolve: (m: ChatMessage) => void;
	reject: (err: unknown) => void;
}

/** A ChatPort whose answers the test streams token by token (`token`, `finish`, `fail`). */
export class FakeChat implements ChatPort {
	sessionId: string | undefined;
	messages: ChatMessage[] = [];
	busy = false;
	sent: { text: string; opts: SendOptions }[] = [];
	/** The engine's limit: 85% of the default 7,680-token prompt budget (see safeBudget). */
	budget = 6528;
	/** Messages longer than this are refused like the engine's message_too_long. */
	maxMessageChars = Infinity;
	/** When set, the user message is NOT recorded before failing (as for a refused message). */
	private pending: Pending | undefined;
	flushCalls = 0;
	settingsUpdates: Partial<ChatSettings>[] = [];

	constructor(
		readonly sessions: FakeSessions,
		private readonly emit: (e: ChatEvent) => void,
	) {}

	newSession(): Promise<Session> {
		const s = this.sessions.add("New chat", []);
		this.sessionId = s.id;
		this.messages = [];
		this.toolsForNew = true;
		return Promise.resolve(s);
	}

	/** The switch of a chat not created yet (the engine saves it when the first message creates the chat). */
	private toolsForNew = true;
	/** Every setTools call, in order. */
	toolsSet: boolean[] = [];
	/** When set, setTools fails with it (a store that cannot write). */
	failSetTools: Error | undefined;

	setTools(on: boolean): Promise<void> {
		this.toolsSet.push(on);
		if (this.failSetTools) return Promise.reject(this.failSetTools);
		const s = this.sessionId ? this.sessions.sessions.get(this.sessionId) : undefined;
		if (s) s.tools = on;
		else this.toolsForNew = on;
		return Promise.resolve();
	}

	async loadSession(id: string): Promise<Session> {
		const s = await this.sessions.load(id);
		this.toolsForNew = true;
		this.sessionId = id;
		this.messages = [...s.messages];
		return s;
	}

	async sendMessage(text: string, opts: SendOptions = {}): Promise<ChatMessage> {
		if (this.busy) throw Object.assign(new Error("A turn is already running."), { code: "busy" });
		if (text.length > this.maxMessageChars) {
			throw Object.assign(new Error(`Your message is about ${text.length} tokens; the most this model can take is ${this.maxMessageChars}.`), { code: "message_too_long" });
		}
		if (!this.sessionId) {
			const off = !this.toolsForNew;
			const s = await this.newSession();
			if (off) s.tools = false;
		}
		this.busy = true;
		this.sent.push({ text, opts });
		// Like the engine: the message records its images by reference.
		const user = message("user", text, opts.images !== undefined && opts.images.length > 0 ? { attachments: opts.images } : {});
		this.record(user);
		this.emit({ type: "message", message: user });
		return new Promise<ChatMessage>((resolve, reject) => {
			this.pending = { content: "", thinking: "", opts, resolve, reject };
			opts.signal?.addEventListener("abort", () => this.cancel());
		});
	}

	/** Streams one piece of the answer. */
	token(delta: string): void {
		if (!this.pending) throw new Error("Nothing is streaming.");
		this.pending.content += delta;
		this.pending.opts.onToken?.(delta);
	}

	/** Streams one piece of the model's thinking. */
	think(delta: string): void {
		if (!this.pending) throw new Error("Nothing is streaming.");
		this.pending.thinking += delta;
		this.pending.opts.onThinking?.(delta);
	}

	/** The text streamed so far was thinking (a `</think>` arrived): it moves to the thinking. */
	retract(): void {
		if (!this.pending) throw new Error("Nothing is streaming.");
		const moved = this.pending.content;
		this.pending.content = "";
		this.pending.opts.onTextRetracted?.();
		this.think(moved);
	}

	status(text: string): void {
		this.emit({ type: "status", text });
	}

	/** Any event as the engine would send it (a coded warning, a coded status). */
	event(e: ChatEvent): void {
		this.emit(e);
	}

	/** Ends the answer; `extra` is saved with it (e.g. its stats). */
	finish(extra: Partial<ChatMessage> = {}): ChatMessage {
		const p = this.take();
		const answer = message("assistant", p.content, { ...(p.thinking !== "" ? { thinking: p.thinking } : {}), ...extra });
		this.record(answer);
		this.emit({ type: "message", message: answer });
		p.resolve(answer);
		return answer;
	}

	fail(err: unknown): void {
		this.take().reject(err);
	}

	cancel(): void {
		if (!this.pending) return;
		const p = this.take();
		const answer = message("assistant", p.content, { cancelled: true, ...(p.thinking !== "" ? { thinking: p.thinking } : {}) });
		this.record(answer);
		this.emit({ type: "message", message: answer });
		p.resolve(answer);
	}

	setAdapter(_adapter: LLMAdapter): void {}

	updateSettings(settings: Partial<ChatSettings>): void {
		this.settingsUpdates.push(settings);
	}

	/** Previews asked for, with their sources (the chips' tests read them). */
	previews: { draft: string; sources: readonly ContextSource[]; tools?: boolean }[] = [];

	/**
	 * A simple stand-in for the engine's budget: 4 characters a token, the sources served in the
	 * order given (the engine orders by tier), each taking what it needs of the room left.
	 */
	previewPrompt(draft: string, opts: { context?: string; sources?: readonly ContextSource[]; includeHistory?: boolean; tools?: boolean } = {}): PromptPreview {
		const history = this.messages.reduce((n, m) => n + m.content.length, 0);
		const base = Math.ceil((draft.length + history) / 4) + 50;
		let room = Math.max(0, this.budget - base);
		const sources: ContextSource[] = [...(opts.sources ?? [])];
		if (opts.context !== undefined) sources.push({ id: "active", name: "Note", text: opts.context, kind: "active" });
		this.previews.push({ draft, sources, ...(opts.tools === undefined ? {} : { tools: opts.tools }) });
		const fits: SourceFit[] = [];
		let used = 0;
		for (const source of sources) {
			const total = Math.ceil(source.text.length / 4);
			const sent = Math.min(total, room);
			room -= sent;
			used += sent;
			const fit = sent === total ? "whole" : sent === 0 ? "none" : "excerpts";
			fits.push({ id: source.id, name: source.name, totalTokens: total, sentTokens: sent, fit, ...(fit === "excerpts" ? { passages: [{ start: 0, end: sent * 4, headingPath: "" }] } : {}) });
		}
		const active = sources.find((s) => s.kind === "active");
		const activeFit = active ? fits.find((f) => f.id === active.id) : undefined;
		const fraction = activeFit ? (activeFit.totalTokens === 0 ? 1 : activeFit.sentTokens / activeFit.totalTokens) : 0;
		const included = !activeFit || activeFit.fit === "none" ? "none" : activeFit.fit === "whole" ? "whole" : "partial";
		return { estimatedTokens: base + used, budget: this.budget, context: { included, fraction }, sources: fits };
	}

	flush(): Promise<void> {
		this.flushCalls++;
		return Promise.resolve();
	}

	checkpointCalls = 0;
	checkpointNow(): Promise<void> {
		this.checkpointCalls++;
		return Promise.resolve();
	}

	private record(m: ChatMessage): void {
		this.messages.push(m);
		const s = this.sessionId ? this.sessions.sessions.get(this.sessionId) : undefined;
		if (!s) return;
		s.messages.push(m);
		s.updatedAt = m.createdAt;
		if (s.title === "New chat" && m.role === "user") s.title = m.content.split("\n")[0]!.slice(0, 60);
	}

	private take(): Pending {
		const p = this.pending;
		if (!p) throw new Error("Nothing is streaming.");
		this.pending = undefined;
		this.busy = false;
		return p;
	}
}

/** Animation frames the test runs by hand. */
export class ManualFrames {
	private queue = new Map<number, () => void>();
	private next = 1;
	time = 0;
	readonly options = {
		requestFrame: (cb: () => void): number => {
			const h = this.next++;
			this.queue.set(h, cb);
			return h;
		},
		cancelFrame: (h: number): void => {
			this.queue.delete(h);
		},
		now: (): number => this.time,
		// Tests step frames one by one; the production pacing has its own test.
		minIntervalMs: 0,
	};

	get pending(): number {
		return this.queue.size;
	}

	/** Runs one frame: every callback queued before it. */
	frame(ms = 16): void {
		this.time += ms;
		const callbacks = [...this.queue.values()];
		this.queue.clear();
		for (const cb of callbacks) cb();
	}
}

export function testSettings(overrides: Partial<PanelSettings> = {}): PanelSettings {
	return { ...DEFAULT_SETTINGS, model: "llama3.2", ...overrides };
}

export interface FakeWorld {
	host: DiscoverHost & { saves: number };
	chat: FakeChat;
	sessions: FakeSessions;
	runtime: ChatRuntime;
	adapter: DiagnosableAdapter;
	/** Times the panel closed its runtime (saving pending calibration). */
	closeCalls: number;
}

export function fakeWorld(app: App, settings: PanelSettings = testSettings()): FakeWorld & { factory: ChatRuntimeFactory } {
	const sessions = new FakeSessions();
	const host = {
		app,
		settings,
		saves: 0,
		saveSettings(): Promise<void> {
			this.saves++;
			return Promise.resolve();
		},
	};
	const adapter: DiagnosableAdapter = {
		generate: () => Promise.reject(new Error("not used")),
		testConnection: () => Promise.resolve({ ok: false, kind: "unreachable", message: "Nothing answers at http://localhost:11434. Is Ollama running?" }),
	};
	const world = { host, sessions, adapter, closeCalls: 0 } as FakeWorld;
	const factory = (_h: DiscoverHost, onEvent: (e: ChatEvent) => void): Promise<ChatRuntime> => {
		world.chat = new FakeChat(sessions, onEvent);
		world.runtime = {
			chat: world.chat,
			sessions,
			adapter: () => adapter,
			syncSettings: () => Promise.resolve(),
			close: () => {
				world.closeCalls++;
				return Promise.resolve();
			},
		};
		return Promise.resolve(world.runtime);
	};
	return Object.assign(world, { factory });
}

/**
 * The text sent in the active note's place: the attached or editor selection (kind "selection")
 * or the note (kind "active"); undefined when neither went.
 */
export function sentContext(opts: SendOptions): string | undefined {
	return (opts.sources ?? []).find((s) => s.kind === "selection" || s.kind === "active")?.text;
}

/** The name the note's (or selection's) source went under. */
export function sentContextName(opts: SendOptions): string | undefined {
	return (opts.sources ?? []).find((s) => s.kind === "selection" || s.kind === "active")?.name;
}
