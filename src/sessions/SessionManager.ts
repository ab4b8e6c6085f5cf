import type { ChatMessage, Session } from "../core/types";
import { newId } from "./ids";
import { sessionToMarkdown, type MarkdownExportOptions } from "./markdown";
import { asChatMessage, FORMAT_VERSION, type SessionRecord } from "./records";
import { matchMessage } from "./search";
import { SessionFiles, SessionNotFoundError } from "./sessionFiles";
import { compareNewestFirst } from "./sessionIndex";
import { DEFAULT_TITLE, type SessionState } from "./sessionState";
import { alternativesOf, hiddenTurns, hideTurn, openBranch, switchBefore, switchTo, type Alternatives } from "./branchOps";
import { hitLookup } from "./search";
import { compactRecords } from "./stateRecords";
import { OperationQueue } from "./operationQueue";
import type { FileStore } from "./store";
import type { SearchHit, SearchOptions, SessionManagerOptions, SessionSummary, WriteOptions } from "./types";
import type { Notice } from "../core/notices";

export { SessionNotFoundError };
export type { Alternatives };

const DEFAULT_SEARCH_LIMIT = 100;
/** How long list() and search() trust their last check of every file against sync changes. */
const DEFAULT_RECHECK_MS = 2000;
/** Sessions read in parallel while searching: enough to hide latency, few enough to stop early. */
const SEARCH_BATCH = 32;

function checkedMessage(message: ChatMessage): ChatMessage {
	const valid = asChatMessage(message);
	if (valid === undefined) throw new TypeError("Not a valid chat message (needs id, role, content and createdAt).");
	return valid;
}

/**
 * Chat sessions on a FileStore: one append-only JSONL file per session plus an index for a fast
 * list(). Every operation runs one at a time, in call order, so the file and the cache agree.
 */
export class SessionManager {
	/** Called after any change to a session (for UI caches). */
	onChange?: (sessionId: string) => void;

	private readonly files: SessionFiles;
	private readonly now: () => number;
	/** Every operation runs one at a time, in call order (operationQueue.ts). */
	private readonly queue = new OperationQueue();

	constructor(store: FileStore, opts: SessionManagerOptions = {}) {
		this.now = opts.now ?? Date.now;
		const listener = opts.onWarning ?? ((message: string) => console.warn(`Discover: ${message}`));
		const onWarning = (message: string, notice?: Notice): void => {
			try {
				listener(message, notice);
			} catch (err) {
				// Warnings report damage that was already handled; a failing listener must not fail a load.
				console.error("Discover: session warning listener failed", err);
			}
		};
		this.files = new SessionFiles(store, onWarning, this.now, opts.recheckMs ?? DEFAULT_RECHECK_MS);
	}

	private iso(): string {
		return new Date(this.now()).toISOString();
	}

	private changed(sessionId: string): void {
		try {
			this.onChange?.(sessionId);
		} catch (err) {
			// A failing listener must not make a saved change look failed.
			console.error("Discover: session change listener failed", err);
		}
	}

	create(opts: WriteOptions = {}): Promise<Session> {
		return this.queue.run(async () => {
			const nowMs = this.now();
			const id = newId(nowMs);
			const at = new Date(nowMs).toISOString();
			const state = await this.files.writeNew(id, { type: "session", v: FORMAT_VERSION, id, createdAt: at, title: DEFAULT_TITLE, at });
			this.changed(id);
			return state.toSession();
		}, opts);
	}

	/**
	 * The session's active branch: [its summary, if any], then its user and assistant messages in
	 * order. `at` (a search hit's message) first makes that message's branch the active one.
	 */
	load(id: string, opts: { at?: string } = {}): Promise<Session> {
		const at = opts.at;
		if (at !== undefined) return this.branchOp(id, (state, now) => openBranch(state, at, now));
		return this.queue.run(async () => (await this.files.state(id)).toSession(), { sessionId: id });
	}

	/** Makes the branch through `messageId`, down to its newest message, the active one (a `switch` record). */
	switchBranch(sessionId: string, messageId: string): Promise<Session> {
		return this.branchOp(sessionId, (state, at) => openBranch(state, messageId, at));
	}

	/** Makes the branch ending exactly at `messageId` (null: before the first message) active: where a regenerated answer or an edited message goes. */
	branchAt(sessionId: string, messageId: string | null): Promise<Session> {
		return this.branchOp(sessionId, (state, at) => switchTo(state, messageId, at));
	}

	/** Makes the branch ending just before `messageId` active: an edited version of it goes there. */
	branchBefore(sessionId: string, messageId: string): Promise<Session> {
		return this.branchOp(sessionId, (state, at) => switchBefore(state, messageId, at));
	}

