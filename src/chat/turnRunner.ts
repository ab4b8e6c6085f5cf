import { errorKind, partialAnswer } from "../providers/errors";
import type { OverflowReport } from "../providers/overflowReport";
import type { SessionManager } from "../sessions/SessionManager";
import { memoizeEstimate, type EstimateFn } from "./promptCost";
import { fixedCost } from "./recentWindow";
import { usageObservation } from "./usageObservation";
import { countFirstPrompt, needsFirstCount } from "./firstCount";
import { PromptCountGuard } from "./cacheCounts";
import { modelTokens } from "./tokenFast";
import { scriptEstimate } from "./scriptCalibration";
import { ScriptSplits } from "./scriptSplits";
import type { SafetyMargin } from "./safetyMargin";
import { settlesWithin, untilAborted } from "../core/abortable";
import { calibratedEstimate, calibratedTokens, type TokenCalibration } from "./calibration";
import { DEFAULT_MARGIN } from "./safetyMargin";
import { compactionBudget, type CompactionBudget } from "./compaction";
import { RefusedImagePath } from "../core/imagePaths";
import { attachmentTokens, loadPromptImages, missingImageNote, type ImageReader } from "./turnImages";
import { ChatError } from "./errors";
import { promptSources, type BuiltPrompt } from "./prompt";
import { recordSentSources, shedSentSources, shedStaleSources, type EarlierSources } from "./promptSentSources";
import { isAbort } from "./summarizer";
import { OVERFLOW_RETRY_SHRINK, overflowReportOf, overflowRetryBudget, retryTooBigError } from "./overflowRetry";
import type { SourceFitter } from "./sourceFitter";
import { silentPromptCutNotice } from "./silentPromptCut";
import { StreamedAnswer, type AnswerExtras, type ThinkingRecord } from "./streamedAnswer";
import { AnswerCheckpoint, touching, type CheckpointTimers } from "./answerCheckpoint";
import { TurnRecorder } from "./turnRecorder";
import { assemblePrompt, prepareHistory, type ChatEvent, type TurnSetup } from "./turnPrompt";
import type { ChatMessage, ChatSettings, ContextSource, ImageRef, ImageTokenRule, LLMAdapter, Session, SourceFit, Tool, ToolSpec } from "../core/types";
import { ToolLoop, ToolRefusals } from "./toolLoop";
import { toolImagesAfterResults } from "./toolResults";
import type { ToolImageSaver } from "./toolRound";
import { randomCallId, type CallIdSource } from "./callIds";
import { AnswerMeter, providerOf } from "./answerMeter";
import { writtenTokens } from "./answerTokens";
import type { ToolApprover } from "./toolCard";
import { checkAnswer, checkTurnFits, ignoredAfterStop, rethrowAsStopped } from "./turnChecks";
import { continuationOf, CONTINUE_INSTRUCTION, type TurnMode } from "./turnMode";
import { listChangedWarning, OutsideToolState, schemaDialectOf, type TurnToolSource } from "./toolSources";

export interface SendOptions {
	/** The active note (one source of kind "active"; see `sources`). */
	context?: string;
	contextName?: string;
	/**
	 * What the message is about: the selection, notes the person added, the active note, retrieved
	 * passages. They share the room the conversation leaves, tier by tier (sourceBudget.ts); the
	 * answer records how much of each went in (`ChatMessage.sources`).
	 */
	sources?: ContextSource[];
	/** false: instructions, document and this message only (one-shot commands); still recorded. */
	includeHistory?: boolean;
	signal?: AbortSignal;
	onToken?: (delta: string) => void;
	/** The model's thinking as it streams; saved on the answer as `thinking`. */
	onThinking?: (delta: string) => void;
	/** What `onToken` passed so far was thinking after all: drop it (it comes to `onThinking` next). */
	onTextRetracted?: () => void;
	/** false: no tools are offered for this send (slash commands); true: offered. Default: the chat's tools switch (ChatService.setTools). */
	tools?: boolean;
	/**
	 * Images sent with the message, as files already saved (the chats folder's attachments): the
	 * message records them by reference, they count against the budget, and the engine reads them
	 * through `ChatServiceOptions.readImage` just before sending.
	 */
	images?: ImageRef[];
}

