import type { CallIdSource } from "./callIds";
import { startTimer, stopTimer } from "../core/timers";
import type { SessionManager } from "../sessions/SessionManager";
import { memoizeEstimate, type EstimateFn } from "./promptCost";
import type { EarlierSources } from "./promptSentSources";
import type { TokenCalibration } from "./calibration";
import { normalizeChatSettings } from "./chatSettings";
import { ChatError } from "./errors";
import { previewPrompt, type PromptPreview } from "./preview";
import { estimateTokens } from "./tokens";
import type { CheckpointTimers } from "./answerCheckpoint";
import type { ChatEvent } from "./turnPrompt";
import { TurnRunner, type SendOptions } from "./turnRunner";
import { defaultSourceFitter } from "./defaultFitter";
import type { SourceFitter } from "./sourceFitter";
import type { ChatMessage, ChatSettings, ContextSource, ImageRef, LLMAdapter, PromptImage, Session, Tool, ToolApproval, ToolCall } from "../core/types";
import { stoppedBeforeSending } from "./turnChecks";
import { Branching } from "./branching";
import type { TurnMode } from "./turnMode";
import type { Alternatives } from "../sessions/SessionManager";
import type { ImageReader } from "./turnImages";
import type { TurnToolSource } from "./toolSources";

export type { CheckpointTimers } from "./answerCheckpoint";
export type { PromptPreview } from "./preview";
export type { ChatEvent } from "./turnPrompt";
export type { SendOptions } from "./turnRunner";
export type { ToolCard, ToolCardState } from "./toolCard";
export type { Alternatives } from "../sessions/SessionManager";
export type { TurnToolSource, OutsideToolProblem } from "./toolSources";

export interface ChatServiceOptions {
	adapter: LLMAdapter;
	sessions: SessionManager;
	settings?: Partial<ChatSettings>;
	/** The model's name: the key of its token calibration. */
	model?: string;
	calibration?: TokenCalibration;
	now?: () => number;
	/** Schedules the checkpoints of a streaming answer (default: the window's or Node's timers). */
	timers?: CheckpointTimers;
	onEvent?: (event: ChatEvent) => void;
	/** Fits a source larger than its share of the budget (default: defaultSourceFitter). */
	/**
	 * Share of the prompt budget this turn's sources leave free so the next turns can repeat the
	 * prompt as a cache's prefix (default SOURCES_HEADROOM_SHARE; bench/promptCache.ts weighs it).
	 */
	sourcesHeadroomShare?: number;
	/** "stable": share of the budget each follow-up's own sources are guaranteed (default FRESH_SHARE, promptCycle.ts). */
	sourcesFreshShare?: number;
	/**
	 * Earlier turns' sources, each only while unchanged: "keep" repeats them exactly as sent while
	 * the budget allows (the previous request stays the next one's prefix); "yield" (the default,
	 * DEFAULT_EARLIER_SOURCES) only while this turn's sources fit whole beside them; "drop" sends only
	 * this turn's; "stable" while this turn's own passages keep a guaranteed share, then sheds them
	 * all at once, leaving room for the turns after (promptCycle.ts; bench/promptCache.ts measures them).
	 * A function is asked as each turn starts (the plugin's "Prompt layout" setting follows the server).
	 */
	earlierSources?: EarlierSources | (() => EarlierSources | undefined);
	sourceFitter?: SourceFitter;
	/** Tools the model may call during a turn (none by default). */
	tools?: Tool[];
	/**
	 * Asks the person about a call (default: read tools allowed, write tools declined). A denial's
	 * reason goes to the model ("The person declined: …"); no answer within 5 minutes is a denial.
	 */
	approve?: (call: ToolCall, tool: Tool) => Promise<ToolApproval>;
	/**
	 * Reads an attached image's bytes by its path (`ImageRef.path`) for a send: the vault in the
	 * plugin, node:fs headless. Without it, images are left out of the request with a note.
	 */
	readImage?: ImageReader;
	/**
	 * Makes the engine's id for each tool call (default: random, unique across chats). The server's
	 * own id is kept beside it only to answer the server. Injected in tests for stable ids.
	 */
	callIds?: CallIdSource;
	/**
	 * Tools from MCP servers (the plugin's server hub; McpToolSource fits): asked for at each turn's
	 * start, offered after `tools` (their schemas cleaned for the provider's dialect, in a fixed
	 * order), each asking before it runs. A server that fails is a warning; the turn goes on.
	 */
	mcpTools?: TurnToolSource;
	/** The servers the chat's approved agent names (its `mcp:` list); undefined: the servers turned on in settings. */
	mcpServers?: () => readonly string[] | undefined;
	/**
	 * Saves an image a tool's result carries (an MCP server's image content) as a file, like an
	 * attached image (the chats folder's attachments; node:fs headless), and gives its reference:
	 * the result then keeps it (saved with the chat, shown, reloaded) and the model gets it as an
	 * image, read through `readImage`. Without it, images are described in the result's text only.
	 */
	saveToolImage?: (image: PromptImage, name: string) => Promise<ImageRef>;
}

