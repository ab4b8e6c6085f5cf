import { errorKind, partialAnswer } from "../providers/errors";
import { startTimer, stopTimer } from "../providers/timers";
import type { SessionManager } from "../sessions/SessionManager";
import { memoizeEstimate, promptCost, type EstimateFn } from "./promptCost";
import { TokenCalibration, calibratedEstimate } from "./calibration";
import { normalizeChatSettings } from "./chatSettings";
import { compactionBudget } from "./compaction";
import { ChatError } from "./errors";
import { previewPrompt, type PromptPreview } from "./preview";
import type { BuiltPrompt } from "./prompt";
import { isAbort } from "./summarizer";
import { estimateTokens } from "./tokens";
import { truncationWarning } from "./truncation";
import { StreamedAnswer, type ThinkingRecord } from "./streamedAnswer";
import { AnswerCheckpoint, touching, type CheckpointTimers } from "./answerCheckpoint";
import { TurnRecorder } from "./turnRecorder";
import { assemblePrompt, prepareHistory, type ChatEvent, type TurnSetup } from "./turnPrompt";
import type { ChatMessage, ChatSettings, LLMAdapter, Session } from "./types";
import { fixedCost } from "./window";

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

/** The prompt is forced this much smaller when the server says it overflowed anyway. */
const OVERFLOW_RETRY_SHRINK = 0.7;

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
	/** The session switch in progress (newSession, loadSession), if any; settled otherwise. */
	private switching: Promise<unknown> = Promise.resolve();
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
	 * Switches run one after another. The answer running when a switch is asked for is stopped
	 * (it belongs to the chat being left); a send made after the call waits for the switch, so it
	 * goes to the chat the person now sees.
	 */
	private switchSession(open: () => Promise<Session>): Promise<Session> {
		const running = this.turn;
		running?.controller.abort();
		const run = this.switching.then(async () => {
			await running?.done.catch(() => undefined);
			this.session = await open();
			return this.session;
		});
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

	/** Saves a partial answer when the app closes mid-stream: stops the turn and waits until it is saved. */
	async flush(): Promise<void> {
		const turn = this.turn;
		if (turn === undefined) return;
		turn.controller.abort();
		await turn.done.catch(() => undefined);
	}

	/** The estimate for a draft, for the budget meter and context chip: nothing is sent or saved. */
	previewPrompt(draft: string, opts: { context?: string; contextName?: string; includeHistory?: boolean } = {}): PromptPreview {
		return previewPrompt({ settings: this.settings, messages: this.session?.messages ?? [], draft, ...opts, estimate: this.estimatorFor(this.model) });
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
			this.checkpoint?.close();
			this.checkpoint = undefined;
		});
		this.turn = { controller, done };
		return done;
	}

	private async runTurn(text: string, opts: SendOptions, signal: AbortSignal): Promise<ChatMessage> {
		if (text.trim() === "") throw new ChatError("empty_message", "Type a message first.", { text });
		await this.switching;
		const model = this.model;
		const setup: TurnSetup = {
			settings: this.settings,
			adapter: this.adapter,
			estimate: this.estimatorFor(model),
			recorder: this.recorder,
			emit: this.onEvent,
			signal,
		};
		const { settings, estimate } = setup;
		const budget = compactionBudget(settings);
		// Checked before anything is saved: a message that can never be sent stays with the caller.
		if (fixedCost(settings.systemPrompt, undefined, text, estimate) > budget.prompt) {
			const frame = fixedCost(settings.systemPrompt, undefined, "", estimate);
			throw ChatError.tooLong(text, estimate(text), Math.max(0, budget.prompt - frame));
		}
		const session = this.session ?? (this.session = await this.sessions.create());
		const user = await this.recorder.user(session, text);
		const includeHistory = opts.includeHistory !== false;

		let prepared = await prepareHistory(setup, session, user, budget, includeHistory, false);
		if (prepared === "aborted") return this.recorder.answer(session, "", true);
		// Every answer kept (checkpoints too) passes the adapter's redaction: a server may echo the key inside one.
		const keep = (answer: string): string => setup.adapter.redact?.(answer) ?? answer;
		const keepThought = (thought: ThinkingRecord): ThinkingRecord => (thought.thinking === undefined ? thought : { ...thought, thinking: keep(thought.thinking) });
		let streamed: StreamedAnswer | undefined;
		// Checkpoints save the current attempt's answer so far (text and thinking).
		const checkpoint = this.startCheckpoint(session.id, () => keep(streamed?.partialText ?? ""), () => keepThought(streamed?.thinking() ?? {}));
		let prompt = assemblePrompt(setup, prepared, text, opts, budget);
		for (let attempt = 0; ; attempt++) {
			const answer = (streamed = new StreamedAnswer(opts, this.now));
			try {
				const result = await setup.adapter.generate({
					purpose: "chat",
					messages: prompt.messages,
					maxTokens: settings.reservedResponseTokens,
					contextWindow: settings.maxPromptTokens,
					signal,
					...touching(answer.request, checkpoint),
				});
				this.observeUsage(model, settings, prompt, result.usage?.promptTokens);
				return await this.recorder.answer(session, keep(answer.finalText(result)), false, keepThought(answer.thinking(result)), { checkpoint });
			} catch (err) {
				if (isAbort(err, signal)) return this.recorder.answer(session, keep(answer.partialText), true, keepThought(answer.thinking()), { checkpoint });
				if (errorKind(err) === "context_overflow" && attempt === 0) {
					// Our estimate was too low for this server: compact harder and try once more.
					this.onEvent({ type: "status", text: "Continuing conversation…" });
					const forced = { ...budget, prompt: Math.floor(budget.prompt * OVERFLOW_RETRY_SHRINK) };
					prepared = await prepareHistory(setup, session, user, forced, includeHistory, true);
					if (prepared === "aborted") return this.recorder.answer(session, "", true, {}, { checkpoint });
					prompt = assemblePrompt(setup, prepared, text, opts, forced);
					continue;
				}
				// An answer cut off (at the size cap) is kept, marked with why; the error is still reported.
				const partial = partialAnswer(err);
				if (partial !== undefined) await this.recorder.answer(session, keep(partial), true, keepThought(answer.thinking()), { checkpoint, failure: err });
				else await this.recorder.failed(session, user, err, checkpoint);
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

	private observeUsage(model: string, settings: ChatSettings, prompt: BuiltPrompt, reported: number | undefined): void {
		if (reported === undefined || !Number.isFinite(reported) || reported <= 0) return;
		const raw = promptCost(prompt.messages, this.rawEstimate);
		try {
			this.calibration?.observe(model, raw, reported);
		} catch (err) {
			// Calibration refines later estimates; failing to save it must not fail an answered turn.
			console.error("Discover: token calibration failed", err);
		}
		const warning = truncationWarning(prompt.estimatedTokens, reported, settings.maxPromptTokens);
		if (warning !== undefined) this.onEvent({ type: "warning", message: warning });
	}
}
