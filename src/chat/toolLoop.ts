// The tool loop of one turn: model → tool calls → permission → run → results → model, until an
// answer without calls, or `maxToolRounds` rounds, after which the model is asked, without tools,
// to answer with what it has. The runner streams and saves the answers; this holds what the loop
// adds: which tools are offered, the rounds, and each round's results fitted to their share.
import { LLMError } from "../providers/errors";
import { DEFAULT_MAX_TOOL_ROUNDS } from "./chatSettings";
import type { CheckpointTimers } from "./answerCheckpoint";
import { promptMessageCost, type EstimateFn } from "./promptCost";
import { fixedCost } from "./recentWindow";
import { defaultApprover, type ToolApprover } from "./toolCard";
import { fitToolResult, imagesLeftOutNote, imagesWithin, stubOlderResults } from "./toolResults";
import { chargedToolTokens } from "./toolDefinitions";
import { runToolRound, savedImages, type ToolImageSaver } from "./toolRound";
import { inlineImageTokens } from "./promptCost";
import { MAX_TOOL_CALLS, runawayCallsError } from "../providers/toolCalls";
import { TurnResultBytes } from "./turnResultBytes";
import { randomCallId, type CallIdSource } from "./callIds";
import { turnTail } from "./turnTail";
import { summaryMessage, uncoveredHistory } from "./transcript";
import type { TurnRecorder } from "./turnRecorder";
import type { ChatEvent } from "./turnPrompt";
import type { ChatMessage, ChatSettings, GenerateRequest, GenerateResult, Session, Tool, ToolCall, ToolSpec } from "../core/types";

/** Said once per chat when the model refused the tools and the turn was answered without them. */
export const TOOLS_UNSUPPORTED_WARNING = "This model can't use tools; answering without them";

/** Added to the instructions of the last request, sent without tools. */
export const ANSWER_NOW_NOTE = "You have used all the tool calls this message allows. Answer now with what you have; say what you could not find out.";

export function isToolsUnsupported(err: unknown): boolean {
	return err instanceof LLMError && err.kind === "bad_request" && err.toolsUnsupported === true;
}

/**
 * What outlives a turn: the models that refused tools (later turns go without them) and the chats
 * already told so (said once per chat).
 */
export class ToolRefusals {
	private readonly models = new Set<string>();
	private readonly told = new Set<string>();

	refuses(model: string): boolean {
		return this.models.has(model);
	}

	/** Records a refusal; true when this chat has not been told yet. */
	note(model: string, chatId: string): boolean {
		this.models.add(model);
		if (this.told.has(chatId)) return false;
		this.told.add(chatId);
		return true;
	}
}

export interface ToolLoopOptions {
	tools: readonly Tool[];
	approve: ToolApprover | undefined;
	/** false: no tools offered this turn (the person's switch, slash commands, a model known to refuse them). */
	enabled: boolean;
	settings: ChatSettings;
	/** The turn's model and calibrated estimator: what the tool definitions are priced with. */
	model: string;
	estimate: EstimateFn;
	timers: CheckpointTimers;
	/** For the streaming calls' cards: silent after Stop (an abandoned stream's news is not this turn's). */
	emit: (event: ChatEvent) => void;
	/** For the cards of calls the loop runs: heard after Stop too, so a stopped call's card shows it ended. */
	emitCard: (event: ChatEvent) => void;
	/** Makes the engine's id for each call (default: random, unique across chats). */
	callIds?: CallIdSource;
	/** Saves the images a tool's result carries (ChatServiceOptions.saveToolImage). */
	saveImage?: ToolImageSaver;
}

export interface RoundContext {
	session: Session;
	user: ChatMessage;
	estimate: EstimateFn;
	/** Estimated tokens the prompt may take. */
	promptBudget: number;
	recorder: TurnRecorder;
	signal: AbortSignal;
	/** Keeps a save's promise until it lands (flush waits for it). */
	track: (saved: Promise<void>) => void;
}