/**
 * The chat a turn runs in. Read when the turn begins (after any session switch has settled), so a
 * switch or a settings change made mid-turn applies to the next turn.
 */
export interface TurnChat {
	/** The latest session switch: a turn waits for it, so it goes to the chat the person now sees. */
	switching(): Promise<unknown>;
	current(): { adapter: LLMAdapter; model: string; settings: ChatSettings };
	session(): Session | undefined;
	/** The chat this turn's first message created becomes the chat's session. */
	adopt(session: Session): void;
}

export interface TurnRunnerOptions {
	chat: TurnChat;
	sessions: SessionManager;
	calibration: TokenCalibration | undefined;
	/** Raw (uncalibrated) estimates: what calibration points are measured against. */
	rawEstimate: EstimateFn;
	/** The estimator's unrounded value, which calibrated estimates scale (default: memoized modelTokens). */
	fineEstimate?: EstimateFn;
	/** Fits a source larger than its share. */
	fitter: SourceFitter;
	/** See ChatServiceOptions.sourcesHeadroomShare. */
	sourcesHeadroomShare?: number;
	/** See ChatServiceOptions.sourcesFreshShare. */
	sourcesFreshShare?: number;
	/** See ChatServiceOptions.earlierSources: read as each turn starts. */
	earlierSources: () => EarlierSources | undefined;
	now: () => number;
	timers: CheckpointTimers;
	onEvent: (event: ChatEvent) => void;
	/** The tools the model may call, and who allows them (default: read tools run, write tools are declined). */
	tools?: readonly Tool[];
	approve?: ToolApprover;
	/** Reads an attached image's file for a send (without it, images are left out with a note). */
	readImage?: ImageReader;
	/** Makes the engine's id for each tool call (default: random, unique across chats). */
	callIds?: CallIdSource;
	/** See ChatServiceOptions.mcpTools. */
	outsideTools?: TurnToolSource;
	/** See ChatServiceOptions.mcpServers. */
	outsideServers?: () => readonly string[] | undefined;
	/** See ChatServiceOptions.saveToolImage. */
	saveToolImage?: ToolImageSaver;
}

/** How long a stopped turn waits for its partial answer to be saved before it ends anyway. */
const STOPPED_SAVE_WAIT_MS = 100;

/** Saved on an answer that ended at the token limit (GenerateResult.cut), and shown with it. */
export const CUT_AT_LIMIT = "The answer was cut off: it reached the token limit (the room kept for the answer, or the end of the model's context window). Ask the model to continue, or keep more room for the answer in settings.";

/**
 * Runs one turn: save the person's message, fit the conversation into the window, stream the
 * answer (retrying once, smaller, when the server says it overflowed), save it. It also keeps what
 * outlives a turn: the running answer's checkpoint and the answers still being saved.
 */
export class TurnRunner {
	private readonly chat: TurnChat;
	private readonly sessions: SessionManager;
	private readonly calibration: TokenCalibration | undefined;
	/** Which servers' prompt counts leave a cached part out (cacheCounts.ts). */
	private readonly promptCounts = new PromptCountGuard();
	private readonly rawEstimate: EstimateFn;
	private readonly fineEstimate: EstimateFn;
	/** Estimates split by script group, by text: what per-script factors scale. */
	private readonly groups = new ScriptSplits();
	private readonly fitter: SourceFitter;
	private readonly now: () => number;
	private readonly timers: CheckpointTimers;
	private readonly onEvent: (event: ChatEvent) => void;
	private readonly recorder: TurnRecorder;
	/** The running answer's checkpoint, for checkpointNow(). */
	private checkpoint: AnswerCheckpoint | undefined;
	/** Estimators by model and calibration state (estimatorFor). */
	private readonly estimators = new Map<string, EstimateFn>();
	/** Answers still being saved after their turn ended (a store that is slow or hangs). */
	private readonly saving = new Set<Promise<void>>();
	private readonly tools: readonly Tool[];
	private readonly approve: ToolApprover | undefined;
	private readonly refusals = new ToolRefusals();
	private readonly readImage: ImageReader | undefined;
	private readonly callIds: CallIdSource;
	private readonly sourcesHeadroomShare: number | undefined;
	private readonly sourcesFreshShare: number | undefined;
	private readonly earlierSources: () => EarlierSources | undefined;
	/** The MCP servers' tools, asked for at each turn's start. */
	private readonly outside: OutsideToolState | undefined;
	private readonly outsideServers: (() => readonly string[] | undefined) | undefined;
	private readonly saveToolImage: ToolImageSaver | undefined;

