import { errorKind, partialAnswer } from "../providers/errors";
import { untilAborted } from "../core/abortable";
import { RefusedImagePath } from "../core/imagePaths";
import type { ChatMessage, ChatSettings, ContextSource, GenerateResult, ImageRef, Session, SourceFit, ToolSpec } from "../core/types";
import { touching, type AnswerCheckpoint } from "./answerCheckpoint";
import type { AnswerMeter } from "./answerMeter";
import { writtenTokens } from "./answerTokens";
import type { CompactionBudget } from "./compaction";
import { OVERFLOW_RETRY_SHRINK, overflowReportOf, overflowRetryBudget, retryTooBigError } from "./overflowRetry";
import type { BuiltPrompt } from "./prompt";
import { recordSentSources } from "./promptSentSources";
import type { SafetyMargin } from "./safetyMargin";
import { StreamedAnswer, type AnswerExtras, type ThinkingRecord } from "./streamedAnswer";
import { isAbort } from "./summarizer";
import type { ToolLoop, ToolRefusals } from "./toolLoop";
import { toolImagesAfterResults } from "./toolResults";
import { checkAnswer, ignoredAfterStop } from "./turnChecks";
import type { TurnEndings } from "./turnEndings";
import { loadPromptImages, missingImageNote, type ImageReader } from "./turnImages";
import { continuationOf } from "./turnMode";
import type { TurnObservations } from "./turnObservations";
import { assemblePrompt, prepareHistory, type ChatEvent, type PreparedHistory, type TurnSetup } from "./turnPrompt";
import type { TurnRecorder } from "./turnRecorder";

/** Saved on an answer that ended at the token limit (GenerateResult.cut), and shown with it. */
export const CUT_AT_LIMIT = "The answer was cut off: it reached the token limit (the room kept for the answer, or the end of the model's context window). Ask the model to continue, or keep more room for the answer in settings.";

/** The turn as asked: the person's message saved, the budget, the tools offered (TurnRunner.run's first steps). */
export interface AskedTurn {
	setup: TurnSetup;
	/** The turn's settings (a tool round's setup carries another system prompt; these stay). */
	settings: ChatSettings;
	model: string;
	meter: AnswerMeter;
	session: Session;
	user: ChatMessage;
	text: string;
	/** What the answer streams to (StreamedAnswer's listeners). */
	opts: ConstructorParameters<typeof StreamedAnswer>[0];
	/** The send's document and sources, with the message's own images. */
	asked: { context?: string; contextName?: string; sources?: readonly ContextSource[]; images?: readonly ImageRef[] };
	budget: CompactionBudget;
	/** What the message's images take from the prompt. */
	imageCost: number;
	includeHistory: boolean;
	/** This turn's sources as they are now (recorded with the message as sent). */
	current: readonly ContextSource[];
	loop: ToolLoop;
	/** The stopped or interrupted answer this turn goes on with. */
	continues: ChatMessage | undefined;
}

/** What outlives a turn, lent to its exchange by the runner. */
export interface ExchangeServices {
	recorder: TurnRecorder;
	endings: TurnEndings;
	observations: TurnObservations;
	refusals: ToolRefusals;
	readImage: ImageReader | undefined;
	now: () => number;
	onEvent: (event: ChatEvent) => void;
	marginFor: (model: string, chatId?: string) => SafetyMargin;
	/** Starts the running answer's checkpoint (the runner keeps it for checkpointNow). */
	startCheckpoint: (sessionId: string, text: () => string, extra: () => Partial<ChatMessage>, resume?: ChatMessage) => AnswerCheckpoint;
}

/** One request of the turn as sent: when, the prompt's estimate, and its answer. */
interface SentRequest {
	at: number;
	prompt: number;
	answer: StreamedAnswer;
}

/**
 * What comes after an attempt: the turn's answer, "afresh" (the attempts count again: after a tool
 * round, or the same turn without tools) or "retry" (the next attempt: the smaller prompt after an
 * overflow).
 */
type Next = ChatMessage | { again: "afresh" | "retry"; prompt: BuiltPrompt };

