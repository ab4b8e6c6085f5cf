import { errorKind, partialAnswer } from "../providers/errors";
import type { OverflowReport } from "../providers/overflowReport";
import { startTimer, stopTimer } from "../core/timers";
import type { SessionManager } from "../sessions/SessionManager";
import { memoizeEstimate, promptCost, type EstimateFn } from "./promptCost";
import { settlesWithin, untilAborted } from "../core/abortable";
import { TokenCalibration, calibratedEstimate } from "./calibration";
import { normalizeChatSettings } from "./chatSettings";
import { compactionBudget } from "./compaction";
import { ChatError } from "./errors";
import { previewPrompt, type PromptPreview } from "./preview";
import type { BuiltPrompt } from "./prompt";
import { isAbort } from "./summarizer";
import { estimateTokens } from "./tokens";
import { overflowReportOf, overflowRetryBudget, retryTooBigError } from "./overflowRetry";
import { silentPromptCutWarning } from "./silentPromptCut";
import { StreamedAnswer, type ThinkingRecord } from "./streamedAnswer";
import { AnswerCheckpoint, touching, type CheckpointTimers } from "./answerCheckpoint";
import { TurnRecorder } from "./turnRecorder";
import { assemblePrompt, prepareHistory, type ChatEvent, type TurnSetup } from "./turnPrompt";
import type { ChatMessage, ChatSettings, LLMAdapter, Session } from "../core/types";
import { checkAnswer, checkTurnFits, ignoredAfterStop, rethrowAsStopped, stoppedBeforeSending } from "./turnChecks";

export type { CheckpointTimers } from "./answerCheckpoint";
export type { PromptPreview } from "./preview";
export type { ChatEvent } from "./turnPrompt";

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
}

export interface SendOptions {
	/** The document the message is about (the active note or a selection). */
	context?: string;
	contextName?: string;
	/** false: instructions, document and this message only (one-shot commands); still recorded. */
	includeHistory?: boolean;
	signal?: AbortSignal;
	onToken?: (delta: string) => void;
	/** The model's thinking as it streams; saved on the answer as `thinking`. */
	onThinking?: (delta: string) => void;
	/** What `onToken` passed so far was thinking after all: drop it (it comes to `onThinking` next). */
	onTextRetracted?: () => void;
}

