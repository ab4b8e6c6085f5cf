import { errorKind } from "../providers/errors";
import type { SessionManager } from "../sessions/SessionManager";
import { memoizeEstimate, promptCost, type EstimateFn } from "./promptCost";
import { TokenCalibration, calibratedEstimate } from "./calibration";
import { normalizeChatSettings } from "./chatSettings";
import { compactHistory, compactionBudget, type CompactionBudget, type CompactionResult } from "./compaction";
import type { ContextInclusion } from "./contextTrim";
import { ChatError } from "./errors";
import { previewPrompt, type PromptPreview } from "./preview";
import { buildPrompt, type BuiltPrompt } from "./prompt";
import { isAbort } from "./summarizer";
import { estimateTokens } from "./tokens";
import { summaryMessage, uncoveredHistory } from "./transcript";
import { truncationWarning } from "./truncation";
import { TurnRecorder } from "./turnRecorder";
import type { ChatMessage, ChatSettings, LLMAdapter, PromptMessage, Session } from "./types";
import { fixedCost } from "./window";

export type { PromptPreview } from "./preview";

export type ChatEvent =
	| { type: "status"; text: string }
	| { type: "compacted"; summarizedCount: number }
	| { type: "warning"; message: string }
	| { type: "message"; message: ChatMessage }
	| { type: "prompt"; estimatedTokens: number; budget: number; context: ContextInclusion };

export interface ChatServiceOptions {
	adapter: LLMAdapter;
	sessions: SessionManager;
	settings?: Partial<ChatSettings>;
	/** The model's name: the key of its token calibration. */
	model?: string;
	calibration?: TokenCalibration;
	now?: () => number;
	onEvent?: (event: ChatEvent) => void;
}

export interface SendOptions {
	/** The document the message is about (the active note or a selection). */
	context?: string;
	contextName?: string;
	/** false: instructions, document and this message only (one-shot commands); still recorded. */
	includeHistory?: boolean;
	signal?: AbortSignal;
	onToken?: (delta: string) => void;
}

/** The prompt is forced this much smaller when the server says it overflowed anyway. */
const OVERFLOW_RETRY_SHRINK = 0.7;

