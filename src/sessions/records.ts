import type { ChatMessage, Role, SentPassage, SourceFit } from "../core/types";
import { lineHash } from "./fileText";
import { asBranchRecord, type HideRecord, type SwitchRecord } from "./branchRecords";

export type { HideRecord, SwitchRecord } from "./branchRecords";
import { asAnswerStats } from "../core/answerStats";

// The on-disk format: one JSON record per line ("JSONL"), appended, never edited in place.
// A crash mid-write can only tear the last line, which the parser reports and keeps.

export const FORMAT_VERSION = 1;

export interface HeaderRecord {
	type: "session";
	v: number;
	id: string;
	createdAt: string;
	title: string;
	/** When the file was (re)written; a rewrite counts as an update. */
	at?: string;
}

export interface MessageRecord {
	/** `message` appends (or replaces the same id), `update` replaces, `summary` sets the summary. */
	type: "message" | "summary" | "update";
	message: ChatMessage;
	at?: string;
	/**
	 * Only on `update`: removes the message with this id (the checkpoint of an answer whose turn
	 * failed). `message` is that message emptied and marked failed, so a reader that does not know
	 * this field shows a failed answer instead of a dangling partial one.
	 */
	discard?: true;
	/**
	 * The message before this one on its branch (null: the first message), written only when it is
	 * not the message on the line before (a compacted file with branches; see FORMAT.md,
	 * "Branches"). A record without it continues the branch active at that point of the file, so
	 * a file written before branches loads as one linear branch. Only a message's first record
	 * places it: later ones never move it.
	 */
	parent?: string | null;
}

export interface TitleRecord {
	type: "title";
	title: string;
	at: string;
}

/** The model the chat uses from now on (picked in the panel's header); the latest one wins. */
export interface ModelRecord {
	type: "model";
	model: string;
	at: string;
}

/** The agent the chat uses from now on (its note's vault path, picked in the panel's header); the latest one wins. */
export interface AgentRecord {
	type: "agent";
	agent: string;
	at: string;
}

/** The chat's tools switch (the wrench in the panel's header): off, its messages go without tools; the latest one wins. */
export interface ToolsRecord {
	type: "tools";
	on: boolean;
	at: string;
}

/** A line that could not be read, carried through rewrites so nothing is silently erased. */
export interface CorruptRecord {
	type: "corrupt";
	raw: string;
	at?: string;
}

export type SessionRecord = HeaderRecord | MessageRecord | TitleRecord | ModelRecord | AgentRecord | ToolsRecord | CorruptRecord | SwitchRecord | HideRecord;

export interface ParsedFile {
	records: SessionRecord[];
	/** One entry per unreadable line: line number (1-based) and why. */
	problems: { line: number; reason: string }[];
	/** False when the last line has no newline: the next append must start a fresh line. */
	endsWithNewline: boolean;
	/** lineHash of each record's line, in step with `records`. */
	hashes: number[];
	/** Lines that are not UTF-8: their exact bytes and the lineHash of their text. */
	undecodable: { bytes: Uint8Array; hash: number }[];
}

const ROLES: readonly Role[] = ["system", "user", "assistant", "tool"];

function isToolCall(value: unknown): boolean {
	return isObject(value) && typeof value.id === "string" && typeof value.name === "string" && isObject(value.arguments) && optional(value.invalidArguments, "string");
}

/** A call's server id that is not text is dropped (the call then answers the server under its own id). */
function withoutDamagedServerId(call: unknown): unknown {
	const value = call as Record<string, unknown>;
	if (value.serverId === undefined || typeof value.serverId === "string") return value;
	const rest = { ...value };
	delete rest.serverId;
	return rest;
}

function isImageRef(value: unknown): boolean {
	if (!isObject(value) || typeof value.path !== "string" || value.path === "" || typeof value.mediaType !== "string") return false;
	return [value.width, value.height, value.bytes].every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0);
}

