import type { ChatMessage, Session } from "../core/types";
import type { SessionRecord } from "./records";
import { BranchTree } from "./branchTree";
import { firstShownUser, summaryFor, visibleOn } from "./branchView";
import { isNews, recordTime } from "./recordNews";
import { copyMessage, SessionMessages } from "./sessionMessages";
import { DEFAULT_TITLE, oneLine, titleFromMessages } from "./sessionTitle";
import type { SessionSummary } from "./types";
import { chatUsage } from "../core/answerStats";

// The title helpers moved to sessionTitle.ts; importers of this module keep their names.
export { DEFAULT_TITLE, oneLine, titleFromMessages } from "./sessionTitle";

const PREVIEW_MAX = 120;

/** A session as rebuilt from its records: the in-memory model the manager caches. */
export class SessionState {
	readonly id: string;
	createdAt: string;
	updatedAt: string;
	private headerTitle = DEFAULT_TITLE;
	/** Set by a rename; wins over the title taken from the first user message. */
	customTitle: string | undefined;
	/** Which message follows which, the active branch and the hidden turns. */
	readonly tree = new BranchTree();
	/** Every message and summary of every branch, with when each was last set. */
	private readonly messages = new SessionMessages(this.tree);
	/** Raw unreadable lines, kept so a rewrite never erases them. */
	readonly corrupt: string[] = [];
	/** Lines that are not UTF-8, as their exact bytes: a rewrite copies them unchanged. */
	readonly undecodable: Uint8Array[] = [];
	/** When the title was last set: merges keep the newest. */
	private titleAt: string | undefined;
	/** The model picked for this chat, if any (a `model` record), and when. */
	model: string | undefined;
	private modelAt: string | undefined;
	agent: string | undefined;
	private agentAt: string | undefined;
	/** The chat's tools switch, if one was saved (a `tools` record), and when. */
	tools: boolean | undefined;
	private toolsAt: string | undefined;
	/** False when the file's last line has no newline yet. */
	endsWithNewline = true;
	/** Model, agent, switch and hide records a later one replaced (messages count their own). */
	private settingsSuperseded = 0;
	/** All transcript text lowercased, for search; dropped on every change. */
	private lowered: string | undefined;
	private switched = false;

	constructor(id: string, createdAt: string) {
		this.id = id;
		this.createdAt = createdAt;
		this.updatedAt = createdAt;
	}

	static fromRecords(id: string, records: readonly SessionRecord[], fallbackTime: string): SessionState {
		const header = records.find((r) => r.type === "session");
		const firstMessage = records.find((r) => r.type === "message");
		const createdAt = header?.createdAt ?? (firstMessage?.type === "message" ? firstMessage.message.createdAt : fallbackTime);
		const state = new SessionState(id, createdAt);
		for (const record of records) state.apply(record);
		return state;
	}

	/** Every user, assistant and tool message of every branch, in time order. */
	get transcript(): ChatMessage[] {
		return this.messages.transcript;
	}

	/** Every summary, in the order written; each is valid only on branches through its `summaryOf`. */
	get summaries(): ChatMessage[] {
		return this.messages.summaries;
	}

	/** Records whose effect a later record replaced: what a compaction would save. */
	get superseded(): number {
		return this.settingsSuperseded + this.messages.superseded;
	}

	/** Characters of message text in those records (an answer's checkpoints repeat its text). */
	get supersededChars(): number {
		return this.messages.supersededChars;
	}

	get title(): string {
		if (this.customTitle !== undefined) return this.customTitle;
		const auto = titleFromMessages(firstShownUser(this.tree, this.messages));
		return auto === DEFAULT_TITLE ? this.headerTitle : auto;
	}

	/** The summary the active branch uses: the newest one valid on it (see summaryFor). */
	get summary(): ChatMessage | undefined {
		return this.summaryFor(this.activeMessages());
	}

	/** The newest summary valid on the branch that shows `visible` (branchView.ts). */
	summaryFor(visible: readonly ChatMessage[]): ChatMessage | undefined {
		return summaryFor(this.tree, this.messages, visible);
	}

	/** The active branch without its hidden turns: what the chat shows and the prompt holds. */
	activeMessages(): ChatMessage[] {
		return this.visibleOn(this.tree.path());
	}

	/** The messages of a branch (its ids, first first) without hidden turns (branchView.ts). */
	visibleOn(path: readonly string[]): ChatMessage[] {
		return visibleOn(this.tree, this.messages, path);
	}

	/**
	 * The transcript's text, lowercased and joined with NUL, so a search can skip a session with
	 * one indexOf instead of one per message. SessionManager.search strips NUL from queries.
	 */
	searchText(): string {
		this.lowered ??= this.transcript.map((m) => m.content.toLowerCase()).join("\u0000");
		return this.lowered;
	}