export class ToolLoop {
	readonly tools: ReadonlyMap<string, Tool>;
	/** The definitions sent with every request that offers tools (built once per turn). */
	private readonly specs: readonly ToolSpec[];
	private offering: boolean;
	/** Rounds of calls run so far. */
	private rounds = 0;
	private readonly maxRounds: number;
	private readonly newCallId: CallIdSource;
	/** The engine's ids of the calls the request in flight streams, by their place in its answer. */
	private streamIds = new Map<number, string>();
	/** The turn's results saved so far, against their 2 MB. */
	private readonly resultBytes = new TurnResultBytes();

	constructor(private readonly opts: ToolLoopOptions) {
		this.newCallId = opts.callIds ?? randomCallId;
		this.tools = new Map(opts.tools.map((t) => [t.name, t]));
		this.specs = [...this.tools.values()].map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
		this.offering = opts.enabled && this.tools.size > 0;
		this.maxRounds = opts.settings.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
		if (this.maxRounds <= 0) this.offering = false;
	}

	/** Tools are offered in the next request. */
	get offered(): boolean {
		return this.offering;
	}

	/** The rounds ran out: the next request goes without tools and asks for an answer. */
	get exhausted(): boolean {
		return this.rounds > 0 && this.rounds >= this.maxRounds;
	}

	get roundsRun(): number {
		return this.rounds;
	}

	/**
	 * Tokens the next request's tool definitions take (0 when it offers none): held back from the
	 * budget of every request that offers tools, and counted in its estimate.
	 */
	definitionsTokens(): number {
		return this.offering ? chargedToolTokens(this.specs, this.opts.model, this.opts.estimate) : 0;
	}

	/**
	 * Offers no tools this turn when their definitions cannot fit beside the instructions and the
	 * message (`fixed` tokens) in `promptBudget`: the message goes without them rather than overflow.
	 */
	fitOffer(fixed: number, promptBudget: number): void {
		if (this.offering && fixed + this.definitionsTokens() > promptBudget) this.offering = false;
	}

	/** What the next request carries for tools: their specs and a listener for the calls' progress. */
	requestPart(): Pick<GenerateRequest, "tools" | "onToolCall"> {
		if (!this.offering) return {};
		const round = this.rounds + 1;
		const ids = (this.streamIds = new Map<number, string>());
		return {
			tools: this.specs.map((t) => ({ ...t })),
			onToolCall: (p) => {
				const tool = this.tools.get(p.name);
				// The card goes by the engine's id from the first fragment: the server's may repeat.
				let id = ids.get(p.index);
				if (id === undefined) ids.set(p.index, (id = this.newCallId()));
				this.opts.emit({ type: "tool", card: { id, index: p.index, round, name: p.name, state: "input", argumentsText: p.argumentsText, ...(tool ? { access: tool.access } : {}) } });
			},
		};
	}

	/**
	 * The calls to run from an answer, each under the engine's own id (the one its streamed card
	 * has), the server's id kept in `serverId`: none when tools were not offered (a stray call is
	 * ignored).
	 */
	callsOf(result: GenerateResult): ToolCall[] {
		if (!this.offering || !Array.isArray(result.toolCalls)) return [];
		// As the dialects' collector refuses it, whatever adapter made the answer.
		if (result.toolCalls.length > MAX_TOOL_CALLS) throw runawayCallsError();
		return result.toolCalls.map((call, index) => ({ ...call, id: this.streamIds.get(index) ?? this.newCallId(), serverId: call.serverId ?? call.id }));
	}

	/**
	 * The server refused the tools (`toolsUnsupported`): the turn goes on once more without them,
	 * and the chat is told once. False for any other error, or when tools were not offered.
	 */
	refused(err: unknown, refusals: ToolRefusals, model: string, chatId: string): boolean {
		if (!this.offering || !isToolsUnsupported(err)) return false;
		this.offering = false;
		if (refusals.note(model, chatId)) this.opts.emit({ type: "warning", message: TOOLS_UNSUPPORTED_WARNING, code: "tools_unsupported" });
		return true;
	}