	constructor(opts: TurnRunnerOptions) {
		this.chat = opts.chat;
		this.sessions = opts.sessions;
		this.calibration = opts.calibration;
		this.rawEstimate = opts.rawEstimate;
		this.fineEstimate = opts.fineEstimate ?? memoizeEstimate(modelTokens);
		this.fitter = opts.fitter;
		this.sourcesHeadroomShare = opts.sourcesHeadroomShare;
		this.sourcesFreshShare = opts.sourcesFreshShare;
		this.earlierSources = opts.earlierSources;
		this.now = opts.now;
		this.timers = opts.timers;
		this.onEvent = opts.onEvent;
		this.tools = opts.tools ?? [];
		this.approve = opts.approve;
		this.readImage = opts.readImage;
		this.callIds = opts.callIds ?? randomCallId;
		this.outside = opts.outsideTools !== undefined ? new OutsideToolState(opts.outsideTools, opts.timers) : undefined;
		this.outsideServers = opts.outsideServers;
		this.saveToolImage = opts.saveToolImage;
		// A server's list changing mid-chat is said at once; the new list applies from the next turn.
		opts.outsideTools?.onToolsChanged?.((server) => this.onEvent(listChangedWarning(server)));
		this.recorder = new TurnRecorder({
			sessions: this.sessions,
			now: this.now,
			onMessage: (message) => this.onEvent({ type: "message", message }),
			onWarning: (message, notice) => this.onEvent({ type: "warning", message, ...notice }),
		});
	}

	/** The calibrated estimate for `model`: what the engine believes that model will count. */
	estimatorFor(model: string, imageRule?: ImageTokenRule): EstimateFn {
		const calibration = this.calibration;
		// The same function while the model and its factor stay the same: the passage cache keys a
		// note's prices by the estimator, so a note prepared before a send is found priced by it.
		const raw = calibration === undefined || calibration.samples(model) === 0;
		const factor = calibration?.factor(model) ?? 1;
		const factors = raw ? undefined : calibration?.scriptFactors(model);
		const key = `${raw ? "raw" : "fine"}\u0000${factor}\u0000${factors === undefined ? "" : JSON.stringify(factors)}\u0000${model}\u0000${JSON.stringify(imageRule ?? null)}`;
		const known = this.estimators.get(key);
		if (known) return known;
		// Before any count, today's estimate exactly. After, the per-script factors (or the one
		// factor) scale the unrounded value: scaling an estimate already rounded up, line by line, cut
		// prompts short (see calibratedTokens).
		let made: EstimateFn;
		if (raw) made = (text) => calibratedEstimate(calibration, model, this.rawEstimate(text));
		else if (factors !== undefined) made = (text) => (text === "" ? 0 : Math.max(1, Math.round(scriptEstimate(this.groups.of(text), factors))));
		else made = (text) => (text === "" ? 0 : calibratedTokens(this.fineEstimate(text), factor));
		if (imageRule !== undefined) made.imageRule = imageRule;
		// A handful of models and factors at most; a factor that moved leaves its old estimator behind.
		if (this.estimators.size >= 16) this.estimators.clear();
		this.estimators.set(key, made);
		return made;
	}

