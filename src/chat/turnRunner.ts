import type { SessionManager } from "../sessions/SessionManager";
import { memoizeEstimate, type EstimateFn } from "./promptCost";
import { fixedCost } from "./recentWindow";
import { countFirstPrompt, needsFirstCount } from "./firstCount";
import { modelTokens } from "./tokenFast";
import { scriptEstimate } from "./scriptCalibration";
import { ScriptSplits } from "./scriptSplits";
import type { SafetyMargin } from "./safetyMargin";
import { untilAborted } from "../core/abortable";
import { calibratedEstimate, calibratedTokens, type TokenCalibration } from "./calibration";
import { DEFAULT_MARGIN } from "./safetyMargin";
import { compactionBudget } from "./compaction";
import { attachmentTokens, type ImageReader } from "./turnImages";
import { ChatError } from "./errors";
import { isAbort } from "./summarizer";
import { promptSources } from "./prompt";
import { shedSentSources, shedStaleSources, type EarlierSources } from "./promptSentSources";
import type { SourceFitter } from "./sourceFitter";
import { AnswerCheckpoint, type CheckpointTimers } from "./answerCheckpoint";
import { TurnRecorder } from "./turnRecorder";
import type { ChatEvent, TurnSetup } from "./turnPrompt";
import type { SendOptions, TurnChat, TurnRunnerOptions } from "./turnOptions";
import type { ChatMessage, ChatSettings, ImageRef, ImageTokenRule, LLMAdapter, Session, Tool } from "../core/types";
import { ToolLoop, ToolRefusals } from "./toolLoop";
import type { ToolImageSaver } from "./toolRound";
import { randomCallId, type CallIdSource } from "./callIds";
import { AnswerMeter, providerOf } from "./answerMeter";
import type { ToolApprover } from "./toolCard";
import { checkTurnFits, rethrowAsStopped } from "./turnChecks";
import { CONTINUE_INSTRUCTION, type TurnMode } from "./turnMode";
import { listChangedWarning, OutsideToolState, schemaDialectOf } from "./toolSources";
import { TurnEndings } from "./turnEndings";
import { TurnObservations } from "./turnObservations";
import { TurnExchange, type AskedTurn } from "./turnExchange";

export type { SendOptions, TurnChat, TurnRunnerOptions } from "./turnOptions";

/** A turn's start: the chat's model and settings as they are now, the meter, and what the turn reads from the service. */
interface TurnStart {
	adapter: LLMAdapter;
	model: string;
	settings: ChatSettings;
	meter: AnswerMeter;
	setup: TurnSetup;
}

/** The question asked: saved, with the budget it was checked against and this turn's sources. */
type Question = Pick<AskedTurn, "session" | "user" | "asked" | "budget" | "imageCost" | "includeHistory" | "current">;

/**
 * Runs one turn, in named steps: start (the chat as it is now, the first count of a new model),
 * ask (the budget checked, the person's message saved, the sources as they are now), offer the
 * tools, then the exchange with the model (turnExchange.ts: stream, tool rounds, the smaller retry
 * after an overflow, the answer saved). It also keeps what outlives a turn: the running answer's
 * checkpoint and the answers still being saved.
 */