export function encodeRecord(record: SessionRecord): string {
	// JSON.stringify escapes "\n" inside strings, so a record is always exactly one line.
	return JSON.stringify(record) + "\n";
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optional(value: unknown, type: "string" | "boolean"): boolean {
	return value === undefined || typeof value === type;
}

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

/** A saved MCP origin: a server and a tool named, a title and hints of the right types if any. */
function isMcpOrigin(value: unknown): boolean {
	if (!isObject(value) || typeof value.server !== "string" || typeof value.tool !== "string" || !optional(value.title, "string")) return false;
	const hints = value.annotations;
	if (hints === undefined) return true;
	return isObject(hints) && HINTS.every((h) => optional(hints[h], "boolean")) && optional(hints.title, "string");
}

export function asChatMessage(value: unknown): ChatMessage | undefined {
	if (!isObject(value)) return undefined;
	const { id, role, content, createdAt, cancelled, interrupted, error, summaryOf } = value;
	if (typeof id !== "string" || id === "" || typeof content !== "string" || typeof createdAt !== "string") return undefined;
	if (typeof role !== "string" || !(ROLES as readonly string[]).includes(role)) return undefined;
	if (!optional(cancelled, "boolean") || !optional(interrupted, "boolean") || !optional(error, "string") || !optional(summaryOf, "string")) return undefined;
	// Fields this version does not know are kept: a message written by a newer version (or a
	// newer engine) must survive a rewrite by this one.
	const message: ChatMessage = { ...value, id, role: role as Role, content, createdAt };
	// Thinking is an extra: a damaged one is dropped, never the answer it came with.
	if (value.thinking !== undefined && typeof value.thinking !== "string") delete message.thinking;
	if (value.thinkingMs !== undefined && !(typeof value.thinkingMs === "number" && Number.isFinite(value.thinkingMs) && value.thinkingMs >= 0)) delete message.thinkingMs;
	// So are the sources: damaged entries are dropped, the answer is kept.
	if (value.sources !== undefined) {
		const sources = asSourceFits(value.sources);
		if (sources === undefined) delete message.sources;
		else message.sources = sources;
	}
	// Tool fields likewise: a damaged call is dropped (its result then reaches the model as plain
	// text), never the message; damaged result fields are dropped too.
	if (value.toolCalls !== undefined) {
		const calls = Array.isArray(value.toolCalls) ? (value.toolCalls as unknown[]).filter(isToolCall).map(withoutDamagedServerId) : [];
		if (calls.length > 0) message.toolCalls = calls as ChatMessage["toolCalls"];
		else delete message.toolCalls;
	}
	// Image references likewise: a damaged one is dropped, never the message.
	if (value.attachments !== undefined) {
		const refs = Array.isArray(value.attachments) ? (value.attachments as unknown[]).filter(isImageRef) : [];
		if (refs.length > 0) message.attachments = refs as ChatMessage["attachments"];
		else delete message.attachments;
	}
	// What the answer cost is an extra too: a damaged one is dropped.
	if (value.stats !== undefined) {
		const stats = asAnswerStats(value.stats);
		if (stats === undefined) delete message.stats;
		else message.stats = stats;
	}
	if (!optional(value.toolCallId, "string")) delete message.toolCallId;
	if (!optional(value.name, "string")) delete message.name;
	if (!optional(value.isError, "boolean")) delete message.isError;
	if (value.mcp !== undefined && !isMcpOrigin(value.mcp)) delete message.mcp;
	return message;
}

const FITS: readonly string[] = ["whole", "excerpts", "none"];

function isCount(value: unknown): value is number {
	return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function asPassage(value: unknown): SentPassage | undefined {
	if (!isObject(value)) return undefined;
	const { start, end, headingPath } = value;
	if (!isCount(start) || !isCount(end) || end < start) return undefined;
	return { start, end, headingPath: typeof headingPath === "string" ? headingPath : "" };
}

/** A saved `sources` list with its unreadable entries (and passages) left out; undefined when it is not a list. */
export function asSourceFits(value: unknown): SourceFit[] | undefined {
	if (!Array.isArray(value)) return undefined;
	const fits: SourceFit[] = [];
	for (const entry of value as unknown[]) {
		if (!isObject(entry)) continue;
		const { id, name, totalTokens, sentTokens, fit, passages } = entry;
		if (typeof id !== "string" || typeof name !== "string" || !isCount(totalTokens) || !isCount(sentTokens) || typeof fit !== "string" || !FITS.includes(fit)) continue;
		// Fields this version does not know are kept, as on messages.
		const kept: SourceFit = { ...entry, id, name, totalTokens, sentTokens, fit: fit as SourceFit["fit"] };
		if (passages !== undefined) {
			if (Array.isArray(passages)) kept.passages = (passages as unknown[]).flatMap((p) => asPassage(p) ?? []);
			else delete kept.passages;
		}
		fits.push(kept);
	}
	return fits;
}

/** Validates one decoded line; a string explains why it is not a record. */
export function asRecord(value: unknown): SessionRecord | string {
	if (!isObject(value)) return "not a JSON object";
	const at = value.at;
	if (at !== undefined && typeof at !== "string") return "bad time stamp";
	switch (value.type) {
		case "session": {
			const { v, id, createdAt, title } = value;
			if (typeof v !== "number" || typeof id !== "string" || typeof createdAt !== "string" || typeof title !== "string") {
				return "bad session header";
			}
			if (v > FORMAT_VERSION) return `session format v${v} is newer than this version of the plugin reads`;
			return { type: "session", v, id, createdAt, title, ...(at === undefined ? {} : { at }) };
		}
		case "message":
		case "summary":
		case "update": {
			const message = asChatMessage(value.message);
			if (message === undefined) return `bad message in a ${value.type} record`;
			const discard = value.type === "update" && value.discard === true ? { discard: true as const } : {};
			// A damaged parent is dropped (the message then continues the active branch), never the message.
			const parent = value.parent === null || (typeof value.parent === "string" && value.parent !== "") ? { parent: value.parent } : {};
			return { type: value.type, message, ...(at === undefined ? {} : { at }), ...discard, ...(value.type === "summary" ? {} : parent) };
		}
		case "title": {
			const { title } = value;
			if (typeof title !== "string" || typeof at !== "string") return "bad title record";
			return { type: "title", title, at };
		}
		case "model": {
			const { model } = value;
			if (typeof model !== "string" || model.trim() === "" || typeof at !== "string") return "bad model record";
			return { type: "model", model, at };
		}
		case "agent": {
			const { agent } = value;
			if (typeof agent !== "string" || agent.trim() === "" || typeof at !== "string") return "bad agent record";
			return { type: "agent", agent, at };
		}
		case "tools": {
			const { on } = value;
			if (typeof on !== "boolean" || typeof at !== "string") return "bad tools record";
			return { type: "tools", on, at };
		}
		case "corrupt": {
			const { raw } = value;
			if (typeof raw !== "string") return "bad corrupt record";
			return { type: "corrupt", raw, ...(at === undefined ? {} : { at }) };
		}
		case "switch":
		case "hide":
			return asBranchRecord(value);
		default:
			return "unknown record type";
	}
}

/**
 * Splits a session file into records. Never throws: unreadable lines become `corrupt` records,
 * and lines listed in `undecodable` (0-based, not UTF-8) are kept as bytes, not read.
 */
export function parseSessionFile(text: string, undecodableLines: ReadonlyMap<number, Uint8Array> = new Map()): ParsedFile {
	const records: SessionRecord[] = [];
	const hashes: number[] = [];
	const undecodable: ParsedFile["undecodable"] = [];
	const problems: ParsedFile["problems"] = [];
	const endsWithNewline = text === "" || text.endsWith("\n");
	const lines = text.split("\n");
	// split() leaves "" after a final newline; otherwise the last element is a torn line.
	if (endsWithNewline) lines.pop();
	for (let i = 0; i < lines.length; i++) {
		const whole = lines[i] ?? "";
		const bytes = undecodableLines.get(i);
		if (bytes !== undefined) {
			problems.push({ line: i + 1, reason: "not valid UTF-8 (the line is kept byte for byte)" });
			undecodable.push({ bytes, hash: lineHash(whole) });
			continue;
		}
		// tolerate CRLF added by other tools
		const line = whole.endsWith("\r") ? whole.slice(0, -1) : whole;
		if (line.trim() === "") continue;
		hashes.push(lineHash(whole));
		const torn = !endsWithNewline && i === lines.length - 1;
		let reason: string;
		try {
			const result = asRecord(JSON.parse(line));
			if (typeof result !== "string") {
				records.push(result);
				continue;
			}
			reason = result;
		} catch {
			reason = torn ? "torn last line (an interrupted write)" : "not valid JSON";
		}
		problems.push({ line: i + 1, reason });
		records.push({ type: "corrupt", raw: line });
	}
	return { records, problems, endsWithNewline, hashes, undecodable };
}