	/** What the tool definitions of a send for `model` would take (0 when it would offer none): for the meter's preview. */
	toolDefinitionsTokens(model: string, settings: ChatSettings, enabled: boolean): number {
		const tools = [...this.tools, ...(this.outside?.lastTools ?? [])];
		if (!enabled || tools.length === 0) return 0;
		const none = (): void => undefined;
		const estimate = this.estimatorFor(model, settings.imageTokens);
		const loop = new ToolLoop({ tools, approve: undefined, enabled: !this.refusals.refuses(model), settings, model, estimate, timers: this.timers, emit: none, emitCard: none });
		return loop.definitionsTokens();
	}

	/**
	 * The share of the window held back for `model` (today's default without a calibration), for
	 * a prompt in chat `chatId` (the margin follows the last counted prompt of the same chat).
	 */
	marginFor(model: string, chatId?: string): SafetyMargin {
		return this.calibration?.margin(model, chatId) ?? DEFAULT_MARGIN;
	}

	/** Before the first send of a model never counted: the server's count of this turn's prompt, learned (firstCount.ts). */
	private async countFirst(adapter: LLMAdapter, model: string, settings: ChatSettings, text: string, opts: SendOptions, signal: AbortSignal): Promise<void> {
		if (!needsFirstCount(adapter, this.calibration, model)) return;
		const estimate = this.estimatorFor(model, settings.imageTokens);
		await countFirstPrompt({ adapter, calibration: this.calibration, model, settings, text, document: opts, estimate, rawEstimate: this.rawEstimate, splits: this.groups, fitter: this.fitter, margin: this.marginFor(model).keep, signal });
	}

	/** Writes the running answer to the chat's file at once. Does nothing when idle. */
	checkpointNow(): Promise<void> {
		return this.checkpoint?.writeNow() ?? Promise.resolve();
	}

	/** The turn has ended: its checkpoint stops. */
	endTurn(): void {
		this.checkpoint?.close();
		this.checkpoint = undefined;
	}

	/** Waits (at most `ms`) for the answers still being saved. */
	async savesSettled(ms: number): Promise<void> {
		if (this.saving.size > 0) await settlesWithin(Promise.all(this.saving), ms);
	}