	/** Applies one record, as the loader does for every line in order. */
	apply(record: SessionRecord): void {
		this.lowered = undefined;
		switch (record.type) {
			case "session":
				this.headerTitle = record.title;
				break;
			case "title":
				this.customTitle = record.title;
				this.titleAt = record.at;
				break;
			case "model":
				if (this.model !== undefined) this.settingsSuperseded++;
				this.model = record.model;
				this.modelAt = record.at;
				break;
			case "agent":
				if (this.agent !== undefined) this.settingsSuperseded++;
				this.agent = record.agent;
				this.agentAt = record.at;
				break;
			case "tools":
				if (this.tools !== undefined) this.settingsSuperseded++;
				this.tools = record.on;
				this.toolsAt = record.at;
				break;
			case "corrupt":
				this.corrupt.push(record.raw);
				break;
			case "summary":
				this.messages.setSummary(record.message, recordTime(record));
				break;
			case "switch":
				if (this.switched) this.settingsSuperseded++;
				this.switched = true;
				this.tree.switchTo(record.leaf, record.at);
				break;
			case "hide":
				if (this.tree.setHidden(record.id, record.hidden, record.at)) this.settingsSuperseded++;
				break;
			case "message":
			case "update":
				if (record.type === "update" && record.discard === true) this.messages.discard(record.message.id, recordTime(record));
				else this.messages.upsert(record.message, recordTime(record), record.parent);
				break;
		}
		const at = recordTime(record);
		if (at !== undefined && at > this.updatedAt) this.updatedAt = at;
	}

	/**
	 * Applies a record another writer added that this state has not seen (a merge before a
	 * rewrite): new messages and unreadable lines are added, and for a message, the summary or
	 * the title the newer time wins, so a stale copy never replaces a newer change.
	 */
	merge(record: SessionRecord): void {
		if (!this.isNews(record)) return;
		if (record.type === "corrupt" && this.corrupt.includes(record.raw)) return;
		this.apply(record);
	}

	/** True when `record` would add or change something here that is newer than what is held. */
	isNews(record: SessionRecord): boolean {
		return isNews(this, record);
	}

	/** When the message or summary with `id` was last set, if known. */
	timeOf(id: string): string | undefined {
		return this.messages.timeOf(id);
	}

	get titleTime(): string | undefined {
		return this.titleAt;
	}

	get modelTime(): string | undefined {
		return this.modelAt;
	}

	get agentTime(): string | undefined {
		return this.agentAt;
	}

	get toolsTime(): string | undefined {
		return this.toolsAt;
	}

	summaryById(id: string): ChatMessage | undefined {
		return this.messages.summaryById(id);
	}

	has(messageId: string): boolean {
		return this.messages.has(messageId);
	}

	/** The user or assistant message with `id`, if held (on any branch). */
	message(id: string): ChatMessage | undefined {
		return this.messages.message(id);
	}

	/** The active branch: [its summary?, then its shown messages]. */
	toSession(): Session {
		const visible = this.activeMessages();
		const messages = visible.map(copyMessage);
		const summary = this.summaryFor(visible);
		if (summary !== undefined) messages.unshift(copyMessage(summary));
		const session: Session = { id: this.id, title: this.title, createdAt: this.createdAt, updatedAt: this.updatedAt, messages };
		if (this.model !== undefined) session.model = this.model;
		if (this.agent !== undefined) session.agent = this.agent;
		if (this.tools !== undefined) session.tools = this.tools;
		return session;
	}

	toSummary(): SessionSummary {
		// Runs after every append: without hidden turns the branch is its whole path, read from the end.
		const hidden = this.tree.anyHidden;
		const visible = hidden ? this.activeMessages() : this.tree.path();
		const at = (i: number): ChatMessage | undefined => (hidden ? (visible[i] as ChatMessage | undefined) : this.message(visible[i] as string));
		// The last message with text: a failed answer's empty content says nothing in a list.
		let last: ChatMessage | undefined;
		for (let i = visible.length - 1; i >= 0 && last === undefined; i--) {
			const message = at(i);
			if (message !== undefined && message.content.trim() !== "") last = message;
		}
		const summary: SessionSummary = {
			id: this.id,
			title: this.title,
			createdAt: this.createdAt,
			updatedAt: this.updatedAt,
			messageCount: visible.length,
			preview: last === undefined ? "" : oneLine(last.content, PREVIEW_MAX),
		};
		// Kept in the index with the rest, so the history list shows each chat's total without reading it.
		const usage = chatUsage(this.transcript);
		if (usage !== undefined) summary.usage = usage;
		return summary;
	}
}
