import { errorKind } from "../providers/errors";
import type { AnswerCheckpoint } from "./answerCheckpoint";
import type { SessionManager } from "../sessions/SessionManager";
import type { WriteOptions } from "../sessions/types";
import { newId } from "../sessions/ids";
import { untilAborted } from "../core/abortable";
import { ChatError } from "./errors";
import type { AnswerExtras } from "./streamedAnswer";
import { isAbort } from "./summarizer";
import { summaryMessage } from "./transcript";
import type { ChatMessage, ImageRef, McpToolOrigin, Session, ToolCall } from "../core/types";
import { reasonOf, type WarningListener } from "../core/notices";

export interface TurnRecorderOptions {
	sessions: SessionManager;
	now: () => number;
	/** A message was added or replaced (user, assistant, summary). */
	onMessage: (message: ChatMessage) => void;
	onWarning: WarningListener;
}

const reason = reasonOf;

/** Writes a turn's messages to the session in memory and on disk, in the order the turn needs. */
export class TurnRecorder {
	constructor(private readonly opts: TurnRecorderOptions) {}

	private iso(): string {
		return new Date(this.opts.now()).toISOString();
	}

	/**
	 * Saves the person's message before anything is sent, so nothing they wrote is lost; if it
	 * cannot be saved, nothing is sent (ChatError "storage", carrying the text). A stop while it is
	 * being saved rejects with an abort, and the message is not added here.
	 */
	async user(session: Session, text: string, signal?: AbortSignal, images?: ImageRef[]): Promise<ChatMessage> {
		const last = session.messages[session.messages.length - 1];
		// Images by reference only: a session file never holds image bytes.
		const attached = images !== undefined && images.length > 0 ? { attachments: images.map((i) => ({ path: i.path, mediaType: i.mediaType, width: i.width, height: i.height, bytes: i.bytes })) } : {};
		// Retrying a failed turn reuses its message rather than sending the same words twice.
		if (last !== undefined && last.role === "user" && last.error !== undefined && last.content === text) {
			const retried: ChatMessage = { id: last.id, role: "user", content: text, createdAt: last.createdAt, ...attached };
			await this.persistUser(() => this.opts.sessions.updateMessage(session.id, retried, { signal }), text, signal);
			session.messages[session.messages.length - 1] = retried;
			this.opts.onMessage(retried);
			return retried;
		}
		const user: ChatMessage = { id: newId(this.opts.now()), role: "user", content: text, createdAt: this.iso(), ...attached };
		await this.persistUser(() => this.opts.sessions.appendMessage(session.id, user, { signal }), text, signal);
		session.messages.push(user);
		this.opts.onMessage(user);
		return user;
	}

	private async persistUser(write: () => Promise<void>, text: string, signal: AbortSignal | undefined): Promise<void> {
		try {
			// Raced here too: whatever store stands behind `sessions`, a stop ends the wait.
			await untilAborted(write(), signal);
		} catch (err) {
			if (isAbort(err, signal)) throw err;
			throw new ChatError("storage", `Your message could not be saved, so it was not sent: ${reason(err)}`, { text, cause: err });
		}
	}

	/**
	 * Replaces the one summary at index 0. False when it could not be saved (then it is not kept);
	 * a stop while it is being saved rejects with an abort, and the summary is not kept in memory.
	 */
	async summary(session: Session, content: string, summaryOf: string, signal?: AbortSignal): Promise<boolean> {
		const summary: ChatMessage = { id: newId(this.opts.now()), role: "system", content, createdAt: this.iso(), summaryOf };
		try {
			await untilAborted(this.opts.sessions.setSummary(session.id, summary, { signal }), signal);
		} catch (err) {
			if (isAbort(err, signal)) throw err;
			this.opts.onWarning(`The conversation summary could not be saved: ${reason(err)}`, { code: "summary_not_saved", detail: reason(err) });
			return false;
		}
		if (summaryMessage(session.messages) !== undefined) session.messages[0] = summary;
		else session.messages.unshift(summary);
		this.opts.onMessage(summary);
		return true;
	}