	async run(text: string, opts: SendOptions, signal: AbortSignal, mode: TurnMode = {}): Promise<ChatMessage> {
		if (text.trim() === "") throw new ChatError("empty_message", "Type a message first.", { text });
		await untilAborted(this.chat.switching(), signal).catch(rethrowAsStopped(signal));
		const { adapter, model, settings } = this.chat.current();
		// A model never counted: the server counts this turn's prompt first, where it can.
		await this.countFirst(adapter, model, settings, text, opts, signal);
		// What the answer costs, every request of the turn summed (summary requests apart); the answer that ends the turn carries it.
		const meter = new AnswerMeter(this.now, model, providerOf(adapter));
		const setup: TurnSetup = {
			settings,
			adapter,
			estimate: this.estimatorFor(model, settings.imageTokens),
			fitter: this.fitter,
			sourcesHeadroomShare: this.sourcesHeadroomShare,
			sourcesFreshShare: this.sourcesFreshShare,
			earlierSources: this.earlierSources(),
			recorder: this.recorder,
			emit: (event) => {
				// Whatever an abandoned call does later is not this turn's news.
				if (!signal.aborted || event.type === "message") this.onEvent(event);
			},
			signal,
			onSummaryRequest: (cost) => meter.addSummary(cost),
		};
		const { estimate } = setup;
		const continues = mode.continues;
		const whole = compactionBudget(settings, this.marginFor(model, this.chat.session()?.id).keep);
		// A continuation's instruction takes its room from the history.
		const budget = continues === undefined ? whole : { ...whole, prompt: whole.prompt - estimate(CONTINUE_INSTRUCTION) };
		// Checked before anything is saved: a message that can never be sent stays with the caller.
		checkTurnFits(settings.systemPrompt, text, budget.prompt, estimate, attachmentTokens(opts.images, estimate));
		const { session, user } = await this.recordQuestion(text, signal, mode.open, opts.images).catch(rethrowAsStopped(signal));
		mode.recorded?.(user);
		// The message's images are part of it (a regenerated or edited message keeps its own): the
		// history gets what they and the text leave.
		const imageCost = attachmentTokens(user.attachments, estimate);
		const lessImages = (b: CompactionBudget): CompactionBudget => (imageCost === 0 ? b : { ...b, prompt: b.prompt - imageCost });
		const asked = { ...opts, images: user.attachments };
		// This turn's sources as they are now: an earlier message's sources that are not (edited,
		// deleted, left out) are shed for good, never sent again.
		const current = promptSources({ sources: opts.sources, context: opts.context !== undefined && opts.context !== "" ? { text: opts.context, name: opts.contextName } : undefined });
		setup.currentSources = current;
		if (setup.earlierSources === "drop") shedSentSources(session.messages);
		else shedStaleSources(session.messages, current);
		const includeHistory = opts.includeHistory !== false;
		// The send's own choice, else the chat's saved switch (Session.tools; none saved: on).
		const offered = opts.tools ?? session.tools !== false;
		const tools = offered && !this.refusals.refuses(model) ? await this.outsideTools(adapter, session, setup) : this.tools;
		if (tools === "aborted") return continues ?? this.finishStopped(session, "");
		const loop = new ToolLoop({ tools, approve: this.approve, enabled: offered && !this.refusals.refuses(model), settings, model, estimate, timers: this.timers, emit: setup.emit, emitCard: this.onEvent, callIds: this.callIds, saveImage: this.saveToolImage });
		loop.fitOffer(fixedCost(settings.systemPrompt, undefined, text, estimate) + imageCost, budget.prompt);
		// A request that offers tools carries their definitions: the history gets what they leave.
		const prepare = async (s: TurnSetup, b: typeof budget, force: boolean): Promise<Awaited<ReturnType<typeof prepareHistory>>> => {
			const history = await prepareHistory(s, session, user, lessImages({ ...b, prompt: b.prompt - loop.definitionsTokens() }), includeHistory, force);
			return history === "aborted" || continues === undefined ? history : continuationOf(history, continues);
		};

		let prepared = await prepare(setup, budget, false);
		// Stopped before anything was asked: a continued answer stays as it was.
		if (prepared === "aborted") return continues ?? this.finishStopped(session, "");
		// Every answer kept (checkpoints too) passes the adapter's redaction: a server may echo the key
		// inside one. A continuation is kept with the text it continues.
		const prefix = continues?.content ?? "";
		const redact = (text: string): string => setup.adapter.redact?.(text) ?? text;
		const keep = (answer: string): string => redact(prefix + answer);
		const keepThought = (thought: ThinkingRecord): ThinkingRecord => (thought.thinking === undefined ? thought : { ...thought, thinking: redact(thought.thinking) });
		let streamed: StreamedAnswer | undefined;
		let prompt: BuiltPrompt | undefined;
		// What the answer records about its sources: the prompt's fits (none when no source was given).
		const sent = (): { sources?: SourceFit[] } => (prompt !== undefined && prompt.sources.length > 0 ? { sources: prompt.sources } : {});
		// Checkpoints save the current attempt's answer so far (text, thinking, and what it was given).
		const newCheckpoint = (): AnswerCheckpoint =>
			this.startCheckpoint(session.id, () => keep(streamed?.partialText ?? ""), () => ({ ...keepThought(streamed?.thinking() ?? {}), ...sent() }), continues);
		let checkpoint = newCheckpoint();
		const costs = (): AnswerExtras => meter.extras();
		prompt = assemblePrompt(setup, prepared, text, asked, budget, undefined, loop.definitionsTokens());
		// The definitions the request in flight carries: its usage is observed with them.
		let sentTools: readonly ToolSpec[] = [];
		let contextWindow = settings.maxPromptTokens;
		for (let attempt = 0; ; attempt++) {
			const answer = (streamed = new StreamedAnswer(opts, this.now));
			const sentAt = this.now();
			const sentPrompt = prompt.estimatedTokens;
			// A request that reached the model counts, whether it was answered, stopped or cut off.
			const meterPartial = (text: string): void => meter.add({ sentAt, firstTokenAt: answer.firstTokenAt, usage: undefined, estimatedPrompt: sentPrompt, estimatedAnswer: writtenTokens(estimate, text, answer.thinking().thinking) });
			try {
				// Image files are read for this request only; one that cannot be read is left out with a note.
				const messages = toolImagesAfterResults(await untilAborted(loadPromptImages(prompt.messages, this.readImage, (ref, err) => setup.emit({ type: "warning", message: missingImageNote(ref), code: err instanceof RefusedImagePath ? "image_path_refused" : "image_missing", params: { name: ref.path.split(/[\\/]/).pop() ?? ref.path } })), signal));
				const toolPart = loop.requestPart();
				sentTools = toolPart.tools ?? [];
				// The sources as sent go with the message: later prompts repeat them (a cache's prefix).
				recordSentSources(user, prompt.sourcesSection, prompt.sectionFits, current);
				const request = setup.adapter.generate({
					purpose: "chat",
					messages,
					maxTokens: settings.reservedResponseTokens,
					contextWindow,
					signal,
					...toolPart,
					// After Stop, what the person saw is the partial answer: late tokens and thinking are dropped.
					...touching(ignoredAfterStop(answer.request, signal), checkpoint),
				});
				const result = await untilAborted(request, signal);
				checkAnswer(result);
				// The whole prompt's count, or none when the server's count may have left a cached part out.
				const whole = this.promptCounts.whole(model, { usage: result.usage, messages: prompt.messages, expected: prompt.estimatedTokens, rawEstimate: this.rawEstimate });
				this.observeUsage(model, settings, prompt, sentTools, whole, session.id);
				const setAside = whole === undefined && (result.usage?.promptTokens ?? 0) > 0;
				meter.add({ sentAt, firstTokenAt: answer.firstTokenAt, usage: result.usage, estimatedPrompt: sentPrompt, estimatedAnswer: writtenTokens(estimate, answer.finalText(result), answer.thinking(result).thinking, result.toolCalls), setAside });
				const calls = loop.callsOf(result);
				if (calls.length === 0) return await this.finishAnswered(session, keep(answer.finalText(result)), { ...keepThought(answer.thinking(result)), ...sent(), ...costs() }, signal, checkpoint, result.cut === "length" ? CUT_AT_LIMIT : undefined);
				// A round: the answer with its calls is saved, then each call's result, then the model goes on.
				const called = this.recorder.answer(session, keep(answer.finalText(result)), false, { signal, keep: true }, { ...keepThought(answer.thinking(result)), ...sent(), toolCalls: calls }, { checkpoint });
				this.track(called.saved);
				const ctx = { session, user, estimate, promptBudget: budget.prompt, recorder: this.recorder, signal, track: (saved: Promise<void>) => this.track(saved) };
				if ((await loop.runRound(calls, ctx)) === "stopped" || signal.aborted) return this.finishStopped(session, keep(""), costs());
				checkpoint = newCheckpoint();
				const roundSetup: TurnSetup = { ...setup, settings: { ...settings, systemPrompt: loop.systemPromptFor(settings, text, budget.prompt, estimate) } };
				prepared = await prepare(roundSetup, budget, false);
				if (prepared === "aborted") return this.finishStopped(session, keep(""), costs(), checkpoint);
				prompt = assemblePrompt(roundSetup, prepared, text, asked, budget, undefined, loop.definitionsTokens());
				attempt = -1;
				continue;
			} catch (caught) {
				let err = caught;
				if (isAbort(err, signal)) {
					meterPartial(answer.partialText);
					return this.finishStopped(session, keep(answer.partialText), { ...keepThought(answer.thinking()), ...sent(), ...costs() }, checkpoint);
				}
				// The model cannot use tools: the same turn once more without them.
				if (loop.refused(err, this.refusals, model, session.id)) {
					// Sent without the definitions now: the same history, the sources may take their room.
					if (prepared !== "aborted") prompt = assemblePrompt(setup, prepared, text, asked, budget);
					attempt = -1;
					continue;
				}
				const overflowed = errorKind(err) === "context_overflow";
				if (overflowed) this.observeSurprise(model, settings, prompt, overflowReportOf(err), session.id);
				if (overflowed && attempt === 0) {
					// Our estimate was too low for this server: send a clearly smaller prompt once more.
					meter.addRefused(sentAt);
					const report = overflowReportOf(err);
					if (report.window !== undefined && report.window < settings.maxPromptTokens) {
						this.onEvent({ type: "window", reported: report.window, configured: settings.maxPromptTokens });
						contextWindow = report.window;
					}
					setup.emit({ type: "status", text: "Continuing conversation…", code: "continuing" });
					const forced = overflowRetryBudget(budget, settings, prompt.estimatedTokens, report, this.marginFor(model, session.id).keep);
					prepared = await prepare(setup, forced, true);
					if (prepared === "aborted") return this.finishStopped(session, keep(""), costs(), checkpoint);
					const failed = prompt;
					// The sources shrink too: the room the compacted history gave up must not go to them.
					const sourcesCap = Math.floor(failed.sourcesTokens * OVERFLOW_RETRY_SHRINK);
					prompt = assemblePrompt(setup, prepared, text, asked, forced, sourcesCap, loop.definitionsTokens());
					this.observeOverflow(model, failed, sentTools, report, session.id);
					if (prompt.estimatedTokens > forced.prompt) err = retryTooBigError(err, prompt.estimatedTokens, forced.prompt, report, settings, failed.estimatedTokens);
					else continue;
				}
				// An answer cut off (at the size cap) is kept, marked with why; the error is still reported.
				const partial = partialAnswer(err);
				if (partial !== undefined) meterPartial(partial);
				// After tool rounds the person's message was answered in part: it stays, with the calls
				// and results, and the failed answer says why (a failed message would leave them orphaned).
				// A continuation that fails leaves the answer as it was before it.
				const marked =
					continues !== undefined
						? this.recorder.restore(session, continues, { signal, keep: true }, checkpoint)
						: partial !== undefined || loop.roundsRun > 0
						? this.recorder.answer(session, keep(partial ?? ""), true, { signal, keep: true }, { ...keepThought(answer.thinking()), ...sent(), ...costs() }, { checkpoint, failure: err }).saved
						: this.recorder.failed(session, user, err, { signal, keep: true }, checkpoint);
				this.track(marked);
				await untilAborted(marked, signal).catch(() => undefined);
				throw err;
			}
		}
	}

