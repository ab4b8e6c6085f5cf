import type { ChatMessage, Session } from "../chat/types";
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

/** A session as rebuilt from its records: the in-memory model the manager caches. */
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
	/** False when the file's last line has no newline yet. */
	endsWithNewline = true;
	/** Records whose effect a later record replaced: what a compaction would save. */
	superseded = 0;
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
				break;
			case "corrupt":
				this.corrupt.push(record.raw);
				break;
			case "summary":
				if (this.summary !== undefined) this.superseded++;
				this.summary = copy(record.message);
				break;
			case "message":
			case "update":
				this.upsert(record.message);
				break;
		}
		const at = record.type === "message" || record.type === "update" || record.type === "summary" ? (record.at ?? record.message.createdAt) : record.at;
		if (at !== undefined && at > this.updatedAt) this.updatedAt = at;
	}

	private upsert(message: ChatMessage): void {
		if (message.role === "system") {
			// A system message outside a summary record can only be a summary.
			if (this.summary !== undefined) this.superseded++;
			this.summary = copy(message);
			return;
		}
		const at = this.positions.get(message.id);
		if (at === undefined) {
			this.positions.set(message.id, this.transcript.length);
			this.transcript.push(copy(message));
		} else {
			this.transcript[at] = copy(message);
			this.superseded++;
		}
	}

	has(messageId: string): boolean {
		return this.positions.has(messageId);
	}

	toSession(): Session {
		const messages = this.transcript.map(copy);
		if (this.summary !== undefined) messages.unshift(copy(this.summary));
		return { id: this.id, title: this.title, createdAt: this.createdAt, updatedAt: this.updatedAt, messages };
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
 * one), summary, messages, then the unreadable lines of the old file so none is ever lost.
 */
export function compactRecords(session: Session, corrupt: readonly string[], at: string): SessionRecord[] {
	const transcript = session.messages.filter((m) => m.role !== "system");
	const summary = session.messages.filter((m) => m.role === "system").pop();
	const records: SessionRecord[] = [{ type: "session", v: FORMAT_VERSION, id: session.id, createdAt: session.createdAt, title: DEFAULT_TITLE, at }];
	if (session.title !== titleFromMessages(transcript)) records.push({ type: "title", title: session.title, at });
	if (summary !== undefined) records.push({ type: "summary", message: summary });
	for (const message of transcript) records.push({ type: "message", message });
	for (const raw of corrupt) records.push({ type: "corrupt", raw });
	return records;
}