/** How long flush() (the app closing) waits for answers still being saved. */
const FLUSH_SAVE_WAIT_MS = 5000;

/**
 * One conversation with a model, one turn at a time: save the person's message, fit the
 * conversation into the window, stream the answer, save it. Its only state is the session as
 * saved, so a reloaded session continues exactly as it would have.
 */
export class ChatService {
	private adapter: LLMAdapter;
	private model: string;
	private settings: ChatSettings;
	private session: Session | undefined;
	private turn: { controller: AbortController; done: Promise<unknown> } | undefined;
	private readonly sessions: SessionManager;
	private readonly runner: TurnRunner;
	private readonly fitter: SourceFitter;
	private readonly sourcesHeadroomShare: number | undefined;
	private readonly sourcesFreshShare: number | undefined;
	private readonly earlierSources: () => EarlierSources | undefined;
	/** The latest session switch (newSession, loadSession), if any; settled otherwise. */
	private switching: Promise<unknown> = Promise.resolve();
	/** Switches asked for, and the latest one applied: a later switch wins over an earlier, slower one. */
	private switchesAsked = 0;
	private switchApplied = 0;
	private readonly branching: Branching;
	/** The tools switch of a chat not created yet: saved with it when its first message creates it. */
	private toolsForNew = true;
	private readonly onEvent: (event: ChatEvent) => void;

	constructor(opts: ChatServiceOptions) {
		this.adapter = opts.adapter;
		this.sessions = opts.sessions;
		this.model = opts.model ?? "";
		this.settings = normalizeChatSettings(opts.settings);
		const listener = opts.onEvent;
		this.fitter = opts.sourceFitter ?? defaultSourceFitter;
		this.sourcesHeadroomShare = opts.sourcesHeadroomShare;
		this.sourcesFreshShare = opts.sourcesFreshShare;
		const policy = opts.earlierSources;
		this.earlierSources = typeof policy === "function" ? policy : () => policy;
		this.onEvent = (event) => {
			try {
				listener?.(event);
			} catch (err) {
				// A failing listener (UI) must not break a turn.
				console.error("Discover: chat event listener failed", err);
			}
		};
		this.runner = new TurnRunner({
			chat: {
				switching: () => this.switching,
				current: () => ({ adapter: this.adapter, model: this.model, settings: this.settings }),
				session: () => this.session,
				adopt: (session) => this.adoptNew(session),
			},
			sessions: this.sessions,
			calibration: opts.calibration,
			// Raw estimates by text, so an unchanged history is not re-estimated every send.
			rawEstimate: memoizeEstimate(estimateTokens),
			fitter: this.fitter,
			sourcesHeadroomShare: opts.sourcesHeadroomShare,
			sourcesFreshShare: opts.sourcesFreshShare,
			earlierSources: this.earlierSources,
			now: opts.now ?? Date.now,
			timers: opts.timers ?? { set: startTimer, clear: stopTimer },
			onEvent: this.onEvent,
			tools: opts.tools,
			approve: opts.approve,
			readImage: opts.readImage,
			callIds: opts.callIds,
			outsideTools: opts.mcpTools,
			outsideServers: opts.mcpServers,
			saveToolImage: opts.saveToolImage,
		});
		this.branching = new Branching({
			sessions: this.sessions,
			session: () => this.session,
			adopt: (session) => {
				this.session = session;
			},
			busy: () => this.busy,
			turn: (text, sendOpts, mode) => this.startTurn(text, sendOpts, mode),
		});
	}

	get sessionId(): string | undefined {
		return this.session?.id;
	}