	/** The vault tools and, after them, the MCP servers' tools for this turn ("aborted" when stopped while waiting for them). */
	private async outsideTools(adapter: LLMAdapter, session: Session, setup: TurnSetup): Promise<readonly Tool[] | "aborted"> {
		if (this.outside === undefined) return this.tools;
		try {
			const got = await this.outside.forTurn(this.outsideServers?.(), schemaDialectOf(providerOf(adapter)), setup.signal, session.id, new Set(this.tools.map((t) => t.name)));
			for (const warning of got.warnings) setup.emit(warning);
			return got.tools.length > 0 ? [...this.tools, ...got.tools] : this.tools;
		} catch (err) {
			if (setup.signal.aborted) return "aborted";
			throw err;
		}
	}

	private startCheckpoint(sessionId: string, text: () => string, extra: () => Partial<ChatMessage>, resume?: ChatMessage): AnswerCheckpoint {
		const checkpoint = new AnswerCheckpoint({
			resume: resume === undefined ? undefined : { id: resume.id, createdAt: resume.createdAt },
			sessions: this.sessions,
			sessionId,
			text,
			extra,
			now: this.now,
			timers: this.timers,
			onWarning: (message, notice) => this.onEvent({ type: "warning", message, ...notice }),
		});
		this.checkpoint = checkpoint;
		return checkpoint;
	}

