// What a turn is given: the send's options, the chat it runs in, and the runner's own parts.
import type { SessionManager } from "../sessions/SessionManager";
import type { ChatSettings, ContextSource, ImageRef, LLMAdapter, Session, Tool } from "../core/types";
import type { CheckpointTimers } from "./answerCheckpoint";
import type { TokenCalibration } from "./calibration";
import type { CallIdSource } from "./callIds";
import type { EstimateFn } from "./promptCost";
import type { EarlierSources } from "./promptSentSources";
import type { SourceFitter } from "./sourceFitter";
import type { ToolApprover } from "./toolCard";
import type { ToolImageSaver } from "./toolRound";
import type { TurnToolSource } from "./toolSources";
import type { ImageReader } from "./turnImages";
import type { ChatEvent } from "./turnPrompt";

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