	/** [system summary?], then user/assistant messages in order. Not a copy: do not mutate. */
	get messages(): readonly ChatMessage[] {
		return this.session?.messages ?? [];
	}

	get busy(): boolean {
		return this.turn !== undefined;
	}

	setAdapter(adapter: LLMAdapter, model?: string): void {
		this.adapter = adapter;
		if (model !== undefined) this.model = model;
	}

	updateSettings(settings: Partial<ChatSettings>): void {
		this.settings = normalizeChatSettings(settings, this.settings);
	}

	/** Whether the chat offers the model its tools: its saved switch (Session.tools); new chats and chats without one: on. */
	get toolsOn(): boolean {
		return (this.session === undefined ? this.toolsForNew : this.session.tools) !== false;
	}

	/**
	 * Sets the chat's tools switch: off, its messages (and the preview's estimate) go without tools.
	 * Saved with the chat (a `tools` record), so a reopened chat keeps it; a chat not created yet
	 * keeps it until its first message creates it. It applies at once; a save that fails rejects.
	 */
	async setTools(on: boolean): Promise<void> {
		const session = this.session;
		if (session === undefined) {
			this.toolsForNew = on;
			return;
		}
		if (this.toolsOn === on) return;
		session.tools = on;
		await this.sessions.setTools(session.id, on);
	}

	/** The chat the first message created: it takes the switch set before it existed. */
	private adoptNew(session: Session): void {
		this.session = session;
		if (this.toolsForNew) return;
		session.tools = false;
		this.sessions.setTools(session.id, false).catch((err: unknown) => {
			const detail = err instanceof Error ? err.message : String(err);
			this.onEvent({ type: "warning", message: "The chat's tools switch could not be saved: a reopened chat will have tools on.", code: "tools_switch_not_saved", detail });
		});
	}

	/** Starts a new session (stopping a running answer first, which keeps it). */
	newSession(): Promise<Session> {
		return this.switchSession(() => this.sessions.create());
	}