/**
 * The exchange of one turn with the model: stream the answer, run the tool rounds it asks for,
 * send a clearly smaller prompt once when the server says it overflowed, and end the turn with the
 * answer saved (whole, stopped, or failed with why).
 */
export class TurnExchange {
	private streamed: StreamedAnswer | undefined;
	private prompt: BuiltPrompt | undefined;
	private prepared: PreparedHistory | undefined;
	/** The current attempt's checkpoint: started by run() before the first request. */
	private checkpoint!: AnswerCheckpoint;
	/** The definitions the request in flight carries: its usage is observed with them. */
	private sentTools: readonly ToolSpec[] = [];
	private contextWindow: number;

	constructor(
		private readonly turn: AskedTurn,
		private readonly services: ExchangeServices,
	) {
		this.contextWindow = turn.settings.maxPromptTokens;
	}

	async run(): Promise<ChatMessage> {
		const { setup, text, asked, budget, loop, session, continues } = this.turn;
		const prepared = await this.history(setup, budget, false);
		// Stopped before anything was asked: a continued answer stays as it was.
		if (prepared === "aborted") return continues ?? this.services.endings.stopped(session, "");
		this.prepared = prepared;
		this.checkpoint = this.newCheckpoint();
		let prompt = (this.prompt = assemblePrompt(setup, prepared, text, asked, budget, undefined, loop.definitionsTokens()));
		for (let attempt = 0; ; attempt++) {
			const answer = (this.streamed = new StreamedAnswer(this.turn.opts, this.services.now));
			// A request that reached the model counts, whether it was answered, stopped or cut off.
			const sent: SentRequest = { at: this.services.now(), prompt: prompt.estimatedTokens, answer };
			let next: Next;
			try {
				next = await this.answered(await this.request(prompt, answer), sent, prompt);
			} catch (caught) {
				next = await this.recover(caught, sent, attempt, prompt);
			}
			if (!("again" in next)) return next;
			if (next.again === "afresh") attempt = -1;
			prompt = next.prompt;
		}
	}

	/** The history for a request: what the message's images and the tool definitions leave (`force`: after an overflow). */
	private async history(s: TurnSetup, b: CompactionBudget, force: boolean): Promise<PreparedHistory | "aborted"> {
		const { session, user, imageCost, includeHistory, loop, continues } = this.turn;
		const room = imageCost === 0 ? b : { ...b, prompt: b.prompt - imageCost };
		const history = await prepareHistory(s, session, user, { ...room, prompt: room.prompt - loop.definitionsTokens() }, includeHistory, force);
		return history === "aborted" || continues === undefined ? history : continuationOf(history, continues);
	}

	/** One request: its images read, its sources recorded as sent, its answer streamed. */
	private async request(prompt: BuiltPrompt, answer: StreamedAnswer): Promise<GenerateResult> {
		const { setup, settings, user, current, loop } = this.turn;
		const { signal } = setup;
		// Image files are read for this request only; one that cannot be read is left out with a note.
		const messages = toolImagesAfterResults(await untilAborted(loadPromptImages(prompt.messages, this.services.readImage, (ref, err) => setup.emit({ type: "warning", message: missingImageNote(ref), code: err instanceof RefusedImagePath ? "image_path_refused" : "image_missing", params: { name: ref.path.split(/[\\/]/).pop() ?? ref.path } })), signal));
		const toolPart = loop.requestPart();
		this.sentTools = toolPart.tools ?? [];
		// The sources as sent go with the message: later prompts repeat them (a cache's prefix).
		recordSentSources(user, prompt.sourcesSection, prompt.sectionFits, current);
		const request = setup.adapter.generate({
			purpose: "chat",
			messages,
			maxTokens: settings.reservedResponseTokens,
			contextWindow: this.contextWindow,
			signal,
			...toolPart,
			// After Stop, what the person saw is the partial answer: late tokens and thinking are dropped.
			...touching(ignoredAfterStop(answer.request, signal), this.checkpoint),
		});
		const result = await untilAborted(request, signal);
		checkAnswer(result);
		return result;
	}