export class TurnRunner {
	private readonly chat: TurnChat;
	private readonly sessions: SessionManager;
	private readonly calibration: TokenCalibration | undefined;
	private readonly rawEstimate: EstimateFn;
	private readonly fineEstimate: EstimateFn;
	/** Estimates split by script group, by text: what per-script factors scale. */
	private readonly groups = new ScriptSplits();
	private readonly fitter: SourceFitter;
	private readonly now: () => number;
	private readonly timers: CheckpointTimers;
	private readonly onEvent: (event: ChatEvent) => void;
	private readonly recorder: TurnRecorder;
	/** How turns end in the chat's file, and the answers still being saved. */
	private readonly endings: TurnEndings;
	/** What the server's counts teach the calibration. */
	private readonly observations: TurnObservations;
	/** The running answer's checkpoint, for checkpointNow(). */
	private checkpoint: AnswerCheckpoint | undefined;
	/** Estimators by model and calibration state (estimatorFor). */
	private readonly estimators = new Map<string, EstimateFn>();
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
		this.endings = new TurnEndings(this.recorder);
		this.observations = new TurnObservations({ calibration: this.calibration, rawEstimate: this.rawEstimate, groups: this.groups, onEvent: (event) => this.onEvent(event) });
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
		await this.endings.settled(ms);
	}

	async run(text: string, opts: SendOptions, signal: AbortSignal, mode: TurnMode = {}): Promise<ChatMessage> {
		if (text.trim() === "") throw new ChatError("empty_message", "Type a message first.", { text });
		const start = await this.start(text, opts, signal);
		const asked = await this.ask(start, text, opts, signal, mode);
		const loop = await this.offerTools(start, asked, text, opts);
		if (loop === "aborted") return mode.continues ?? this.endings.stopped(asked.session, "");
		const turn: AskedTurn = { ...asked, setup: start.setup, settings: start.settings, model: start.model, meter: start.meter, text, opts, loop, continues: mode.continues };
		return new TurnExchange(turn, {
			recorder: this.recorder,
			endings: this.endings,
			observations: this.observations,
			refusals: this.refusals,
			readImage: this.readImage,
			now: this.now,
			onEvent: this.onEvent,
			marginFor: (model, chatId) => this.marginFor(model, chatId),
			startCheckpoint: (sessionId, answer, extra, resume) => this.startCheckpoint(sessionId, answer, extra, resume),
		}).run();
	}

	/** The turn's start: after any session switch, the chat's model and settings now; a model never counted is counted first. */
	private async start(text: string, opts: SendOptions, signal: AbortSignal): Promise<TurnStart> {
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
		return { adapter, model, settings, meter, setup };
	}

	/**
	 * The question asked: the message checked against the budget before anything is saved, then
	 * saved (with the chat, on the first message), and the earlier sources shed that are no longer
	 * this turn's.
	 */
	private async ask(start: TurnStart, text: string, opts: SendOptions, signal: AbortSignal, mode: TurnMode): Promise<Question> {
		const { model, settings, setup } = start;
		const { estimate } = setup;
		const whole = compactionBudget(settings, this.marginFor(model, this.chat.session()?.id).keep);
		// A continuation's instruction takes its room from the history.
		const budget = mode.continues === undefined ? whole : { ...whole, prompt: whole.prompt - estimate(CONTINUE_INSTRUCTION) };
		// Checked before anything is saved: a message that can never be sent stays with the caller.
		checkTurnFits(settings.systemPrompt, text, budget.prompt, estimate, attachmentTokens(opts.images, estimate));
		const { session, user } = await this.recordQuestion(text, signal, mode.open, opts.images).catch(rethrowAsStopped(signal));
		mode.recorded?.(user);
		// The message's images are part of it (a regenerated or edited message keeps its own): the
		// history gets what they and the text leave.
		const imageCost = attachmentTokens(user.attachments, estimate);
		const asked = { ...opts, images: user.attachments };
		// This turn's sources as they are now: an earlier message's sources that are not (edited,
		// deleted, left out) are shed for good, never sent again.
		const current = promptSources({ sources: opts.sources, context: opts.context !== undefined && opts.context !== "" ? { text: opts.context, name: opts.contextName } : undefined });
		setup.currentSources = current;
		if (setup.earlierSources === "drop") shedSentSources(session.messages);
		else shedStaleSources(session.messages, current);
		const includeHistory = opts.includeHistory !== false;
		return { session, user, asked, budget, imageCost, includeHistory, current };
	}

	/**
	 * The tools this turn offers: the send's own choice, else the chat's saved switch (Session.tools;
	 * none saved: on); the MCP servers' tools asked for now. "aborted" when stopped while waiting for them.
	 */
	private async offerTools(start: TurnStart, { session, imageCost, budget }: Question, text: string, opts: SendOptions): Promise<ToolLoop | "aborted"> {
		const { adapter, model, settings, setup } = start;
		const offered = opts.tools ?? session.tools !== false;
		const tools = offered && !this.refusals.refuses(model) ? await this.outsideTools(adapter, session, setup) : this.tools;
		if (tools === "aborted") return "aborted";
		const loop = new ToolLoop({ tools, approve: this.approve, enabled: offered && !this.refusals.refuses(model), settings, model, estimate: setup.estimate, timers: this.timers, emit: setup.emit, emitCard: this.onEvent, callIds: this.callIds, saveImage: this.saveToolImage });
		loop.fitOffer(fixedCost(settings.systemPrompt, undefined, text, setup.estimate) + imageCost, budget.prompt);
		return loop;
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
}
