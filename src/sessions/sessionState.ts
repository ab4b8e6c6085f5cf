import type { ChatMessage, Session } from "../core/types";
import type { SessionRecord } from "./records";
import { BranchTree } from "./branchTree";
import type { SessionSummary } from "./types";
import { chatUsage } from "../core/answerStats";

export const DEFAULT_TITLE = "New chat";
const TITLE_MAX = 60;
const PREVIEW_MAX = 120;

/** Collapses whitespace to single spaces and shortens to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
	// Work on a prefix: this runs on every append, and a message can be a pasted book. The prefix
	// is long enough unless it is mostly whitespace, in which case the whole text is used.
	const head = text.trimStart().slice(0, max * 4);
	let flat = head.replace(/\s+/g, " ").trim();
	if (flat.length <= max && head.length < text.trimStart().length) flat = text.replace(/\s+/g, " ").trim();
	if (flat.length <= max) return flat;
	let cut = flat.slice(0, max - 1);
	// Prefer a word boundary when one is near, and never split a surrogate pair.
	const space = cut.lastIndexOf(" ");
	if (space > max * 0.6) cut = cut.slice(0, space);
	if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
	return cut.trimEnd() + "…";
}

/** The first line of `text` that is not blank, or "". */
function firstLine(text: string): string {
	for (let start = 0; start < text.length; ) {
		const newline = text.indexOf("\n", start);
		const end = newline < 0 ? text.length : newline;
		const line = text.slice(start, end);
		if (line.trim() !== "") return line;
		start = end + 1;
	}
	return "";
}

/** The title a session gets from its first user message: its first non-empty line. */
export function titleFromMessages(messages: readonly ChatMessage[]): string {
	const first = messages.find((m) => m.role === "user");
	const line = first === undefined ? "" : firstLine(first.content);
	return line === "" ? DEFAULT_TITLE : oneLine(line, TITLE_MAX);
}

function copy(message: ChatMessage): ChatMessage {
	return { ...message };
}

/** When a record was written: its `at`, else its message's creation time. */
function recordTime(record: SessionRecord): string | undefined {
	if (record.type === "message" || record.type === "update" || record.type === "summary") return record.at ?? record.message.createdAt;
	return record.at;
}

/** A time that is later than `than` (an unknown time is older than any). */
function newer(at: string | undefined, than: string | undefined): boolean {
	return than === undefined || (at !== undefined && at > than);
}