	/**
	 * The chat (created on the first message) and the person's message, saved before anything is
	 * sent. A chat that cannot be created is a `storage` error carrying the text, like a message
	 * that cannot be saved.
	 */
	private async recordQuestion(text: string, signal: AbortSignal, open?: TurnMode["open"], images?: ImageRef[]): Promise<{ session: Session; user: ChatMessage }> {
		const again = open === undefined ? undefined : await untilAborted(open(), signal);
		let session = this.chat.session();
		if (again !== undefined && session !== undefined) return { session, user: again };
		if (session === undefined) {
			try {
				session = await untilAborted(this.sessions.create({ signal }), signal);
			} catch (err) {
				if (isAbort(err, signal)) throw err;
				throw ChatError.storage(text, err);
			}
			this.chat.adopt(session);
		}
		return { session, user: await this.recorder.user(session, text, signal, images) };
	}

	/** A whole answer: shown at once; a Stop while it is being saved stops the wait, not the save. */
	/** `cut`: why the answer is not whole (saved as its error, shown with it). */
	private async finishAnswered(session: Session, content: string, thought: AnswerExtras, signal: AbortSignal, checkpoint?: AnswerCheckpoint, cut?: string): Promise<ChatMessage> {
		const { message, saved } = this.recorder.answer(session, content, false, { signal, keep: true }, thought, { checkpoint, ...(cut === undefined ? {} : { failure: cut }) });
		this.track(saved);
		await untilAborted(saved, signal).catch(() => undefined);
		return message;
	}