	/**
	 * Continues a saved session (stopping a running answer first, which keeps it). `at` (a search
	 * hit's message) opens the branch that message is on.
	 */
	loadSession(id: string, opts: { at?: string } = {}): Promise<Session> {
		return this.switchSession(async () => {
			try {
				return await this.sessions.load(id, opts);
			} catch (err) {
				throw new ChatError("no_session", `That chat could not be opened: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
			}
		});
	}

	/**
	 * The answer running when a switch is asked for is stopped (it belongs to the chat being left);
	 * a send made after the call waits for the switch, so it goes to the chat the person now sees.
	 * The latest switch wins: one whose store never answers does not hold up the next.
	 */
	private switchSession(open: () => Promise<Session>): Promise<Session> {
		const running = this.turn;
		running?.controller.abort();
		const asked = ++this.switchesAsked;
		const run = (async () => {
			await running?.done.catch(() => undefined);
			const session = await open();
			if (asked > this.switchApplied) {
				this.switchApplied = asked;
				this.session = session;
				this.toolsForNew = true;
			}
			return session;
		})();
		this.switching = run.catch(() => undefined);
		return run;
	}

	/** Stops the running answer; the partial answer is kept. Does nothing when idle. */
	cancel(): void {
		this.turn?.controller.abort();
	}

	/**
	 * Writes the answer being streamed to the chat's file at once (the panel calls it when the app
	 * is hidden or unloaded, the last moment a write may still land). Does nothing when idle.
	 */
	checkpointNow(): Promise<void> {
		return this.runner.checkpointNow();
	}

	/**
	 * Saves a partial answer when the app closes mid-stream: stops the turn and waits until it is
	 * saved (a few seconds at most: a store that hangs must not hold up closing the app).
	 */
	async flush(): Promise<void> {
		const turn = this.turn;
		if (turn !== undefined) {
			turn.controller.abort();
			await turn.done.catch(() => undefined);
		}
		await this.runner.savesSettled(FLUSH_SAVE_WAIT_MS);
	}

	/**
	 * The estimator a send would use now for sources (the model's calibrated estimate): the same
	 * function while the model and its calibration stay the same, so passages priced with it ahead
	 * of a send (preparePassages) are found by that send.
	 */
	sourceEstimator(): EstimateFn {
		return this.runner.estimatorFor(this.model, this.settings.imageTokens);
	}

	/**
	 * The estimate for a draft, for the budget meter and the chips (`context`: the active note's
	 * fit; `sources`: every source's; `tools`: whether tools are offered, default the chat's switch):
	 * nothing is sent or saved.
	 */
	previewPrompt(draft: string, opts: { context?: string; contextName?: string; sources?: readonly ContextSource[]; includeHistory?: boolean; images?: readonly ImageRef[]; tools?: boolean } = {}): PromptPreview {
		const toolTokens = this.runner.toolDefinitionsTokens(this.model, this.settings, opts.tools ?? this.toolsOn);
		return previewPrompt({ settings: this.settings, messages: this.session?.messages ?? [], draft, ...opts, estimate: this.runner.estimatorFor(this.model, this.settings.imageTokens), fitter: this.fitter, headroomShare: this.sourcesHeadroomShare, freshShare: this.sourcesFreshShare, earlierSources: this.earlierSources(), margin: this.runner.marginFor(this.model, this.session?.id), toolTokens });
	}

	/**
	 * Sends one message and resolves with the assistant's answer (a stopped answer resolves too,
	 * with `cancelled: true`). Rejects with a ChatError (busy, message_too_long, …) or the
	 * adapter's error (with its `kind`); the person's message is saved either way, except when
	 * it was never sent (busy, too long, empty, stopped before it was saved: an `aborted` LLMError):
	 * then the caller still holds the text.
	 */
	sendMessage(text: string, opts: SendOptions = {}): Promise<ChatMessage> {
		return this.startTurn(text, opts);
	}

	/**
	 * A new answer to the last message of yours on the active branch; the answer it had stays as an
	 * alternative (alternatives() lists them). Resolves and rejects as sendMessage.
	 */
	regenerate(opts: SendOptions = {}): Promise<ChatMessage> {
		return this.branching.regenerate(opts);
	}

	/**
	 * Sends `text` in place of your message `id`: the chat branches before it, and the earlier
	 * version with everything after it stays as an alternative. Resolves and rejects as sendMessage;
	 * rejected before the new text was saved (stopped, the store refused it), the chat stays on the
	 * branch it was on, with message `id`, and the caller still holds the text.
	 */
	editMessage(id: string, text: string, opts: SendOptions = {}): Promise<ChatMessage> {
		return this.branching.editMessage(id, text, opts);
	}

	/**
	 * Goes on with a stopped, interrupted or cut-off last answer: the model gets the answer so far
	 * and is asked to continue it; the continuation is appended to that same answer, which resolves.
	 * If it fails, the answer stays as it was. Rejects with ChatError "no_such_turn" when the last
	 * answer is complete.
	 */
	continueAnswer(opts: SendOptions = {}): Promise<ChatMessage> {
		return this.branching.continueAnswer(opts);
	}

	/** Hides the turn holding message `id` (your message and its answer) from the active branch; nothing is erased. */
	deleteTurn(id: string): Promise<void> {
		return this.branching.deleteTurn(id);
	}

	/** Brings back a turn deleteTurn hid (SessionManager.hiddenTurns lists them). */
	restoreTurn(id: string): Promise<void> {
		return this.branching.restoreTurn(id);
	}

	/** The alternatives of message `id` (itself included), for "2 / 3". */
	alternatives(id: string): Promise<Alternatives> {
		return this.branching.alternatives(id);
	}

	/** Makes the branch through message `id` (an alternative), down to its newest message, the active one. */
	switchBranch(id: string): Promise<void> {
		return this.branching.switchBranch(id);
	}

	private startTurn(text: string, opts: SendOptions, mode?: TurnMode): Promise<ChatMessage> {
		// Stopped before it began: nothing is saved and nothing is asked.
		if (opts.signal?.aborted === true) return Promise.reject(stoppedBeforeSending());
		if (this.turn !== undefined) return Promise.reject(ChatError.busy());
		const controller = new AbortController();
		const outer = opts.signal;
		const forward = (): void => controller.abort();
		outer?.addEventListener("abort", forward, { once: true });
		const done = this.runner.run(text, opts, controller.signal, mode).finally(() => {
			outer?.removeEventListener("abort", forward);
			this.turn = undefined;
			this.runner.endTurn();
		});
		this.turn = { controller, done };
		return done;
	}
}