function sameMessage(a: ChatMessage | undefined, b: ChatMessage): boolean {
	return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/** A session as rebuilt from its records: the in-memory model the manager caches. */
/** The text a message record carries, in characters. */
function textSize(message: ChatMessage | undefined): number {
	return message === undefined ? 0 : message.content.length + (message.thinking?.length ?? 0);
}

export class SessionState {
	readonly id: string;
	createdAt: string;
	updatedAt: string;
	private headerTitle = DEFAULT_TITLE;
	/** Set by a rename; wins over the title taken from the first user message. */
	customTitle: string | undefined;
	/** Every user, assistant and tool message of every branch, in time order. */
	readonly transcript: ChatMessage[] = [];
	private readonly positions = new Map<string, number>();
	/** Which message follows which, the active branch and the hidden turns. */
	readonly tree = new BranchTree();
	/** Every summary, in the order written; each is valid only on branches through its `summaryOf`. */
	readonly summaries: ChatMessage[] = [];
	/** Raw unreadable lines, kept so a rewrite never erases them. */
	readonly corrupt: string[] = [];
	/** Lines that are not UTF-8, as their exact bytes: a rewrite copies them unchanged. */
	readonly undecodable: Uint8Array[] = [];
	/** When each message and summary, and the title were last set: merges keep the newest. */
	private readonly messageAt = new Map<string, string>();
	private titleAt: string | undefined;
	/** The model picked for this chat, if any (a `model` record), and when. */
	model: string | undefined;
	private modelAt: string | undefined;
	agent: string | undefined;
	private agentAt: string | undefined;
	/** False when the file's last line has no newline yet. */
	endsWithNewline = true;
	/** Records whose effect a later record replaced: what a compaction would save. */
	superseded = 0;
	/** Characters of message text in those records (an answer's checkpoints repeat its text). */
	supersededChars = 0;
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

	get title(): string {
		if (this.customTitle !== undefined) return this.customTitle;
		const auto = titleFromMessages(this.firstShownUser());
		return auto === DEFAULT_TITLE ? this.headerTitle : auto;
	}

	/** The summary the active branch uses: the newest one valid on it (see summaryFor). */
	get summary(): ChatMessage | undefined {
		return this.summaryFor(this.activeMessages());
	}

	/**
	 * The newest summary whose covered message is on `visible` (the branch's shown messages) and
	 * that was not dropped: a summary describes the branch it was made on, so another branch never
	 * gets it. A summary from before branches (no `summaryOf`) stands for every branch.
	 */
	summaryFor(visible: readonly ChatMessage[]): ChatMessage | undefined {
		if (this.summaries.length === 0) return undefined;
		const ids = new Set(visible.map((m) => m.id));
		let best: ChatMessage | undefined;
		let bestAt = "";
		for (const summary of this.summaries) {
			if (this.tree.isHidden(summary.id)) continue;
			if (summary.summaryOf !== undefined && !ids.has(summary.summaryOf)) continue;
			const at = this.messageAt.get(summary.id) ?? summary.createdAt;
			if (best === undefined || at >= bestAt) {
				best = summary;
				bestAt = at;
			}
		}
		return best;
	}

	/** The active branch's first shown message of the person's (the automatic title), as a list of at most one. */
	private firstShownUser(): ChatMessage[] {
		for (const id of this.tree.path()) {
			const message = this.message(id);
			if (message?.role === "user" && !this.tree.isHidden(id)) return [message];
		}
		return [];
	}

	/** The active branch without its hidden turns: what the chat shows and the prompt holds. */
	activeMessages(): ChatMessage[] {
		return this.visibleOn(this.tree.path());
	}

	/**
	 * The messages of a branch (its ids, first first) without hidden turns: a hidden user message
	 * hides itself and the answers, calls and results after it, up to the next user message.
	 */
	visibleOn(path: readonly string[]): ChatMessage[] {
		const out: ChatMessage[] = [];
		let skipping = false;
		for (const id of path) {
			const message = this.message(id);
			if (message === undefined) continue;
			if (message.role === "user") skipping = this.tree.isHidden(id);
			else if (this.tree.isHidden(id)) skipping = true;
			if (!skipping) out.push(message);
		}
		return out;
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
				if (this.model !== undefined) this.superseded++;
				this.model = record.model;
				this.modelAt = record.at;
				break;
			case "agent":
				if (this.agent !== undefined) this.superseded++;
				this.agent = record.agent;
				this.agentAt = record.at;
				break;
			case "corrupt":
				this.corrupt.push(record.raw);
				break;
			case "summary":
				this.setSummary(record.message, recordTime(record));
				break;
			case "switch":
				if (this.switched) this.superseded++;
				this.switched = true;
				this.tree.switchTo(record.leaf, record.at);
				break;
			case "hide":
				if (this.tree.setHidden(record.id, record.hidden, record.at)) this.superseded++;
				break;
			case "message":
			case "update":
				if (record.type === "update" && record.discard === true) this.discard(record.message.id, recordTime(record));
				else this.upsert(record.message, recordTime(record), record.parent);
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
		const at = recordTime(record);
		switch (record.type) {
			case "session":
				return false;
			case "corrupt":
				return !this.corrupt.includes(record.raw);
			case "title":
				return this.customTitle !== record.title && (this.titleAt === undefined || record.at > this.titleAt);
			case "model":
				return this.model !== record.model && newer(record.at, this.modelAt);
			case "switch":
				return this.tree.leaf !== record.leaf && newer(record.at, this.tree.leafAt);
			case "hide":
				return this.tree.isHidden(record.id) !== record.hidden && newer(record.at, this.tree.hiddenAt(record.id));
			case "agent":
				return this.agent !== record.agent && newer(record.at, this.agentAt);
			case "summary":
				return !sameMessage(this.summaryById(record.message.id), record.message) && newer(at, this.messageAt.get(record.message.id));
			case "message":
			case "update": {
				if (record.message.role === "system") return !sameMessage(this.summaryById(record.message.id), record.message) && newer(at, this.messageAt.get(record.message.id));
				const index = this.positions.get(record.message.id);
				// Unknown, or removed here (discard) after it was written: news only when newer.
				if (index === undefined) return newer(at, this.messageAt.get(record.message.id));
				return !sameMessage(this.transcript[index], record.message) && newer(at, this.messageAt.get(record.message.id));
			}
		}
	}

	/** When the message or summary with `id` was last set, if known. */
	timeOf(id: string): string | undefined {
		return this.messageAt.get(id);
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

	summaryById(id: string): ChatMessage | undefined {
		return this.summaries.find((s) => s.id === id);
	}

	private setSummary(message: ChatMessage, at: string | undefined): void {
		const index = this.summaries.findIndex((s) => s.id === message.id);
		const replaced = index >= 0 ? this.summaries[index] : this.summaries[this.summaries.length - 1];
		if (replaced !== undefined) {
			this.superseded++;
			this.supersededChars += textSize(replaced);
		}
		if (index >= 0) this.summaries[index] = copy(message);
		else this.summaries.push(copy(message));
		if (at !== undefined) this.messageAt.set(message.id, at);
	}

	private upsert(message: ChatMessage, at: string | undefined, parent: string | null | undefined): void {
		if (message.role === "system") {
			// A system message outside a summary record can only be a summary.
			this.setSummary(message, at);
			return;
		}
		if (at !== undefined) this.messageAt.set(message.id, at);
		const index = this.positions.get(message.id);
		if (index !== undefined) {
			this.supersededChars += textSize(this.transcript[index]);
			this.transcript[index] = copy(message);
			this.superseded++;
			return;
		}
		this.tree.add(message.id, parent, message.createdAt);
		// Messages stay in time order: one written on another device at the same moment can land
		// after a later one here. The common case (newest last) costs one comparison.
		let slot = this.transcript.length;
		while (slot > 0 && (this.transcript[slot - 1]?.createdAt ?? "") > message.createdAt) slot--;
		this.transcript.splice(slot, 0, copy(message));
		for (let i = slot; i < this.transcript.length; i++) {
			const id = this.transcript[i]?.id;
			if (id !== undefined) this.positions.set(id, i);
		}
	}

	/**
	 * Removes a message (a failed answer's checkpoint); both its records are now dead weight. Its
	 * time is kept, so an older copy of it merged from another writer does not bring it back.
	 */
	private discard(messageId: string, at: string | undefined): void {
		this.superseded++;
		if (at !== undefined && newer(at, this.messageAt.get(messageId))) this.messageAt.set(messageId, at);
		const index = this.positions.get(messageId);
		if (index === undefined) return;
		this.superseded++;
		this.supersededChars += textSize(this.transcript[index]);
		this.transcript.splice(index, 1);
		this.positions.delete(messageId);
		this.tree.remove(messageId);
		for (let i = index; i < this.transcript.length; i++) this.positions.set(this.transcript[i]!.id, i);
	}

	has(messageId: string): boolean {
		return this.positions.has(messageId);
	}

	/** The user or assistant message with `id`, if held (on any branch). */
	message(id: string): ChatMessage | undefined {
		const index = this.positions.get(id);
		return index === undefined ? undefined : this.transcript[index];
	}

	/** The active branch: [its summary?, then its shown messages]. */
	toSession(): Session {
		const visible = this.activeMessages();
		const messages = visible.map(copy);
		const summary = this.summaryFor(visible);
		if (summary !== undefined) messages.unshift(copy(summary));
		const session: Session = { id: this.id, title: this.title, createdAt: this.createdAt, updatedAt: this.updatedAt, messages };
		if (this.model !== undefined) session.model = this.model;
		if (this.agent !== undefined) session.agent = this.agent;
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
