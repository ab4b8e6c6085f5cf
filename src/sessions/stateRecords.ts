import type { ChatMessage, Session } from "../core/types";
import { FORMAT_VERSION, type SessionRecord } from "./records";
import { sameMessage } from "./recordNews";
import { DEFAULT_TITLE, SessionState, titleFromMessages } from "./sessionState";

/**
 * The summaries worth keeping in a compacted file: the one each branch would use. An older summary
 * that no branch uses any more is replaced, as a single summary always was (a summary is derived:
 * compaction makes another when a branch needs one).
 */
function keptSummaries(state: SessionState): ChatMessage[] {
	const used = new Set<ChatMessage>();
	const leaves = state.tree.leaves();
	for (const leaf of leaves) {
		const summary = state.summaryFor(state.visibleOn(state.tree.pathTo(leaf)));
		if (summary !== undefined) used.add(summary);
	}
	const active = state.summary;
	if (active !== undefined) used.add(active);
	if (leaves.length === 0) {
		const last = state.summaries[state.summaries.length - 1];
		if (last !== undefined && !state.tree.isHidden(last.id)) used.add(last);
	}
	return state.summaries.filter((s) => used.has(s));
}

/**
 * The records of a compacted file holding `state`: header, title (when it is not the automatic
 * one), model, agent, tools switch, the summaries branches use, every message of every branch (parents first, each with
 * its parent), the hide marks, the active branch when it is not the newest message's, then the
 * unreadable lines of the old file so none is ever lost. Each record keeps the time it had, so a
 * merge with another device's copy can still tell which version is newer.
 */
export function stateRecords(state: SessionState, at: string): SessionRecord[] {
	const records: SessionRecord[] = [{ type: "session", v: FORMAT_VERSION, id: state.id, createdAt: state.createdAt, title: DEFAULT_TITLE, at }];
	if (state.customTitle !== undefined && state.customTitle !== titleFromMessages(state.activeMessages())) {
		records.push({ type: "title", title: state.customTitle, at: state.titleTime ?? at });
	}
	if (state.model !== undefined && state.model.trim() !== "") records.push({ type: "model", model: state.model, at: state.modelTime ?? at });
	if (state.agent !== undefined && state.agent.trim() !== "") records.push({ type: "agent", agent: state.agent, at: state.agentTime ?? at });
	if (state.tools !== undefined) records.push({ type: "tools", on: state.tools, at: state.toolsTime ?? at });
	const summaries = keptSummaries(state);
	for (const summary of summaries) records.push({ type: "summary", message: summary, at: state.timeOf(summary.id) ?? at });
	// A message that follows the line before it (and is not older) needs no parent: the file of a
	// chat without branches stays exactly what it was before branches.
	let previousId: string | null = null;
	for (const id of state.tree.ordered()) {
		const message = state.message(id);
		if (message === undefined) continue;
		const parent = state.tree.parent(id) ?? null;
		const follows = parent === previousId && (parent === null || (state.tree.createdAt(parent) ?? "") <= message.createdAt);
		records.push({ type: "message", message, at: state.timeOf(id) ?? at, ...(follows ? {} : { parent }) });
		previousId = id;
	}
	const kept = new Set(summaries.map((s) => s.id));
	for (const [id, mark] of state.tree.marks()) {
		if (state.tree.has(id) || kept.has(id)) records.push({ type: "hide", id, hidden: mark.hidden, at: mark.at ?? at });
	}
	const leaf = state.tree.leaf;
	if (leaf !== previousId) records.push({ type: "switch", leaf, at: state.tree.leafAt ?? at });
	for (const raw of state.corrupt) records.push({ type: "corrupt", raw });
	return records;
}

/**
 * The records of a file rewritten from `session` (updateSession): what `previous` holds (every
 * branch, every message `session` lacks: they may have come from another device after `session`
 * was loaded), with `session`'s messages, summary, title, model, agent and tools switch written over it. A message
 * `session` adds continues the branch `session` shows.
 */
export function compactRecords(session: Session, corrupt: readonly string[], at: string, previous?: SessionState): SessionRecord[] {
	const base: SessionRecord[] = previous !== undefined ? stateRecords(previous, at) : [{ type: "session", v: FORMAT_VERSION, id: session.id, createdAt: session.createdAt, title: DEFAULT_TITLE, at }];
	const state = SessionState.fromRecords(session.id, base, at);
	state.createdAt = session.createdAt;
	if (previous === undefined) for (const raw of corrupt) state.apply({ type: "corrupt", raw });
	const given = session.messages.filter((m) => m.role !== "system");
	let parent: string | null = null;
	for (const message of given) {
		const held = state.message(message.id);
		if (held === undefined) state.apply({ type: "message", message, at, parent });
		else if (!sameMessage(held, message)) state.apply({ type: "update", message, at });
		parent = message.id;
	}
	const summary = session.messages.filter((m) => m.role === "system").pop();
	if (summary !== undefined && !sameMessage(state.summaryById(summary.id), summary)) state.apply({ type: "summary", message: summary, at });
	const last = given[given.length - 1];
	if (last !== undefined && !state.activeMessages().some((m) => m.id === last.id)) state.apply({ type: "switch", leaf: last.id, at });
	if (session.title !== titleFromMessages(state.activeMessages()) && session.title !== state.customTitle) state.apply({ type: "title", title: session.title, at });
	if (session.model !== undefined && session.model.trim() !== "" && session.model !== state.model) state.apply({ type: "model", model: session.model, at });
	if (session.agent !== undefined && session.agent.trim() !== "" && session.agent !== state.agent) state.apply({ type: "agent", agent: session.agent, at });
	if (session.tools !== undefined && session.tools !== (state.tools ?? true)) state.apply({ type: "tools", on: session.tools, at });
	return stateRecords(state, at);
}
