import { errorKind } from "../providers/errors";
import type { SessionManager } from "../sessions/SessionManager";
import { newId } from "../sessions/ids";
import { memoizeEstimate, promptCost, type EstimateFn } from "./budget";
import { TokenCalibration, calibratedEstimate } from "./calibration";
import { normalizeChatSettings } from "./chatSettings";
import { compactHistory, compactionBudget, type CompactionBudget, type CompactionResult } from "./compaction";
import type { ContextInclusion } from "./contextTrim";
import { ChatError } from "./errors";
import { buildPrompt, type BuiltPrompt } from "./prompt";
import { isAbort } from "./summarizer";
import { estimateTokens } from "./tokens";
import { summaryMessage, uncoveredHistory } from "./transcript";
import { truncationWarning } from "./truncation";
import type { ChatMessage, ChatSettings, LLMAdapter, PromptMessage, Session } from "./types";
import { fixedCost, planWindow, summaryAllowance } from "./window";

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

export interface PromptPreview {
	estimatedTokens: number;
	budget: number;
	context: ContextInclusion;
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
		const budget = compactionBudget(this.settings);
		const context = opts.context !== undefined ? { text: opts.context, name: opts.contextName } : undefined;
		const base = { systemPrompt: this.settings.systemPrompt, context, current: draft, estimate: this.estimate };
		const messages = this.session?.messages ?? [];
		if (opts.includeHistory === false || messages.length === 0) {
			return this.preview(buildPrompt({ ...base, history: [], budget: budget.prompt }), budget.prompt);
		}
		try {
			const summary = summaryMessage(messages)?.content;
			const history = uncoveredHistory(messages, messages.length);
			const plan = planWindow({
				systemPrompt: this.settings.systemPrompt,
				previousSummary: summary,
				history,
				current: draft,
				settings: this.settings,
				promptBudget: budget.prompt,
				summaryMaxTokens: budget.summaryMaxTokens,
				estimate: this.estimate,
			});
			if (plan.fits) return this.preview(buildPrompt({ ...base, summary, history, budget: budget.prompt }), budget.prompt);
			// A summary will be written on send; count the room it may take.
			const allowance = summaryAllowance(budget.summaryMaxTokens, this.estimate);
			const built = buildPrompt({ ...base, history: history.slice(plan.split), budget: budget.prompt - allowance });
			return { estimatedTokens: Math.min(budget.prompt, built.estimatedTokens + allowance), budget: budget.prompt, context: built.context };
		} catch {
			return this.preview(buildPrompt({ ...base, history: [], budget: budget.prompt }), budget.prompt);
		}
	}

	private preview(built: BuiltPrompt, budget: number): PromptPreview {
		return { estimatedTokens: built.estimatedTokens, budget, context: built.context };
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

	private emitMessage(message: ChatMessage): void {
		this.onEvent({ type: "message", message });
	}

	private iso(): string {
		return new Date(this.now()).toISOString();
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
		const user = await this.saveUserMessage(session, text);
		const userIndex = session.messages.lastIndexOf(user);

		let prepared = await this.prepare(session, userIndex, text, budget, opts, signal, false);
		if (prepared === "aborted") return this.saveAnswer(session, "", true);
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
						opts.onToken?.(delta);
					},
				});
				this.observeUsage(prompt, result.usage?.promptTokens);
				const answer = result.text !== "" ? result.text : parts.join("");
				return await this.saveAnswer(session, answer, false);
			} catch (err) {
				if (isAbort(err, signal)) return this.saveAnswer(session, parts.join(""), true);
				if (errorKind(err) === "context_overflow" && attempt === 0) {
					// Our estimate was too low for this server: compact harder and try once more.
					this.onEvent({ type: "status", text: "Continuing conversation…" });
					const forced = { ...budget, prompt: Math.floor(budget.prompt * OVERFLOW_RETRY_SHRINK) };
					prepared = await this.prepare(session, userIndex, text, forced, opts, signal, true);
					if (prepared === "aborted") return this.saveAnswer(session, "", true);
					prompt = this.assemble(prepared, text, opts, forced);
					continue;
				}
				await this.markFailed(session, user, err);
				throw err;
			}
		}
	}

	/** Saves the person's message before anything else, so nothing they wrote is ever lost. */
	private async saveUserMessage(session: Session, text: string): Promise<ChatMessage> {
		const last = session.messages[session.messages.length - 1];
		// Retrying a failed turn reuses its message rather than sending the same words twice.
		if (last !== undefined && last.role === "user" && last.error !== undefined && last.content === text) {
			const retried: ChatMessage = { id: last.id, role: "user", content: text, createdAt: last.createdAt };
			await this.persist(() => this.sessions.updateMessage(session.id, retried), text);
			session.messages[session.messages.length - 1] = retried;
			this.emitMessage(retried);
			return retried;
		}
		const user: ChatMessage = { id: newId(this.now()), role: "user", content: text, createdAt: this.iso() };
		await this.persist(() => this.sessions.appendMessage(session.id, user), text);
		session.messages.push(user);
		this.emitMessage(user);
		return user;
	}

	private async persist(write: () => Promise<void>, text: string): Promise<void> {
		try {
			await write();
		} catch (err) {
			throw new ChatError("storage", `Your message could not be saved, so it was not sent: ${err instanceof Error ? err.message : String(err)}`, { text, cause: err });
		}
	}

	/**
	 * The history for this turn: the summary and the messages after it, compacted to fit. A
	 * failure here (a bug, a damaged session) must not block the turn: it goes out without history.
	 */
	private async prepare(
		session: Session,
		userIndex: number,
		text: string,
		budget: CompactionBudget,
		opts: SendOptions,
		signal: AbortSignal,
		force: boolean,
	): Promise<PreparedHistory | "aborted"> {
		if (opts.includeHistory === false) return { recent: [], compacted: false };
		try {
			const previous = summaryMessage(session.messages);
			const history = uncoveredHistory(session.messages, userIndex);
			const keep = force ? this.settings.minRecentMessagesToKeep : this.settings.recentMessagesToKeep;
			const result = await compactHistory({
				adapter: this.adapter,
				systemPrompt: this.settings.systemPrompt,
				previousSummary: previous?.content,
				history,
				current: text,
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
		const summary: ChatMessage = { id: newId(this.now()), role: "system", content: result.summary, createdAt: this.iso(), summaryOf: result.summaryOf };
		try {
			await this.sessions.setSummary(session.id, summary);
		} catch (err) {
			// Still used for this turn; the next turn summarizes again from what is saved.
			this.onEvent({ type: "warning", message: `The conversation summary could not be saved: ${err instanceof Error ? err.message : String(err)}` });
			return;
		}
		if (summaryMessage(session.messages) !== undefined) session.messages[0] = summary;
		else session.messages.unshift(summary);
		this.emitMessage(summary);
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
		this.calibration?.observe(this.model, raw, reported);
		const warning = truncationWarning(prompt.estimatedTokens, reported, this.settings.maxPromptTokens);
		if (warning !== undefined) this.onEvent({ type: "warning", message: warning });
	}

	private async saveAnswer(session: Session, content: string, cancelled: boolean): Promise<ChatMessage> {
		const answer: ChatMessage = { id: newId(this.now()), role: "assistant", content, createdAt: this.iso() };
		if (cancelled) answer.cancelled = true;
		session.messages.push(answer);
		try {
			await this.sessions.appendMessage(session.id, answer);
		} catch (err) {
			this.onEvent({ type: "warning", message: `The answer could not be saved: ${err instanceof Error ? err.message : String(err)}` });
		}
		this.emitMessage(answer);
		return answer;
	}

	/** Records why the turn failed on the person's message (kept, so Retry can reuse it). */
	private async markFailed(session: Session, user: ChatMessage, err: unknown): Promise<void> {
		const kind = errorKind(err);
		const failed: ChatMessage = { ...user, error: kind !== undefined ? `The request failed (${kind}).` : "The request failed." };
		const index = session.messages.lastIndexOf(user);
		if (index >= 0) session.messages[index] = failed;
		try {
			await this.sessions.updateMessage(session.id, failed);
		} catch {
			// The message itself is saved; only the failure mark is missing.
		}
		this.emitMessage(failed);
	}
}