	/** An answer came: counted, then saved as the turn's answer, or its tool calls run as a round. */
	private async answered(result: GenerateResult, sent: SentRequest, prompt: BuiltPrompt): Promise<Next> {
		const { setup, settings, model, session, user, meter, loop, text, asked, budget } = this.turn;
		const { estimate, signal } = setup;
		const { recorder, endings, observations } = this.services;
		const { answer } = sent;
		// The whole prompt's count, or none when the server's count may have left a cached part out.
		const whole = observations.wholePrompt(model, result.usage, prompt);
		observations.usage(model, settings, prompt, this.sentTools, whole, session.id);
		const setAside = whole === undefined && (result.usage?.promptTokens ?? 0) > 0;
		meter.add({ sentAt: sent.at, firstTokenAt: answer.firstTokenAt, usage: result.usage, estimatedPrompt: sent.prompt, estimatedAnswer: writtenTokens(estimate, answer.finalText(result), answer.thinking(result).thinking, result.toolCalls), setAside });
		const calls = loop.callsOf(result);
		if (calls.length === 0) return await endings.answered(session, this.keep(answer.finalText(result)), { ...this.keepThought(answer.thinking(result)), ...this.sent(), ...this.costs() }, signal, this.checkpoint, result.cut === "length" ? CUT_AT_LIMIT : undefined);
		// A round: the answer with its calls is saved, then each call's result, then the model goes on.
		const called = recorder.answer(session, this.keep(answer.finalText(result)), false, { signal, keep: true }, { ...this.keepThought(answer.thinking(result)), ...this.sent(), toolCalls: calls }, { checkpoint: this.checkpoint });
		endings.track(called.saved);
		const ctx = { session, user, estimate, promptBudget: budget.prompt, recorder, signal, track: (saved: Promise<void>) => endings.track(saved) };
		if ((await loop.runRound(calls, ctx)) === "stopped" || signal.aborted) return endings.stopped(session, this.keep(""), this.costs());
		this.checkpoint = this.newCheckpoint();
		const roundSetup: TurnSetup = { ...setup, settings: { ...settings, systemPrompt: loop.systemPromptFor(settings, text, budget.prompt, estimate) } };
		const prepared = await this.history(roundSetup, budget, false);
		if (prepared === "aborted") return endings.stopped(session, this.keep(""), this.costs(), this.checkpoint);
		this.prepared = prepared;
		const next = (this.prompt = assemblePrompt(roundSetup, prepared, text, asked, budget, undefined, loop.definitionsTokens()));
		return { again: "afresh", prompt: next };
	}

