// Whether a record another writer added changes anything here: merges before a rewrite apply only
// what is news, so a stale copy never replaces a newer change.

import type { ChatMessage } from "../core/types";
import type { BranchTree } from "./branchTree";
import type { SessionRecord } from "./records";

/** When a record was written: its `at`, else its message's creation time. */
export function recordTime(record: SessionRecord): string | undefined {
	if (record.type === "message" || record.type === "update" || record.type === "summary") return record.at ?? record.message.createdAt;
	return record.at;
}

/** A time that is later than `than` (an unknown time is older than any). */
export function newer(at: string | undefined, than: string | undefined): boolean {
	return than === undefined || (at !== undefined && at > than);
}

export function sameMessage(a: ChatMessage | undefined, b: ChatMessage): boolean {
	return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/** What a session holds, and since when, as far as telling news from old copies needs (SessionState). */
export interface HeldState {
	readonly customTitle: string | undefined;
	readonly titleTime: string | undefined;
	readonly model: string | undefined;
	readonly modelTime: string | undefined;
	readonly agent: string | undefined;
	readonly agentTime: string | undefined;
	readonly tools: boolean | undefined;
	readonly toolsTime: string | undefined;
	readonly corrupt: readonly string[];
	readonly tree: BranchTree;
	message(id: string): ChatMessage | undefined;
	summaryById(id: string): ChatMessage | undefined;
	timeOf(id: string): string | undefined;
}

/** True when `record` would add or change something in `held` that is newer than what it holds. */
export function isNews(held: HeldState, record: SessionRecord): boolean {
	switch (record.type) {
		case "session":
			return false;
		case "corrupt":
			return !held.corrupt.includes(record.raw);
		case "title":
			return held.customTitle !== record.title && (held.titleTime === undefined || record.at > held.titleTime);
		case "model":
			return held.model !== record.model && newer(record.at, held.modelTime);
		case "switch":
			return held.tree.leaf !== record.leaf && newer(record.at, held.tree.leafAt);
		case "hide":
			return held.tree.isHidden(record.id) !== record.hidden && newer(record.at, held.tree.hiddenAt(record.id));
		case "agent":
			return held.agent !== record.agent && newer(record.at, held.agentTime);
		case "tools":
			return held.tools !== record.on && newer(record.at, held.toolsTime);
		case "summary":
		case "message":
		case "update": {
			// A system message outside a summary record can only be a summary. A message not held
			// (unknown, or discarded here after it was written) is news only when newer.
			const id = record.message.id;
			const current = record.type === "summary" || record.message.role === "system" ? held.summaryById(id) : held.message(id);
			return !sameMessage(current, record.message) && newer(recordTime(record), held.timeOf(id));
		}
	}
}