interface PreparedHistory {
	summary?: string;
	recent: PromptMessage[];
	compacted: boolean;
}

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
	private readonly calibration: TokenCalibration | undefined;
	private readonly now: () => number;
	private readonly onEvent: (event: ChatEvent) => void;
	private readonly recorder: TurnRecorder;
	/** Raw estimates by text, so an unchanged history is not re-estimated every send. */
	private readonly rawEstimate: EstimateFn = memoizeEstimate(estimateTokens);

	constructor(opts: ChatServiceOptions) {
		this.adapter = opts.adapter;
		this.sessions = opts.sessions;
		this.model = opts.model ?? "";
		this.calibration = opts.calibration;
		this.settings = normalizeChatSettings(opts.settings);
		this.now = opts.now ?? Date.now;
		const listener = opts.onEvent;
		this.onEvent = (event) => {
			try {
				listener?.(event);
			} catch (err) {
				// A failing listener (UI) must not break a turn.
				console.error("Discover: chat event listener failed", err);
			}
		};
		this.recorder = new TurnRecorder({
			sessions: this.sessions,
			now: this.now,
			onMessage: (message) => this.onEvent({ type: "message", message }),
			onWarning: (message) => this.onEvent({ type: "warning", message }),
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

	/** The calibrated estimate: what the engine believes the model will count. */
	private readonly estimate: EstimateFn = (text) => calibratedEstimate(this.calibration, this.model, this.rawEstimate(text));

	setAdapter(adapter: LLMAdapter, model?: string): void {
		this.adapter = adapter;
		if (model !== undefined) this.model = model;
	}

	updateSettings(settings: Partial<ChatSettings>): void {
		this.settings = normalizeChatSettings(settings, this.settings);
	}

	/** Starts a new session (stopping a running answer first, which keeps it). */
	async newSession(): Promise<Session> {
		await this.flush();
		this.session = await this.sessions.create();
		return this.session;
	}

	/** Continues a saved session (stopping a running answer first, which keeps it). */
	async loadSession(id: string): Promise<Session> {
		await this.flush();
		try {
			this.session = await this.sessions.load(id);
		} catch (err) {
			throw new ChatError("no_session", `That chat could not be opened: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
		}
		return this.session;
	}

	/** Stops the running answer; the partial answer is kept. Does nothing when idle. */
	cancel(): void {
		this.turn?.controller.abort();
	}

	/** Saves a partial answer when the app closes mid-stream: stops the turn and waits until it is saved. */
	async flush(): Promise<void> {
		const turn = this.turn;
		if (turn === undefined) return;
		turn.controller.abort();
		await turn.done.catch(() => undefined);
	}

	/** The estimate for a draft, for the budget meter and context chip: nothing is sent or saved. */
	previewPrompt(draft: string, opts: { context?: string; contextName?: string; includeHistory?: boolean } = {}): PromptPreview {
		return previewPrompt({ settings: this.settings, messages: this.session?.messages ?? [], draft, ...opts, estimate: this.estimate });
	}

	/**
	 * Sends one message and resolves with the assistant's answer (a stopped answer resolves too,
	 * with `cancelled: true`). Rejects with a ChatError (busy, message_too_long, …) or the
	 * adapter's error (with its `kind`); the person's message is saved either way, except when
	 * it was never sent (busy, too long, empty): then the caller still holds the text.
	 */
	sendMessage(text: string, opts: SendOptions = {}): Promise<ChatMessage> {
		if (this.turn !== undefined) return Promise.reject(ChatError.busy());
		const controller = new AbortController();
		const outer = opts.signal;
		const forward = (): void => controller.abort();
		if (outer?.aborted === true) controller.abort();
		else outer?.addEventListener("abort", forward, { once: true });
		const done = this.runTurn(text, opts, controller.signal).finally(() => {
			outer?.removeEventListener("abort", forward);
			this.turn = undefined;
		});
		this.turn = { controller, done };
		return done;
	}

	private async runTurn(text: string, opts: SendOptions, signal: AbortSignal): Promise<ChatMessage> {
		if (text.trim() === "") throw new ChatError("empty_message", "Type a message first.", { text });
		const budget = compactionBudget(this.settings);
		// Checked before anything is saved: a message that can never be sent stays with the caller.
		const alone = fixedCost(this.settings.systemPrompt, undefined, text, this.estimate);
		if (alone > budget.prompt) {
			const frame = fixedCost(this.settings.systemPrompt, undefined, "", this.estimate);
			throw ChatError.tooLong(text, this.estimate(text), Math.max(0, budget.prompt - frame));
		}
		const session = this.session ?? (this.session = await this.sessions.create());
		const user = await this.recorder.user(session, text);

		let prepared = await this.prepare(session, user, budget, opts, signal, false);
		if (prepared === "aborted") return this.recorder.answer(session, "", true);
		const parts: string[] = [];
		let prompt = this.assemble(prepared, text, opts, budget);
		for (let attempt = 0; ; attempt++) {
			parts.length = 0;
			try {
				const result = await this.adapter.generate({
					purpose: "chat",
					messages: prompt.messages,
					maxTokens: this.settings.reservedResponseTokens,
					contextWindow: this.settings.maxPromptTokens,
					signal,
					onToken: (delta) => {
						parts.push(delta);
						try {
							opts.onToken?.(delta);
						} catch (err) {
							// A failing renderer must not turn a good answer into a failed turn.
							console.error("Discover: token listener failed", err);
						}
					},
				});
				this.observeUsage(prompt, result.usage?.promptTokens);
				const answer = result.text !== "" ? result.text : parts.join("");
				return await this.recorder.answer(session, answer, false);
			} catch (err) {
				if (isAbort(err, signal)) return this.recorder.answer(session, parts.join(""), true);
				if (errorKind(err) === "context_overflow" && attempt === 0) {
					// Our estimate was too low for this server: compact harder and try once more.
					this.onEvent({ type: "status", text: "Continuing conversation…" });
					const forced = { ...budget, prompt: Math.floor(budget.prompt * OVERFLOW_RETRY_SHRINK) };
					prepared = await this.prepare(session, user, forced, opts, signal, true);
					if (prepared === "aborted") return this.recorder.answer(session, "", true);
					prompt = this.assemble(prepared, text, opts, forced);
					continue;
				}
				await this.recorder.failed(session, user, err);
				throw err;
			}
		}
	}

	/**
	 * The history for this turn: the summary and the messages after it, compacted to fit. A
	 * failure here (a bug, a damaged session) must not block the turn: it goes out without history.
	 */
	private async prepare(
		session: Session,
		user: ChatMessage,
		budget: CompactionBudget,
		opts: SendOptions,
		signal: AbortSignal,
		force: boolean,
	): Promise<PreparedHistory | "aborted"> {
		if (opts.includeHistory === false) return { recent: [], compacted: false };
		try {
			const previous = summaryMessage(session.messages);
			// Looked up each time: a summary saved by an earlier attempt shifts the message by one.
			const history = uncoveredHistory(session.messages, session.messages.lastIndexOf(user));
			const keep = force ? this.settings.minRecentMessagesToKeep : this.settings.recentMessagesToKeep;
			const result = await compactHistory({
				adapter: this.adapter,
				systemPrompt: this.settings.systemPrompt,
				previousSummary: previous?.content,
				history,
				current: user.content,
				settings: { recentMessagesToKeep: keep, minRecentMessagesToKeep: this.settings.minRecentMessagesToKeep },
				budget,
				estimate: this.estimate,
				signal,
				onStatus: (status) => this.onEvent({ type: "status", text: status }),
			});
			await this.saveSummary(session, result);
			const compacted = result.summaryOf !== undefined || result.condensedCount > 0 || result.lastResort;
			return { summary: result.summary, recent: result.recent, compacted };
		} catch (err) {
			if (isAbort(err, signal)) return "aborted";
			const why = err instanceof Error ? err.message : String(err);
			this.onEvent({ type: "warning", message: `Earlier messages could not be prepared (${why}), so this message was sent without them.` });
			return { recent: [], compacted: false };
		}
	}

	private async saveSummary(session: Session, result: CompactionResult): Promise<void> {
		if (result.summaryOf === undefined || result.summary === undefined) return;
		if (!(await this.recorder.summary(session, result.summary, result.summaryOf))) return;
		this.onEvent({ type: "compacted", summarizedCount: result.summarizedCount });
		if (result.fallback) this.onEvent({ type: "warning", message: "The model could not summarize earlier messages, so they were shortened instead." });
	}

	private assemble(prepared: PreparedHistory, text: string, opts: SendOptions, budget: CompactionBudget): BuiltPrompt {
		const context = opts.context !== undefined && opts.context !== "" ? { text: opts.context, name: opts.contextName } : undefined;
		const built = buildPrompt({
			systemPrompt: this.settings.systemPrompt,
			context,
			summary: prepared.summary,
			history: prepared.recent,
			current: text,
			budget: budget.prompt,
			estimate: this.estimate,
		});
		if (prepared.compacted) this.onEvent({ type: "status", text: "Continuing conversation…" });
		this.onEvent({ type: "prompt", estimatedTokens: built.estimatedTokens, budget: budget.prompt, context: built.context });
		return built;
	}

	private observeUsage(prompt: BuiltPrompt, reported: number | undefined): void {
		if (reported === undefined || !Number.isFinite(reported) || reported <= 0) return;
		const raw = promptCost(prompt.messages, this.rawEstimate);
		try {
			this.calibration?.observe(this.model, raw, reported);
		} catch (err) {
			// Calibration refines later estimates; failing to save it must not fail an answered turn.
			console.error("Discover: token calibration failed", err);
		}
		const warning = truncationWarning(prompt.estimatedTokens, reported, this.settings.maxPromptTokens);
		if (warning !== undefined) this.onEvent({ type: "warning", message: warning });
	}
}