	/**
	 * A stopped answer: kept with what was shown. Its save is waited for briefly, so Stop ends the
	 * turn at once even when the store hangs; the save still lands (flush waits for it longer).
	 */
	private async finishStopped(session: Session, partial: string, thought: AnswerExtras = {}, checkpoint?: AnswerCheckpoint): Promise<ChatMessage> {
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

	/**
	 * A prompt refused as too long: the model's margin widens at once. Not when the server named a
	 * window smaller than the configured one: that refusal says the setting is wrong, not the estimate.
	 */
	private observeSurprise(model: string, settings: ChatSettings, failed: BuiltPrompt, report: OverflowReport, chatId: string): void {
		if (report.window !== undefined && report.window < settings.maxPromptTokens) return;
		try {
			this.calibration?.surprise(model, failed.estimatedTokens, report.promptTokens, chatId);
		} catch (err) {
			console.error("Discover: token calibration failed", err);
		}
	}

	/** The server's count of a prompt it refused, against our raw estimate of it: a calibration point. */
	private observeOverflow(model: string, failed: BuiltPrompt, tools: readonly ToolSpec[], report: OverflowReport, chatId: string): void {
		if (report.promptTokens === undefined) return;
		try {
			const point = usageObservation(failed.messages, tools, model, report.promptTokens, this.rawEstimate, this.groups);
			if (point !== undefined) this.calibration?.observe(model, point.estimate, point.reported, point.groups, chatId);
		} catch (err) {
			console.error("Discover: token calibration failed", err);
		}
	}

	private observeUsage(model: string, settings: ChatSettings, prompt: BuiltPrompt, tools: readonly ToolSpec[], reported: number | undefined, chatId: string): void {
		if (reported === undefined || !Number.isFinite(reported) || reported <= 0) return;
		try {
			// With the definitions the request carried (or the ratio reads them as a larger factor).
			const point = usageObservation(prompt.messages, tools, model, reported, this.rawEstimate, this.groups);
			if (point !== undefined) this.calibration?.observe(model, point.estimate, point.reported, point.groups, chatId);
		} catch (err) {
			// Calibration refines later estimates; failing to save it must not fail an answered turn.
			console.error("Discover: token calibration failed", err);
		}
		const warning = silentPromptCutNotice(prompt.estimatedTokens, reported, settings.maxPromptTokens);
		if (warning !== undefined) this.onEvent({ type: "warning", ...warning });
	}
}
