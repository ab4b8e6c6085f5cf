import type { SessionSummary } from "./types";
import { asChatUsage } from "../core/answerStats";

export const INDEX_VERSION = 1;

/**
 * The index file: summaries for a fast list(), and for each session file the stamp
 * ("size:mtime" from FileStore.stat, "" when the store has none) it had when summarized.
 * It is only a cache: the JSONL files are the truth and the index is rebuilt from them.
 */
export interface IndexFile {
	v: number;
	sessions: SessionSummary[];
	files: Record<string, string>;
}

export interface IndexEntry {
	summary: SessionSummary;
	stamp: string;
}

function isSummary(value: unknown): value is SessionSummary {
	if (typeof value !== "object" || value === null) return false;
	const v = value as Record<string, unknown>;
	return (
		typeof v.id === "string" &&
		typeof v.title === "string" &&
		typeof v.createdAt === "string" &&
		typeof v.updatedAt === "string" &&
		typeof v.messageCount === "number" &&
		typeof v.preview === "string" &&
		// A damaged total makes the entry unusable, so it is summarized again from its file.
		(v.usage === undefined || asChatUsage(v.usage) !== undefined)
	);
}

/** Reads the index file; undefined when it is unusable (then it is rebuilt). */
export function parseIndex(text: string): Map<string, IndexEntry> | undefined {
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch {
		return undefined;
	}
	if (typeof data !== "object" || data === null) return undefined;
	const { v, sessions, files } = data as Record<string, unknown>;
	if (v !== INDEX_VERSION || !Array.isArray(sessions) || typeof files !== "object" || files === null) return undefined;
	const stamps = files as Record<string, unknown>;
	const entries = new Map<string, IndexEntry>();
	for (const summary of sessions) {
		if (!isSummary(summary)) continue;
		const stamp = stamps[summary.id];
		if (typeof stamp === "string") entries.set(summary.id, { summary, stamp });
	}
	return entries;
}

export function serializeIndex(entries: ReadonlyMap<string, IndexEntry>): string {
	const file: IndexFile = { v: INDEX_VERSION, sessions: [], files: {} };
	for (const [id, entry] of entries) {
		file.sessions.push(entry.summary);
		file.files[id] = entry.stamp;
	}
	return JSON.stringify(file);
}

/** Newest first by last update; ties by id, which sorts by creation time. */
export function compareNewestFirst(a: SessionSummary, b: SessionSummary): number {
	if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
	return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