	/**
	 * Adds the answer (a stopped one with `cancelled: true`; one cut off by `failure` also says why)
	 * in memory at once; `saved` settles when it is on disk (a failed save is a warning: the answer
	 * stays shown). An answer that was checkpointed keeps the checkpoint's id, so it supersedes it.
	 */
	answer(
		session: Session,
		content: string,
		cancelled: boolean,
		save: WriteOptions,
		thought: AnswerExtras = {},
		how: { checkpoint?: AnswerCheckpoint; failure?: unknown } = {},
	): { message: ChatMessage; saved: Promise<void> } {
		const written = how.checkpoint?.close();
		const answer: ChatMessage = written !== undefined ? { ...written, role: "assistant", content } : { id: newId(this.opts.now()), role: "assistant", content, createdAt: this.iso() };
		if (cancelled) answer.cancelled = true;
		if (thought.thinking !== undefined) answer.thinking = thought.thinking;
		if (thought.thinkingMs !== undefined) answer.thinkingMs = thought.thinkingMs;
		if (thought.sources !== undefined) answer.sources = thought.sources;
		if (thought.toolCalls !== undefined && thought.toolCalls.length > 0) answer.toolCalls = thought.toolCalls;
		if (thought.stats !== undefined) answer.stats = thought.stats;
		if (how.failure !== undefined) answer.error = reason(how.failure).slice(0, 300);
		// A continued answer replaces itself (the checkpoint carried its id); any other is new.
		const last = session.messages.length - 1;
		if (session.messages[last]?.id === answer.id) session.messages[last] = answer;
		else session.messages.push(answer);
		this.opts.onMessage(answer);
		const write = written !== undefined ? this.opts.sessions.updateMessage(session.id, answer, save) : this.opts.sessions.appendMessage(session.id, answer, save);
		const saved = write.catch((err: unknown) => {
			this.opts.onWarning(`The answer could not be saved: ${reason(err)}`, { code: "answer_not_saved", detail: reason(err) });
		});
		return { message: answer, saved };
	}

	/**
	 * Adds one tool result in memory at once, right after its call (or the results before it);
	 * `saved` settles when it is on disk (a failed save is a warning: the result is still sent).
	 */
	toolResult(session: Session, call: ToolCall, content: string, isError: boolean, save: WriteOptions, attachments?: ImageRef[], mcp?: McpToolOrigin): { message: ChatMessage; saved: Promise<void> } {
		const message: ChatMessage = { id: newId(this.opts.now()), role: "tool", content, toolCallId: call.id, name: call.name, createdAt: this.iso() };
		if (isError) message.isError = true;
		if (mcp !== undefined) message.mcp = mcp;
		if (attachments !== undefined && attachments.length > 0) message.attachments = [...attachments];
		session.messages.push(message);
		this.opts.onMessage(message);
		const saved = this.opts.sessions.appendMessage(session.id, message, save).catch((err: unknown) => {
			this.opts.onWarning(`A tool result could not be saved: ${reason(err)}`, { code: "tool_result_not_saved", detail: reason(err) });
		});
		return { message, saved };
	}

	/**
	 * Marks the person's message as failed (kept, so Retry can reuse it); the returned promise
	 * settles when the mark is on disk. A failed turn has no answer, so a checkpoint of its partial
	 * answer is removed from the file too.
	 */
	failed(session: Session, user: ChatMessage, err: unknown, save: WriteOptions, checkpoint?: AnswerCheckpoint): Promise<void> {
		const kind = errorKind(err);
		const failed: ChatMessage = { ...user, error: kind !== undefined ? `The request failed (${kind}).` : "The request failed." };
		const index = session.messages.lastIndexOf(user);
		if (index >= 0) session.messages[index] = failed;
		this.opts.onMessage(failed);
		const discarded = this.discard(session, checkpoint, save);
		const marked = this.opts.sessions.updateMessage(session.id, failed, save).catch(() => {
			// The message itself is saved; only the failure mark is missing.
		});
		return Promise.all([discarded, marked]).then(() => undefined);
	}

	/** Puts `message` back as it was (a continuation failed): in memory, and on disk over its checkpoints. */
	restore(session: Session, message: ChatMessage, save: WriteOptions, checkpoint?: AnswerCheckpoint): Promise<void> {
		checkpoint?.close();
		const index = session.messages.findIndex((m) => m.id === message.id);
		if (index >= 0) session.messages[index] = message;
		this.opts.onMessage(message);
		return this.opts.sessions.updateMessage(session.id, message, save).catch((err: unknown) => {
			this.opts.onWarning(`The answer could not be saved: ${reason(err)}`, { code: "answer_not_saved", detail: reason(err) });
		});
	}

	private async discard(session: Session, checkpoint: AnswerCheckpoint | undefined, save: WriteOptions): Promise<void> {
		const written = checkpoint?.close();
		if (written === undefined) return;
		try {
			await this.opts.sessions.discardMessage(session.id, { ...written, role: "assistant", content: "", error: "The answer failed before it finished." }, save);
		} catch (err) {
			this.opts.onWarning(`The unfinished answer could not be removed from the chat's file: ${reason(err)}`, { code: "unfinished_answer_not_removed", detail: reason(err) });
		}
	}
}