	/** The message's alternatives (itself included): regenerated answers, edited messages. */
	alternatives(sessionId: string, messageId: string): Promise<Alternatives> {
		return this.queue.run(async () => alternativesOf(await this.files.state(sessionId), messageId), { sessionId });
	}

	/** Hides the turn holding `messageId` from the active branch, or brings it back; nothing is erased. */
	setTurnHidden(sessionId: string, messageId: string, hidden: boolean): Promise<Session> {
		return this.branchOp(sessionId, (state, at) => hideTurn(state, messageId, hidden, at));
	}

	/** The user messages of the active branch's hidden turns (for the history browser). */
	hiddenTurns(sessionId: string): Promise<ChatMessage[]> {
		return this.queue.run(async () => {
			const state = await this.files.state(sessionId);
			return hiddenTurns(state).flatMap((id) => state.message(id) ?? []);
		}, { sessionId });
	}

	private branchOp(sessionId: string, build: (state: SessionState, at: string) => SessionRecord[]): Promise<Session> {
		return this.queue.run(
			async () => {
				const records = build(await this.files.state(sessionId), this.iso());
				for (const record of records) await this.files.append(sessionId, record);
				if (records.length > 0) this.changed(sessionId);
				return (await this.files.state(sessionId)).toSession();
			},
			{ sessionId },
		);
	}

	/** Appends one user or assistant message as one line. A message with a known id replaces it. */
	async appendMessage(sessionId: string, message: ChatMessage, opts: WriteOptions = {}): Promise<void> {
		const checked = checkedMessage(message);
		if (checked.role === "system") throw new TypeError("appendMessage takes user and assistant messages; use setSummary for the summary.");
		return this.record(sessionId, { type: "message", message: checked, at: this.iso() }, opts);
	}

	/** Sets the one summary (a `system` message); earlier summaries are replaced, messages kept. */
	async setSummary(sessionId: string, summary: ChatMessage, opts: WriteOptions = {}): Promise<void> {
		const checked = checkedMessage(summary);
		if (checked.role !== "system") throw new TypeError("A summary must be a system message.");
		return this.record(sessionId, { type: "summary", message: checked, at: this.iso() }, opts);
	}

	/** Replaces the message with the same id (or adds it when unknown), e.g. a finished answer. */
	async updateMessage(sessionId: string, message: ChatMessage, opts: WriteOptions = {}): Promise<void> {
		const checked = checkedMessage(message);
		const type = checked.role === "system" ? "summary" : "update";
		return this.record(sessionId, { type, message: checked, at: this.iso() }, opts);
	}

	/**
	 * Removes a user or assistant message by appending a record, e.g. the checkpoint of an answer
	 * whose turn failed. `message` is its last state; readers that predate removal show it instead.
	 */
	async discardMessage(sessionId: string, message: ChatMessage, opts: WriteOptions = {}): Promise<void> {
		const checked = checkedMessage(message);
		if (checked.role === "system") throw new TypeError("The summary is replaced with setSummary, not discarded.");
		return this.record(sessionId, { type: "update", message: checked, at: this.iso(), discard: true }, opts);
	}

	async rename(id: string, title: string): Promise<void> {
		const clean = title.replace(/\s+/g, " ").trim();
		if (clean === "") throw new TypeError("A session title cannot be empty.");
		return this.record(id, { type: "title", title: clean, at: this.iso() });
	}

	/** Saves the model the chat uses from now on; it comes back as `Session.model` on load. */
	async setModel(id: string, model: string): Promise<void> {
		const clean = model.trim();
		if (clean === "") throw new TypeError("A model name cannot be empty.");
		return this.record(id, { type: "model", model: clean, at: this.iso() });
	}

	/** Saves the agent (its note's vault path) the chat uses from now on; it comes back as `Session.agent` on load. */
	async setAgent(id: string, agent: string): Promise<void> {
		const clean = agent.trim();
		if (clean === "") throw new TypeError("An agent path cannot be empty.");
		return this.record(id, { type: "agent", agent: clean, at: this.iso() });
	}

	/**
	 * Saves the chat's tools switch (false: its messages go without tools); it comes back as
	 * `Session.tools` on load. A chat without one has tools on.
	 */
	async setTools(id: string, on: boolean): Promise<void> {
		if (typeof on !== "boolean") throw new TypeError("The tools switch is on (true) or off (false).");
		return this.record(id, { type: "tools", on, at: this.iso() });
	}