	/**
	 * A request failed: Stop keeps what was shown; a model that cannot use tools is asked again
	 * without them; the first overflow sends a smaller prompt; anything else is saved with why, and thrown.
	 */
	private async recover(caught: unknown, sent: SentRequest, attempt: number, prompt: BuiltPrompt): Promise<Next> {
		const { setup, settings, model, session, user, meter, loop, text, asked, budget, continues } = this.turn;
		const { signal } = setup;
		const { recorder, endings, observations } = this.services;
		const { answer } = sent;
		let err = caught;
		if (isAbort(err, signal)) {
			this.meterPartial(sent, answer.partialText);
			return endings.stopped(session, this.keep(answer.partialText), { ...this.keepThought(answer.thinking()), ...this.sent(), ...this.costs() }, this.checkpoint);
		}
		// The model cannot use tools: the same turn once more without them.
		if (loop.refused(err, this.services.refusals, model, session.id)) {
			// Sent without the definitions now: the same history, the sources may take their room.
			const next = (this.prompt = this.prepared !== undefined ? assemblePrompt(setup, this.prepared, text, asked, budget) : prompt);
			return { again: "afresh", prompt: next };
		}
		const overflowed = errorKind(err) === "context_overflow";
		if (overflowed) observations.surprise(model, settings, prompt, overflowReportOf(err), session.id);
		if (overflowed && attempt === 0) {
			// Our estimate was too low for this server: send a clearly smaller prompt once more.
			meter.addRefused(sent.at);
			const report = overflowReportOf(err);
			if (report.window !== undefined && report.window < settings.maxPromptTokens) {
				this.services.onEvent({ type: "window", reported: report.window, configured: settings.maxPromptTokens });
				this.contextWindow = report.window;
			}
			setup.emit({ type: "status", text: "Continuing conversation…", code: "continuing" });
			const forced = overflowRetryBudget(budget, settings, prompt.estimatedTokens, report, this.services.marginFor(model, session.id).keep);
			const prepared = await this.history(setup, forced, true);
			if (prepared === "aborted") return endings.stopped(session, this.keep(""), this.costs(), this.checkpoint);
			this.prepared = prepared;
			const failed = prompt;
			// The sources shrink too: the room the compacted history gave up must not go to them.
			const sourcesCap = Math.floor(failed.sourcesTokens * OVERFLOW_RETRY_SHRINK);
			const smaller = (this.prompt = assemblePrompt(setup, prepared, text, asked, forced, sourcesCap, loop.definitionsTokens()));
			observations.overflow(model, failed, this.sentTools, report, session.id);
			if (smaller.estimatedTokens > forced.prompt) err = retryTooBigError(err, smaller.estimatedTokens, forced.prompt, report, settings, failed.estimatedTokens);
			else return { again: "retry", prompt: smaller };
		}
		// An answer cut off (at the size cap) is kept, marked with why; the error is still reported.
		const partial = partialAnswer(err);
		if (partial !== undefined) this.meterPartial(sent, partial);
		// After tool rounds the person's message was answered in part: it stays, with the calls
		// and results, and the failed answer says why (a failed message would leave them orphaned).
		// A continuation that fails leaves the answer as it was before it.
		const marked =
			continues !== undefined
				? recorder.restore(session, continues, { signal, keep: true }, this.checkpoint)
				: partial !== undefined || loop.roundsRun > 0
				? recorder.answer(session, this.keep(partial ?? ""), true, { signal, keep: true }, { ...this.keepThought(answer.thinking()), ...this.sent(), ...this.costs() }, { checkpoint: this.checkpoint, failure: err }).saved
				: recorder.failed(session, user, err, { signal, keep: true }, this.checkpoint);
		endings.track(marked);
		await untilAborted(marked, signal).catch(() => undefined);
		throw err;
	}

	/** A request stopped or cut off still counts, with the answer's text so far. */
	private meterPartial(sent: SentRequest, text: string): void {
		const { answer } = sent;
		this.turn.meter.add({ sentAt: sent.at, firstTokenAt: answer.firstTokenAt, usage: undefined, estimatedPrompt: sent.prompt, estimatedAnswer: writtenTokens(this.turn.setup.estimate, text, answer.thinking().thinking) });
	}

	/** Checkpoints save the current attempt's answer so far (text, thinking, and what it was given). */
	private newCheckpoint(): AnswerCheckpoint {
		const { session, continues } = this.turn;
		return this.services.startCheckpoint(session.id, () => this.keep(this.streamed?.partialText ?? ""), () => ({ ...this.keepThought(this.streamed?.thinking() ?? {}), ...this.sent() }), continues);
	}

	/**
	 * Every answer kept (checkpoints too) passes the adapter's redaction: a server may echo the key
	 * inside one. A continuation is kept with the text it continues.
	 */
	private keep(answer: string): string {
		return this.redact((this.turn.continues?.content ?? "") + answer);
	}

	private keepThought(thought: ThinkingRecord): ThinkingRecord {
		return thought.thinking === undefined ? thought : { ...thought, thinking: this.redact(thought.thinking) };
	}

	private redact(text: string): string {
		return this.turn.setup.adapter.redact?.(text) ?? text;
	}

	/** What the answer records about its sources: the prompt's fits (none when no source was given). */
	private sent(): { sources?: SourceFit[] } {
		return this.prompt !== undefined && this.prompt.sources.length > 0 ? { sources: this.prompt.sources } : {};
	}

	/** What the answer costs, every request of the turn summed. */
	private costs(): AnswerExtras {
		return this.turn.meter.extras();
	}
}