/** How long a stopped turn waits for its partial answer to be saved before it ends anyway. */
const STOPPED_SAVE_WAIT_MS = 100;
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
	private readonly calibration: TokenCalibration | undefined;
	private readonly now: () => number;
	private readonly timers: CheckpointTimers;
	/** The running answer's checkpoint, for checkpointNow(). */
	private checkpoint: AnswerCheckpoint | undefined;
	private readonly onEvent: (event: ChatEvent) => void;
	private readonly recorder: TurnRecorder;
	/** The latest session switch (newSession, loadSession), if any; settled otherwise. */
	private switching: Promise<unknown> = Promise.resolve();
	/** Switches asked for, and the latest one applied: a later switch wins over an earlier, slower one. */
	private switchesAsked = 0;
	private switchApplied = 0;
	/** Answers still being saved after their turn ended (a store that is slow or hangs). */
	private readonly saving = new Set<Promise<void>>();
	/** Raw estimates by text, so an unchanged history is not re-estimated every send. */
	private readonly rawEstimate: EstimateFn = memoizeEstimate(estimateTokens);

	constructor(opts: ChatServiceOptions) {
		this.adapter = opts.adapter;
		this.sessions = opts.sessions;
		this.model = opts.model ?? "";
		this.calibration = opts.calibration;
		this.settings = normalizeChatSettings(opts.settings);
		this.now = opts.now ?? Date.now;
		this.timers = opts.timers ?? { set: startTimer, clear: stopTimer };
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

	/** The calibrated estimate for `model`: what the engine believes that model will count. */
	private estimatorFor(model: string): EstimateFn {
		return (text) => calibratedEstimate(this.calibration, model, this.rawEstimate(text));
	}

	setAdapter(adapter: LLMAdapter, model?: string): void {
		this.adapter = adapter;
		if (model !== undefined) this.model = model;
	}

	updateSettings(settings: Partial<ChatSettings>): void {
		this.settings = normalizeChatSettings(settings, this.settings);
	}

	/** Starts a new session (stopping a running answer first, which keeps it). */
	newSession(): Promise<Session> {
		return this.switchSession(() => this.sessions.create());
	}

	/** Continues a saved session (stopping a running answer first, which keeps it). */
	loadSession(id: string): Promise<Session> {
		return this.switchSession(async () => {
			try {
				return await this.sessions.load(id);
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
		return this.checkpoint?.writeNow() ?? Promise.resolve();
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
		if (this.saving.size > 0) await settlesWithin(Promise.all(this.saving), FLUSH_SAVE_WAIT_MS);
	}

	/** The estimate for a draft, for the budget meter and context chip: nothing is sent or saved. */
	previewPrompt(draft: string, opts: { context?: string; contextName?: string; includeHistory?: boolean } = {}): PromptPreview {
		return previewPrompt({ settings: this.settings, messages: this.session?.messages ?? [], draft, ...opts, estimate: this.estimatorFor(this.model) });
	}

	/**
	 * Sends one message and resolves with the assistant's answer (a stopped answer resolves too,
	 * with `cancelled: true`). Rejects with a ChatError (busy, message_too_long, …) or the
	 * adapter's error (with its `kind`); the person's message is saved either way, except when
	 * it was never sent (busy, too long, empty, stopped before it was saved: an `aborted` LLMError):
	 * then the caller still holds the text.
	 */
	sendMessage(text: string, opts: SendOptions = {}): Promise<ChatMessage> {
		// Stopped before it began: nothing is saved and nothing is asked.
		if (opts.signal?.aborted === true) return Promise.reject(stoppedBeforeSending());
		if (this.turn !== undefined) return Promise.reject(ChatError.busy());
		const controller = new AbortController();
		const outer = opts.signal;
		const forward = (): void => controller.abort();
		outer?.addEventListener("abort", forward, { once: true });
		const done = this.runTurn(text, opts, controller.signal).finally(() => {
			outer?.removeEventListener("abort", forward);
			this.turn = undefined;
			this.checkpoint?.close();
			this.checkpoint = undefined;
		});
		this.turn = { controller, done };
		return done;
	}

	private async runTurn(text: string, opts: SendOptions, signal: AbortSignal): Promise<ChatMessage> {
		if (text.trim() === "") throw new ChatError("empty_message", "Type a message first.", { text });
		await untilAborted(this.switching, signal).catch(rethrowAsStopped(signal));
		const model = this.model;
		const setup: TurnSetup = {
			settings: this.settings,
			adapter: this.adapter,
			estimate: this.estimatorFor(model),
			recorder: this.recorder,
			emit: (event) => {
				// Whatever an abandoned call does later is not this turn's news.
				if (!signal.aborted || event.type === "message") this.onEvent(event);
			},
			signal,
		};
		const { settings, estimate } = setup;
		const budget = compactionBudget(settings);
		// Checked before anything is saved: a message that can never be sent stays with the caller.
		checkTurnFits(settings.systemPrompt, text, budget.prompt, estimate);
		const { session, user } = await this.recordQuestion(text, signal).catch(rethrowAsStopped(signal));
		const includeHistory = opts.includeHistory !== false;

		let prepared = await prepareHistory(setup, session, user, budget, includeHistory, false);
		if (prepared === "aborted") return this.finishStopped(session, "");
		// Every answer kept (checkpoints too) passes the adapter's redaction: a server may echo the key inside one.
		const keep = (answer: string): string => setup.adapter.redact?.(answer) ?? answer;
		const keepThought = (thought: ThinkingRecord): ThinkingRecord => (thought.thinking === undefined ? thought : { ...thought, thinking: keep(thought.thinking) });
		let streamed: StreamedAnswer | undefined;
		// Checkpoints save the current attempt's answer so far (text and thinking).
		const checkpoint = this.startCheckpoint(session.id, () => keep(streamed?.partialText ?? ""), () => keepThought(streamed?.thinking() ?? {}));
		let prompt = assemblePrompt(setup, prepared, text, opts, budget);
		let contextWindow = settings.maxPromptTokens;
		for (let attempt = 0; ; attempt++) {
			const answer = (streamed = new StreamedAnswer(opts, this.now));
			try {
				const request = setup.adapter.generate({
					purpose: "chat",
					messages: prompt.messages,
					maxTokens: settings.reservedResponseTokens,
					contextWindow,
					signal,
					// After Stop, what the person saw is the partial answer: late tokens and thinking are dropped.
					...touching(ignoredAfterStop(answer.request, signal), checkpoint),
				});
				const result = await untilAborted(request, signal);
				checkAnswer(result);
				this.observeUsage(model, settings, prompt, result.usage?.promptTokens);
				return await this.finishAnswered(session, keep(answer.finalText(result)), keepThought(answer.thinking(result)), signal, checkpoint);
			} catch (caught) {
				let err = caught;
				if (isAbort(err, signal)) return this.finishStopped(session, keep(answer.partialText), keepThought(answer.thinking()), checkpoint);
				if (errorKind(err) === "context_overflow" && attempt === 0) {
					// Our estimate was too low for this server: send a clearly smaller prompt once more.
					const report = overflowReportOf(err);
					if (report.window !== undefined && report.window < settings.maxPromptTokens) {
						this.onEvent({ type: "window", reported: report.window, configured: settings.maxPromptTokens });
						contextWindow = report.window;
					}
					setup.emit({ type: "status", text: "Continuing conversation…" });
					const forced = overflowRetryBudget(budget, settings, prompt.estimatedTokens, report);
					prepared = await prepareHistory(setup, session, user, forced, includeHistory, true);
					if (prepared === "aborted") return this.finishStopped(session, "", {}, checkpoint);
					const failed = prompt;
					prompt = assemblePrompt(setup, prepared, text, opts, forced);
					this.observeOverflow(model, failed, report);
					if (prompt.estimatedTokens > forced.prompt) err = retryTooBigError(err, prompt.estimatedTokens, forced.prompt, report, settings);
					else continue;
				}
				// An answer cut off (at the size cap) is kept, marked with why; the error is still reported.
				const partial = partialAnswer(err);
				const marked =
					partial !== undefined
						? this.recorder.answer(session, keep(partial), true, { signal, keep: true }, keepThought(answer.thinking()), { checkpoint, failure: err }).saved
						: this.recorder.failed(session, user, err, { signal, keep: true }, checkpoint);
				this.track(marked);
				await untilAborted(marked, signal).catch(() => undefined);
				throw err;
			}
		}
	}

	private startCheckpoint(sessionId: string, text: () => string, extra: () => Partial<ChatMessage>): AnswerCheckpoint {
		const checkpoint = new AnswerCheckpoint({
			sessions: this.sessions,
			sessionId,
			text,
			extra,
			now: this.now,
			timers: this.timers,
			onWarning: (message) => this.onEvent({ type: "warning", message }),
		});
		this.checkpoint = checkpoint;
		return checkpoint;
	}

	/**
	 * The chat (created on the first message) and the person's message, saved before anything is
	 * sent. A chat that cannot be created is a `storage` error carrying the text, like a message
	 * that cannot be saved.
	 */
	private async recordQuestion(text: string, signal: AbortSignal): Promise<{ session: Session; user: ChatMessage }> {
		let session = this.session;
		if (session === undefined) {
			try {
				session = await untilAborted(this.sessions.create({ signal }), signal);
			} catch (err) {
				if (isAbort(err, signal)) throw err;
				throw ChatError.storage(text, err);
			}
			this.session = session;
		}
		return { session, user: await this.recorder.user(session, text, signal) };
	}

	/** A whole answer: shown at once; a Stop while it is being saved stops the wait, not the save. */
	private async finishAnswered(session: Session, content: string, thought: ThinkingRecord, signal: AbortSignal, checkpoint?: AnswerCheckpoint): Promise<ChatMessage> {
		const { message, saved } = this.recorder.answer(session, content, false, { signal, keep: true }, thought, { checkpoint });
		this.track(saved);
		await untilAborted(saved, signal).catch(() => undefined);
		return message;
	}

	/**
	 * A stopped answer: kept with what was shown. Its save is waited for briefly, so Stop ends the
	 * turn at once even when the store hangs; the save still lands (flush waits for it longer).
	 */
	private async finishStopped(session: Session, partial: string, thought: ThinkingRecord = {}, checkpoint?: AnswerCheckpoint): Promise<ChatMessage> {
		const letGo = new AbortController();
		const { message, saved } = this.recorder.answer(session, partial, true, { signal: letGo.signal, keep: true }, thought, { checkpoint });
		this.track(saved);
		if (!(await settlesWithin(saved, STOPPED_SAVE_WAIT_MS))) letGo.abort();
		return message;
	}

	private track(saved: Promise<void>): void {
		this.saving.add(saved);
		void saved.finally(() => this.saving.delete(saved));
	}

	/** The server's count of a prompt it refused, against our raw estimate of it: a calibration point. */
	private observeOverflow(model: string, failed: BuiltPrompt, report: OverflowReport): void {
		if (report.promptTokens === undefined) return;
		try {
			this.calibration?.observe(model, promptCost(failed.messages, this.rawEstimate), report.promptTokens);
		} catch (err) {
			console.error("Discover: token calibration failed", err);
		}
	}

	private observeUsage(model: string, settings: ChatSettings, prompt: BuiltPrompt, reported: number | undefined): void {
		if (reported === undefined || !Number.isFinite(reported) || reported <= 0) return;
		const raw = promptCost(prompt.messages, this.rawEstimate);
		try {
			this.calibration?.observe(model, raw, reported);
		} catch (err) {
			// Calibration refines later estimates; failing to save it must not fail an answered turn.
			console.error("Discover: token calibration failed", err);
		}
		const warning = silentPromptCutWarning(prompt.estimatedTokens, reported, settings.maxPromptTokens);
		if (warning !== undefined) this.onEvent({ type: "warning", message: warning });
	}
}
