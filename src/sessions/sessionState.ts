import type { ChatMessage, Session } from "../core/types";
import { FORMAT_VERSION, type SessionRecord } from "./records";
import type { SessionSummary } from "./types";

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
	/** User and assistant messages in order. */
	readonly transcript: ChatMessage[] = [];
	private readonly positions = new Map<string, number>();
	summary: ChatMessage | undefined;
	/** Raw unreadable lines, kept so a rewrite never erases them. */
	readonly corrupt: string[] = [];
	/** Lines that are not UTF-8, as their exact bytes: a rewrite copies them unchanged. */
	readonly undecodable: Uint8Array[] = [];
	/** When each message, the summary and the title were last set: merges keep the newest. */
	private readonly messageAt = new Map<string, string>();
	private summaryAt: string | undefined;
	private titleAt: string | undefined;
	/** The model picked for this chat, if any (a `model` record), and when. */
	model: string | undefined;
	private modelAt: string | undefined;
	/** False when the file's last line has no newline yet. */
	endsWithNewline = true;
	/** Records whose effect a later record replaced: what a compaction would save. */
	superseded = 0;
	/** Characters of message text in those records (an answer's checkpoints repeat its text). */
	supersededChars = 0;
	/** All transcript text lowercased, for search; dropped on every change. */
	private lowered: string | undefined;

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
		const auto = titleFromMessages(this.transcript);
		return auto === DEFAULT_TITLE ? this.headerTitle : auto;
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
			case "corrupt":
				this.corrupt.push(record.raw);
				break;
			case "summary":
				this.setSummary(record.message, recordTime(record));
				break;
			case "message":
			case "update":
				if (record.type === "update" && record.discard === true) this.discard(record.message.id, recordTime(record));
				else this.upsert(record.message, recordTime(record));
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
			case "summary":
				return !sameMessage(this.summary, record.message) && newer(at, this.summaryAt);
			case "message":
			case "update": {
				if (record.message.role === "system") return !sameMessage(this.summary, record.message) && newer(at, this.summaryAt);
				const index = this.positions.get(record.message.id);
				// Unknown, or removed here (discard) after it was written: news only when newer.
				if (index === undefined) return newer(at, this.messageAt.get(record.message.id));
				return !sameMessage(this.transcript[index], record.message) && newer(at, this.messageAt.get(record.message.id));
			}
		}
	}

	/** When the message with `id` was last set, if known. */
	timeOf(id: string): string | undefined {
		return this.summary?.id === id ? this.summaryAt : this.messageAt.get(id);
	}

	get titleTime(): string | undefined {
		return this.titleAt;
	}

	get modelTime(): string | undefined {
		return this.modelAt;
	}

	private setSummary(message: ChatMessage, at: string | undefined): void {
		if (this.summary !== undefined) {
			this.superseded++;
			this.supersededChars += textSize(this.summary);
		}
		this.summary = copy(message);
		this.summaryAt = at;
	}

	private upsert(message: ChatMessage, at: string | undefined): void {
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
		for (let i = index; i < this.transcript.length; i++) this.positions.set(this.transcript[i]!.id, i);
	}

	has(messageId: string): boolean {
		return this.positions.has(messageId);
	}

	/** The user or assistant message with `id`, if held. */
	message(id: string): ChatMessage | undefined {
		const index = this.positions.get(id);
		return index === undefined ? undefined : this.transcript[index];
	}

	toSession(): Session {
		const messages = this.transcript.map(copy);
		if (this.summary !== undefined) messages.unshift(copy(this.summary));
		const session: Session = { id: this.id, title: this.title, createdAt: this.createdAt, updatedAt: this.updatedAt, messages };
		if (this.model !== undefined) session.model = this.model;
		return session;
	}

	toSummary(): SessionSummary {
		// The last message with text: a failed answer's empty content says nothing in a list.
		let last: ChatMessage | undefined;
		for (let i = this.transcript.length - 1; i >= 0 && last === undefined; i--) {
			const message = this.transcript[i];
			if (message !== undefined && message.content.trim() !== "") last = message;
		}
		return {
			id: this.id,
			title: this.title,
			createdAt: this.createdAt,
			updatedAt: this.updatedAt,
			messageCount: this.transcript.length,
			preview: last === undefined ? "" : oneLine(last.content, PREVIEW_MAX),
		};
	}
}

/**
 * The records of a compacted file holding `session`: header, title (when it is not the automatic
 * one), model (when one was picked), summary, messages, then the unreadable lines of the old file so none is ever lost. Each
 * record keeps the time it had in `previous` when its content is unchanged (else `at`), so a merge
 * with another device's copy can still tell which version is newer.
 */
export function compactRecords(session: Session, corrupt: readonly string[], at: string, previous?: SessionState): SessionRecord[] {
	const transcript = session.messages.filter((m) => m.role !== "system");
	const summary = session.messages.filter((m) => m.role === "system").pop();
	const timeOf = (message: ChatMessage, held: ChatMessage | undefined): string =>
		held !== undefined && sameMessage(held, message) ? (previous?.timeOf(message.id) ?? at) : at;
	const records: SessionRecord[] = [{ type: "session", v: FORMAT_VERSION, id: session.id, createdAt: session.createdAt, title: DEFAULT_TITLE, at }];
	if (session.title !== titleFromMessages(transcript)) {
		const titleAt = previous?.customTitle === session.title ? (previous.titleTime ?? at) : at;
		records.push({ type: "title", title: session.title, at: titleAt });
	}
	if (session.model !== undefined && session.model.trim() !== "") {
		const modelAt = previous?.model === session.model ? (previous.modelTime ?? at) : at;
		records.push({ type: "model", model: session.model, at: modelAt });
	}
	if (summary !== undefined) records.push({ type: "summary", message: summary, at: timeOf(summary, previous?.summary) });
	for (const message of transcript) records.push({ type: "message", message, at: timeOf(message, previous?.message(message.id)) });
	for (const raw of corrupt) records.push({ type: "corrupt", raw });
	return records;
}
