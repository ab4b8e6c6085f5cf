import type { Alternatives, SessionManager } from "../sessions/SessionManager";
import { ChatError } from "./errors";
import type { SendOptions } from "./turnRunner";
import type { TurnMode } from "./turnMode";
import type { ChatMessage, Session } from "../core/types";

/** What branching needs from the chat service. */
export interface BranchingHost {
	sessions: SessionManager;
	session(): Session | undefined;
	/** The active branch changed: the chat now shows `session`. */
	adopt(session: Session): void;
	busy(): boolean;
	turn(text: string, opts: SendOptions, mode: TurnMode): Promise<ChatMessage>;
}

const noTurn = (message: string): ChatError => new ChatError("no_such_turn", message);

/** Answers that can be continued: stopped, interrupted, or cut off, with some text to go on from. */
export function isContinuable(message: ChatMessage | undefined): message is ChatMessage {
	return message?.role === "assistant" && (message.cancelled === true || message.interrupted === true || message.error !== undefined) && message.content.trim() !== "" && (message.toolCalls?.length ?? 0) === 0;
}

/**
 * Regenerate, edit, continue, delete and switch on an append-only chat: each opens or changes the
 * active branch with one record (see FORMAT.md, "Branches"), then runs an ordinary turn. Nothing
 * is erased: an old answer or message stays as an alternative, a deleted turn is hidden.
 */
export class Branching {
	constructor(private readonly host: BranchingHost) {}

	private sessionId(): string {
		const id = this.host.session()?.id;
		if (id === undefined) throw noTurn("There is no chat yet.");
		return id;
	}

	/** The chat a branch change was asked for is still the one shown (a switch may have come first). */
	private stillOn(id: string): void {
		if (this.host.session()?.id !== id) throw noTurn("The chat changed before the branch could be opened.");
	}

	private lastUser(): ChatMessage | undefined {
		const messages = this.host.session()?.messages ?? [];
		for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === "user") return messages[i];
		return undefined;
	}

	regenerate(opts: SendOptions): Promise<ChatMessage> {
		const user = this.lastUser();
		if (user === undefined) return Promise.reject(noTurn("There is no message to answer again."));
		const id = this.sessionId();
		const open = async (): Promise<ChatMessage | undefined> => {
			this.stillOn(id);
			const session = await this.host.sessions.branchAt(id, user.id);
			this.host.adopt(session);
			// A failed message is saved again without its failure (the turn's usual retry).
			return user.error === undefined ? session.messages.find((m) => m.id === user.id) : undefined;
		};
		// The message is asked again with its images.
		return this.host.turn(user.content, withImages(opts, user), { open });
	}

	editMessage(messageId: string, text: string, opts: SendOptions): Promise<ChatMessage> {
		const shown = this.host.session();
		const messages = shown?.messages ?? [];
		const message = messages.find((m) => m.id === messageId);
		if (shown === undefined || message === undefined || message.role !== "user") return Promise.reject(noTurn("Only a message of yours on the chat as shown can be edited."));
		const id = this.sessionId();
		// Where the branch ended before the edit: the chat goes back there if the edit is never saved.
		const leaf = messages[messages.length - 1]!.id;
		let branching: Promise<Session> | undefined;
		let opened: Session | undefined;
		let recorded = false;
		let ended = false;
		const open = async (): Promise<undefined> => {
			this.stillOn(id);
			branching = this.host.sessions.branchBefore(id, messageId);
			const session = await branching;
			// The turn gave up while the branch was being opened: it is not the chat's any more.
			if (!ended) this.host.adopt((opened = session));
			return undefined;
		};
		const mode = { open, recorded: () => void (recorded = true) };
		// An edited message keeps its images unless the caller gives others.
		return this.host.turn(text, withImages(opts, message), mode).catch((err: unknown) => {
			ended = true;
			if (branching !== undefined && !recorded) this.unbranch(id, leaf, shown, opened);
			throw err;
		});
	}

	/**
	 * An edit stopped or failed before its message was saved: the chat goes back to the branch it
	 * was on, so the message being edited is shown (and can be edited) again and nothing written
	 * points at a branch with nothing on it. On screen at once; on disk right after the branch
	 * being opened (the store takes a chat's writes in order).
	 */
	private unbranch(id: string, leaf: string, shown: Session, opened: Session | undefined): void {
		const current = this.host.session();
		if (current === shown || (opened !== undefined && current === opened)) this.host.adopt(shown);
		this.host.sessions.branchAt(id, leaf).catch((err: unknown) => console.error("Discover: the chat could not go back to its branch after an unsent edit", err));
	}

	continueAnswer(opts: SendOptions): Promise<ChatMessage> {
		const messages = this.host.session()?.messages ?? [];
		const answer = messages[messages.length - 1];
		const user = this.lastUser();
		if (!isContinuable(answer) || user === undefined) return Promise.reject(noTurn("The last answer is complete: there is nothing to continue."));
		// The answer goes on as it began: without tools (its calls, if any, were answered already).
		const id = this.sessionId();
		const open = (): Promise<ChatMessage> => {
			this.stillOn(id);
			return Promise.resolve(user);
		};
		return this.host.turn(user.content, { ...opts, tools: false }, { open, continues: answer });
	}

	private async change(apply: (sessionId: string) => Promise<Session>): Promise<void> {
		if (this.host.busy()) throw ChatError.busy();
		const id = this.sessionId();
		try {
			this.host.adopt(await apply(id));
		} catch (err) {
			if (err instanceof RangeError) throw noTurn(err.message);
			throw err;
		}
	}

	deleteTurn(messageId: string): Promise<void> {
		return this.change((id) => this.host.sessions.setTurnHidden(id, messageId, true));
	}

	restoreTurn(messageId: string): Promise<void> {
		return this.change((id) => this.host.sessions.setTurnHidden(id, messageId, false));
	}

	switchBranch(messageId: string): Promise<void> {
		return this.change((id) => this.host.sessions.switchBranch(id, messageId));
	}

	alternatives(messageId: string): Promise<Alternatives> {
		const id = this.host.session()?.id;
		return id === undefined ? Promise.resolve({ ids: [], index: -1 }) : this.host.sessions.alternatives(id, messageId);
	}
}

/** `opts` with the message's images when the caller named none. */
function withImages(opts: SendOptions, message: ChatMessage): SendOptions {
	return opts.images === undefined && message.attachments !== undefined && message.attachments.length > 0 ? { ...opts, images: message.attachments } : opts;
}
