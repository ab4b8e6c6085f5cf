import type { SessionRecord } from "./records";
import type { SessionState } from "./sessionState";

/** A message's alternatives: the messages under the same parent (itself included), oldest first. */
export interface Alternatives {
	/** Their ids, oldest first; one id when there is no alternative. */
	ids: string[];
	/** Where the message is among them (0-based): the panel shows `index + 1 / ids.length`. */
	index: number;
}

export function alternativesOf(state: SessionState, messageId: string): Alternatives {
	const ids = state.tree.siblings(messageId);
	return ids.length === 0 ? { ids: [], index: -1 } : { ids, index: ids.indexOf(messageId) };
}

/** The record that makes the branch ending at `leaf` active; none when it already is. */
export function switchTo(state: SessionState, leaf: string | null, at: string): SessionRecord[] {
	if (leaf !== null && !state.tree.has(leaf)) throw new RangeError(`No message ${JSON.stringify(leaf.slice(0, 40))} in this chat.`);
	return state.tree.leaf === leaf ? [] : [{ type: "switch", leaf, at }];
}

/** The record that makes the branch ending just before `messageId` active: where an edited message goes. */
export function switchBefore(state: SessionState, messageId: string, at: string): SessionRecord[] {
	if (!state.tree.has(messageId)) throw new RangeError(`No message ${JSON.stringify(messageId.slice(0, 40))} in this chat.`);
	return switchTo(state, state.tree.parent(messageId) ?? null, at);
}

/** The records that open the branch through `messageId`, down to its newest message. */
export function openBranch(state: SessionState, messageId: string, at: string): SessionRecord[] {
	if (!state.tree.has(messageId)) throw new RangeError(`No message ${JSON.stringify(messageId.slice(0, 40))} in this chat.`);
	// Already on the active branch: nothing changes (a search hit in the chat as shown).
	if (state.tree.path().includes(messageId)) return [];
	return switchTo(state, state.tree.latestDescendant(messageId), at);
}

/**
 * The records that hide (or bring back) the turn holding `messageId` on the active branch: a
 * `hide` on the turn's user message, and one on the branch's summary when that summary covers the
 * turn, since it was made with (or without) the turn's text; compaction then makes a new one.
 */
export function hideTurn(state: SessionState, messageId: string, hidden: boolean, at: string): SessionRecord[] {
	const path = state.tree.path();
	const index = path.indexOf(messageId);
	if (index < 0) throw new RangeError("That message is not on the chat's active branch.");
	let start = index;
	while (start > 0 && state.message(path[start]!)?.role !== "user") start--;
	const turn = path[start]!;
	if (state.tree.isHidden(turn) === hidden) return [];
	const records: SessionRecord[] = [{ type: "hide", id: turn, hidden, at }];
	const summary = state.summary;
	const covered = summary?.summaryOf === undefined ? -1 : path.indexOf(summary.summaryOf);
	if (summary !== undefined && covered >= start) records.push({ type: "hide", id: summary.id, hidden: true, at });
	return records;
}

/** The hidden turns' user messages on the active branch, for the history browser's Restore. */
export function hiddenTurns(state: SessionState): string[] {
	return state.tree.path().filter((id) => state.tree.isHidden(id) && state.message(id)?.role === "user");
}
