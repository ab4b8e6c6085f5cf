import { errorKind } from "../providers/errors";
import type { AnswerCheckpoint } from "./answerCheckpoint";
import type { SessionManager } from "../sessions/SessionManager";
import { newId } from "../sessions/ids";
import { ChatError } from "./errors";
import type { ThinkingRecord } from "./streamedAnswer";
import { summaryMessage } from "./transcript";
import type { ChatMessage, Session } from "./types";

export interface TurnRecorderOptions {
	sessions: SessionManager;
	now: () => number;
	/** A message was added or replaced (user, assistant, summary). */
	onMessage: (message: ChatMessage) => void;
	onWarning: (message: string) => void;
}

const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Writes a turn's messages to the session in memory and on disk, in the order the turn needs. */
export class TurnRecorder {
	constructor(private readonly opts: TurnRecorderOptions) {}

	private iso(): string {
		return new Date(this.opts.now()).toISOString();
	}

	/**
	 * Saves the person's message before anything is sent, so nothing they wrote is lost; if it
	 * cannot be saved, nothing is sent (ChatError "storage", carrying the text).
	 */
	async user(session: Session, text: string): Promise<ChatMessage> {
		const last = session.messages[session.messages.length - 1];
		// Retrying a failed turn reuses its message rather than sending the same words twice.
		if (last !== undefined && last.role === "user" && last.error !== undefined && last.content === text) {
			const retried: ChatMessage = { id: last.id, role: "user", content: text, createdAt: last.createdAt };
			await this.persistUser(() => this.opts.sessions.updateMessage(session.id, retried), text);
			session.messages[session.messages.length - 1] = retried;
			this.opts.onMessage(retried);
			return retried;
		}
		const user: ChatMessage = { id: newId(this.opts.now()), role: "user", content: text, createdAt: this.iso() };
		await this.persistUser(() => this.opts.sessions.appendMessage(session.id, user), text);
		session.messages.push(user);
		this.opts.onMessage(user);
		return user;
	}

	private async persistUser(write: () => Promise<void>, text: string): Promise<void> {
		try {
			await write();
		} catch (err) {
			throw new ChatError("storage", `Your message could not be saved, so it was not sent: ${reason(err)}`, { text, cause: err });
		}
	}

	/** Replaces the one summary at index 0. False when it could not be saved (then it is not kept). */
	async summary(session: Session, content: string, summaryOf: string): Promise<boolean> {
		const summary: ChatMessage = { id: newId(this.opts.now()), role: "system", content, createdAt: this.iso(), summaryOf };
		try {
			await this.opts.sessions.setSummary(session.id, summary);
		} catch (err) {
			this.opts.onWarning(`The conversation summary could not be saved: ${reason(err)}`);
			return false;
		}
		if (summaryMessage(session.messages) !== undefined) session.messages[0] = summary;
		else session.messages.unshift(summary);
		this.opts.onMessage(summary);
		return true;
	}

	/**
	 * Adds the answer (a stopped one with `cancelled: true`; one cut off by `failure` also says why);
	 * a failed save is a warning, the answer stays shown. An answer that was checkpointed keeps the
	 * checkpoint's id, so it supersedes it.
	 */
	async answer(session: Session, content: string, cancelled: boolean, thought: ThinkingRecord = {}, how: { checkpoint?: AnswerCheckpoint; failure?: unknown } = {}): Promise<ChatMessage> {
		const written = how.checkpoint?.close();
		const answer: ChatMessage = written !== undefined ? { ...written, role: "assistant", content } : { id: newId(this.opts.now()), role: "assistant", content, createdAt: this.iso() };
		if (cancelled) answer.cancelled = true;
		if (thought.thinking !== undefined) answer.thinking = thought.thinking;
		if (thought.thinkingMs !== undefined) answer.thinkingMs = thought.thinkingMs;
		if (how.failure !== undefined) answer.error = reason(how.failure).slice(0, 300);
		session.messages.push(answer);
		try {
			if (written !== undefined) await this.opts.sessions.updateMessage(session.id, answer);
			else await this.opts.sessions.appendMessage(session.id, answer);
		} catch (err) {
			this.opts.onWarning(`The answer could not be saved: ${reason(err)}`);
		}
		this.opts.onMessage(answer);
		return answer;
	}

	/**
	 * Records on the person's message that its turn failed (kept, so Retry can reuse it). A failed
	 * turn has no answer, so a checkpoint of its partial answer is removed from the file too.
	 */
	async failed(session: Session, user: ChatMessage, err: unknown, checkpoint?: AnswerCheckpoint): Promise<void> {
		await this.discard(session, checkpoint);
		const kind = errorKind(err);
		const failed: ChatMessage = { ...user, error: kind !== undefined ? `The request failed (${kind}).` : "The request failed." };
		const index = session.messages.lastIndexOf(user);
		if (index >= 0) session.messages[index] = failed;
		try {
			await this.opts.sessions.updateMessage(session.id, failed);
		} catch {
			// The message itself is saved; only the failure mark is missing.
		}
		this.opts.onMessage(failed);
	}

	private async discard(session: Session, checkpoint: AnswerCheckpoint | undefined): Promise<void> {
		const written = checkpoint?.close();
		if (written === undefined) return;
		try {
			await this.opts.sessions.discardMessage(session.id, { ...written, role: "assistant", content: "", error: "The answer failed before it finished." });
		} catch (err) {
			this.opts.onWarning(`The unfinished answer could not be removed from the chat's file: ${reason(err)}`);
		}
	}
}