	/** The instructions for the next request: with the "answer now" note once the rounds ran out (when it fits). */
	systemPromptFor(settings: ChatSettings, current: string, promptBudget: number, estimate: EstimateFn): string {
		if (!this.exhausted) return settings.systemPrompt;
		const withNote = `${settings.systemPrompt.trim()}\n\n${ANSWER_NOW_NOTE}`;
		return fixedCost(withNote, undefined, current, estimate) <= promptBudget ? withNote : settings.systemPrompt;
	}

	/**
	 * Runs one round: every call gets its result (fitted to its share), saved in call order after
	 * the assistant's message that made the calls. "stopped" when Stop ended it.
	 */
	async runRound(calls: readonly ToolCall[], ctx: RoundContext): Promise<"done" | "stopped"> {
		this.rounds++;
		if (this.rounds >= this.maxRounds) this.offering = false;
		const share = this.resultShare(calls, ctx);
		const query = ctx.user.content;
		return runToolRound({
			calls,
			round: this.rounds,
			tools: this.tools,
			approve: this.opts.approve ?? defaultApprover,
			timers: this.opts.timers,
			signal: ctx.signal,
			onCard: (card) => this.opts.emitCard({ type: "tool", card }),
			takesImages: this.opts.saveImage !== undefined,
			record: async (call, tool, outcome) => {
				// The images are priced inside the result's share (by their headers), and only those that
				// fit are saved: one left out is never written. The text gets what they leave.
				const textTokens = ctx.estimate(outcome.text);
				const images = imagesWithin(outcome.images, share, textTokens, (image) => inlineImageTokens(image, ctx.estimate));
				const save = this.opts.saveImage;
				const attachments = images.kept !== undefined && save !== undefined && !ctx.signal.aborted ? await savedImages(images.kept, save, call.id) : undefined;
				const fitted = fitToolResult(outcome.text, Math.max(0, share - images.cost), outcome.isError ? "write" : (tool?.access ?? "write"), query, call.id, ctx.estimate, textTokens);
				const content = this.resultBytes.take(fitted) + imagesLeftOutNote(images.left);
				// Saved even after Stop: a call is never left without its result.
				const { saved } = ctx.recorder.toolResult(ctx.session, call, content, outcome.isError, { keep: true }, attachments, tool?.mcp);
				ctx.track(saved);
				return { content, ...(attachments !== undefined ? { attachments } : {}) };
			},
		});
	}

	/**
	 * Each result's share: what the prompt leaves beside the tool definitions (when the next request
	 * offers them), the instructions, the message, the conversation's reserve and this turn's calls
	 * with every earlier result stubbed, split evenly among this round's calls.
	 */
	private resultShare(calls: readonly ToolCall[], ctx: RoundContext): number {
		const { estimate, session } = ctx;
		const budget = ctx.promptBudget - this.definitionsTokens();
		const tail = turnTail(session.messages, session.messages.lastIndexOf(ctx.user));
		const stubbed = stubOlderResults([tail], 0, Infinity, estimate).parts[0] ?? [];
		let used = fixedCost(this.opts.settings.systemPrompt, undefined, ctx.user.content, estimate);
		for (const m of stubbed) used += promptMessageCost(m, estimate);
		// The conversation keeps some room (up to a quarter of the budget): one large read must not
		// force the whole chat into a summary.
		used += Math.min(this.conversationCost(ctx), Math.floor(budget / 4));
		for (const call of calls) used += promptMessageCost({ role: "tool", content: "", name: call.name }, estimate);
		return Math.max(0, Math.floor((budget - used) / Math.max(1, calls.length)));
	}

	/** The conversation before this turn as it would go now: its summary and the messages after it. */
	private conversationCost(ctx: RoundContext): number {
		const messages = ctx.session.messages;
		let cost = ctx.estimate(summaryMessage(messages)?.content ?? "");
		for (const m of uncoveredHistory(messages, messages.lastIndexOf(ctx.user))) cost += promptMessageCost(m, ctx.estimate);
		return cost;
	}
}
