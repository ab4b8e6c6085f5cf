import type { Role } from "../core/types";
import type { ChatUsage } from "../core/answerStats";
import type { WarningListener } from "../core/notices";

/** One row of the history list. */
export interface SessionSummary {
	id: string;
	title: string;
	createdAt: string;
	updatedAt: string;
	/** User and assistant messages; the summary is not counted. */
	messageCount: number;
	/** The last message's text on one line, shortened to about 120 characters. */
	preview: string;
	/** The tokens its answers took, per model (from their saved stats); absent when none has stats. */
	usage?: ChatUsage;
}

/** A message whose text matched a search. */
export interface SearchHit {
	sessionId: string;
	messageId: string;
	role: Role;
	/** About 160 characters around the first match, on one line, with ellipses where cut. */
	snippet: string;
	/** The message's creation time. */
	createdAt: string;
	/**
	 * The last message of the branch the hit is on (the branch `load(sessionId, { at: messageId })`
	 * opens: the active one, or the newest under the hit). A summary's hit names itself.
	 */
	leafId?: string;
	/** False when the hit is on a branch other than the active one. */
	onActiveBranch?: boolean;
	/**
	 * A hit inside a tool result: the call it answers (name and arguments, as the model gave them:
	 * untrusted) and whether it failed, so a list can name it as the panel's tool card does.
	 */
	tool?: { name: string; arguments: Record<string, unknown>; isError?: boolean };
}

export interface SearchOptions {
	/** Only messages of this role; `system` searches the summaries, which are otherwise skipped. */
	role?: Role;
	/** The most hits returned (default 100). */
	limit?: number;
}

export interface SessionManagerOptions {
	/** Clock in milliseconds; injectable for tests. */
	now?: () => number;
	/** Called for recoverable problems: a corrupt line skipped, an index rebuilt. `notice`: the same as data (core/notices.ts). */
	onWarning?: WarningListener;
	/**
	 * How long list() and search() trust their last check of every session file for changes made
	 * by sync (default 2,000 ms; 0 checks on every call). Added and removed sessions, and this
	 * manager's own changes, always show at once.
	 */
	recheckMs?: number;
}

/** How long a caller waits for a write (ChatService passes the turn's signal). */
export interface WriteOptions {
	/**
	 * The caller stops waiting when it aborts. A write that has not started is dropped (nothing is
	 * written); one under way still lands, in order with the chat's later writes, but no longer
	 * holds up other chats.
	 */
	signal?: AbortSignal;
	/** With `signal`: write even when it aborts before the write starts (a stopped answer is kept). */
	keep?: boolean;
}
