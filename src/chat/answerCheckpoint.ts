import type { SessionManager } from "../sessions/SessionManager";
import { newId } from "../sessions/ids";
import type { ChatMessage, GenerateRequest } from "../core/types";
import { reasonOf, type WarningListener } from "../core/notices";

/** The least time between two timed checkpoints: a crash loses at most this much of an answer. */
export const CHECKPOINT_INTERVAL_MS = 2000;

/** The timers checkpoints are scheduled with; injected so tests can drive time by hand. */
export interface CheckpointTimers {
	set(fn: () => void, ms: number): unknown;
	clear(handle: unknown): void;
}

export interface AnswerCheckpointOptions {
	sessions: Pick<SessionManager, "appendMessage" | "updateMessage">;
	sessionId: string;
	/** The answer's text so far; read only when a checkpoint is written. */
	text: () => string;
	/** More of the answer to save with its text (its thinking so far). */
	extra?: () => Partial<ChatMessage>;
	now: () => number;
	timers: CheckpointTimers;
	intervalMs?: number;
	onWarning: WarningListener;
	/** An answer already saved that this one goes on with (a continuation): checkpoints update it. */
	resume?: CheckpointIdentity;
}

/** What the final answer needs to supersede the checkpoints: their id, when they were written. */
export interface CheckpointIdentity {
	id: string;
	createdAt: string;
}

/**
 * Keeps the answer being streamed on disk: the first checkpoint appends it as a message marked
 * `interrupted`, later ones append updates with the same id, and the finished (or stopped)
 * answer supersedes them all. A crash leaves the last checkpoint, which is then exactly what it
 * says: an interrupted answer. Every write is an append of one line; nothing is rewritten.
 */
export class AnswerCheckpoint {
	private readonly opts: AnswerCheckpointOptions;
	private readonly interval: number;
	private identity: CheckpointIdentity | undefined;
	/** Bumped by every token; compared with what was saved to skip checkpoints with nothing new. */
	private version = 0;
	private savedVersion = 0;
	private timer: unknown;
	private writing: Promise<void> | undefined;
	private closed = false;
	private warned = false;

	constructor(opts: AnswerCheckpointOptions) {
		this.opts = opts;
		this.interval = opts.intervalMs ?? CHECKPOINT_INTERVAL_MS;
		this.identity = opts.resume;
	}

	/** The id and time the final answer must carry; undefined while nothing was written. */
	get written(): CheckpointIdentity | undefined {
		return this.identity;
	}

	/**
	 * Text arrived. The first text of a quiet spell starts the clock: a checkpoint follows 2 s
	 * later and every 2 s after that while text keeps coming.
	 */
	touch(): void {
		if (this.closed) return;
		this.version++;
		if (this.timer === undefined) this.arm();
	}

	/** Writes the partial answer at once (the app is being hidden or closed), then keeps the rhythm. */
	async writeNow(): Promise<void> {
		if (this.closed) return;
		this.disarm();
		await this.writing;
		this.write();
		if (!this.closed && this.timer === undefined) this.arm();
		await this.writing;
	}

	/** The answer ended (finished, stopped, failed): no checkpoint is written after this. */
	close(): CheckpointIdentity | undefined {
		this.closed = true;
		this.disarm();
		return this.identity;
	}

	private arm(): void {
		this.timer = this.opts.timers.set(() => {
			this.timer = undefined;
			// Quiet since the last checkpoint: the next token starts the clock again.
			if (this.closed || this.version === this.savedVersion) return;
			// A slow store still busy with the last checkpoint: this one is skipped, not queued.
			if (this.writing === undefined) this.write();
			this.arm();
		}, this.interval);
	}

	private disarm(): void {
		if (this.timer === undefined) return;
		this.opts.timers.clear(this.timer);
		this.timer = undefined;
	}

	private write(): void {
		if (this.closed || this.version === this.savedVersion) return;
		const version = this.version;
		const content = this.opts.text();
		const extra = this.opts.extra?.() ?? {};
		if (content === "" && (extra.thinking ?? "") === "") return;
		const first = this.identity === undefined;
		const nowMs = this.opts.now();
		this.identity ??= { id: newId(nowMs), createdAt: new Date(nowMs).toISOString() };
		const message: ChatMessage = { ...extra, ...this.identity, role: "assistant", content, interrupted: true };
		const { sessions, sessionId } = this.opts;
		this.savedVersion = version;
		const saved = first ? sessions.appendMessage(sessionId, message) : sessions.updateMessage(sessionId, message);
		const writing = saved.then(
			() => undefined,
			(err: unknown) => {
				// The next checkpoint tries again; one warning per answer is enough.
				this.savedVersion = Math.min(this.savedVersion, version - 1);
				if (this.warned) return;
				this.warned = true;
				const why = reasonOf(err);
				this.opts.onWarning(`The answer so far could not be saved: ${why}`, { code: "checkpoint_not_saved", detail: why });
			},
		);
		this.writing = writing;
		void writing.finally(() => {
			if (this.writing === writing) this.writing = undefined;
		});
	}
}

type StreamListeners = Pick<GenerateRequest, "onToken" | "onThinking" | "onTextRetracted">;

/** The adapter's listeners with every change to the answer also telling the checkpoint. */
export function touching(listeners: StreamListeners, checkpoint: AnswerCheckpoint): StreamListeners {
	const { onToken, onThinking, onTextRetracted } = listeners;
	return {
		onToken: (delta) => {
			checkpoint.touch();
			onToken?.(delta);
		},
		onThinking: (delta) => {
			checkpoint.touch();
			onThinking?.(delta);
		},
		onTextRetracted: () => {
			checkpoint.touch();
			onTextRetracted?.();
		},
	};
}