	private record(sessionId: string, record: SessionRecord, opts: WriteOptions = {}): Promise<void> {
		return this.queue.run(
			async () => {
				await this.files.append(sessionId, record);
				this.changed(sessionId);
			},
			{ ...opts, sessionId },
		);
	}

	/**
	 * Rewrites the whole file from `session` (which also compacts the log) through a temporary
	 * file. Unreadable lines of the old file are carried over as `corrupt` records. Messages the
	 * file holds but `session` lacks are kept, in time order: they may have come from another
	 * device after `session` was loaded, and a rewrite never erases what its caller has not seen.
	 */
	updateSession(session: Session): Promise<void> {
		return this.queue.run(async () => {
			const checked = { ...session, messages: session.messages.map(checkedMessage) };
			const at = this.iso();
			await this.files.rewrite(session.id, (current) => {
				// Messages, branches and summaries the file holds but `session` lacks are kept (compactRecords).
				return compactRecords(checked, current.corrupt, at, current);
			});
			this.changed(session.id);
		}, { sessionId: session.id });
	}

	/** Deletes the session's file. Deleting an unknown session does nothing. */
	delete(id: string): Promise<void> {
		return this.queue.run(async () => {
			if (await this.files.remove(id)) this.changed(id);
		}, { sessionId: id });
	}

	/** Every session, newest first. Reads only session files that changed since the index saw them. */
	list(): Promise<SessionSummary[]> {
		return this.queue.run(async () => {
			const index = await this.files.refresh();
			await this.files.saveIndex();
			return [...index.values()].map((e) => ({ ...e.summary })).sort(compareNewestFirst);
		});
	}

	/**
	 * Reads every session into the search cache ahead of a first search (the history browser calls
	 * it on open), a batch at a time so list() and loads are not kept waiting behind it.
	 */
	async warmSearch(): Promise<void> {
		const ids = await this.queue.run(async () => [...(await this.files.refresh()).keys()]);
		for (let i = 0; i < ids.length; i += SEARCH_BATCH) {
			const batch = ids.slice(i, i + SEARCH_BATCH);
			await this.queue.run(async () => {
				await Promise.all(batch.map((id) => this.files.stateForSearch(id)));
			});
		}
	}

	/**
	 * Case-insensitive substring search over all message text, newest sessions first, messages in
	 * order. Summaries are skipped unless `role` is `system`.
	 */
	search(query: string, opts: SearchOptions = {}): Promise<SearchHit[]> {
		// NUL separates messages in SessionState.searchText(); it is never part of a real query.
		const needle = query.split("\u0000").join("").trim().toLowerCase();
		const limit = opts.limit ?? DEFAULT_SEARCH_LIMIT;
		if (needle === "" || !(limit > 0)) return Promise.resolve([]);
		const role = opts.role;
		return this.queue.run(async () => {
			const index = await this.files.refresh();
			await this.files.saveIndex();
			const order = [...index.values()].map((e) => e.summary).sort(compareNewestFirst);
			const hits: SearchHit[] = [];
			for (let i = 0; i < order.length && hits.length < limit; i += SEARCH_BATCH) {
				const batch = order.slice(i, i + SEARCH_BATCH);
				const states = await Promise.all(batch.map((s) => this.files.stateForSearch(s.id)));
				for (const state of states) {
					if (state === undefined) continue;
					if (role !== "system" && !state.searchText().includes(needle)) continue;
					const pool = role === "system" ? (state.summary === undefined ? [] : [state.summary]) : state.transcript;
					const lookup = hitLookup(state);
					for (const message of pool) {
						if (role !== undefined && message.role !== role) continue;
						const snippet = matchMessage(message, needle);
						if (snippet === undefined) continue;
						hits.push({ sessionId: state.id, messageId: message.id, role: message.role, snippet, createdAt: message.createdAt, ...lookup.branch(message.id), ...lookup.tool(message) });
						if (hits.length >= limit) return hits;
					}
				}
			}
			return hits;
		});
	}

	/** The session as a Markdown note (frontmatter, then the turns); the caller saves it. */
	async exportMarkdown(id: string, opts: MarkdownExportOptions = {}): Promise<string> {
		return sessionToMarkdown(await this.load(id), opts);
	}

	/**
	 * Forgets cached sessions and the in-memory index; the next call reads the store afresh. Call
	 * it after pointing the store at another folder (ObsidianFileStore.setRoot).
	 */
	clearCache(): Promise<void> {
		return this.queue.run(() => {
			this.files.reset();
			return Promise.resolve();
		});
	}

	/** Writes the index now if it changed (it is otherwise written by list() and search()). */
	flush(): Promise<void> {
		return this.queue.run(() => this.files.saveIndex());
	}
}
