// What one branch of a chat shows: its messages without the hidden turns, and the summary that
// stands for its older part.

import type { ChatMessage } from "../core/types";
import type { BranchTree } from "./branchTree";
import type { SessionMessages } from "./sessionMessages";

/**
 * The messages of a branch (its ids, first first) without hidden turns: a hidden user message
 * hides itself and the answers, calls and results after it, up to the next user message.
 */
export function visibleOn(tree: BranchTree, messages: SessionMessages, path: readonly string[]): ChatMessage[] {
	const out: ChatMessage[] = [];
	let skipping = false;
	for (const id of path) {
		const message = messages.message(id);
		if (message === undefined) continue;
		if (message.role === "user") skipping = tree.isHidden(id);
		else if (tree.isHidden(id)) skipping = true;
		if (!skipping) out.push(message);
	}
	return out;
}

/**
 * The newest summary whose covered message is on `visible` (the branch's shown messages) and
 * that was not dropped: a summary describes the branch it was made on, so another branch never
 * gets it. A summary from before branches (no `summaryOf`) stands for every branch.
 */
export function summaryFor(tree: BranchTree, messages: SessionMessages, visible: readonly ChatMessage[]): ChatMessage | undefined {
	if (messages.summaries.length === 0) return undefined;
	const ids = new Set(visible.map((m) => m.id));
	let best: ChatMessage | undefined;
	let bestAt = "";
	for (const summary of messages.summaries) {
		if (tree.isHidden(summary.id)) continue;
		if (summary.summaryOf !== undefined && !ids.has(summary.summaryOf)) continue;
		const at = messages.timeOf(summary.id) ?? summary.createdAt;
		if (best === undefined || at >= bestAt) {
			best = summary;
			bestAt = at;
		}
	}
	return best;
}

/** The active branch's first shown message of the person's (the automatic title), as a list of at most one. */
export function firstShownUser(tree: BranchTree, messages: SessionMessages): ChatMessage[] {
	for (const id of tree.path()) {
		const message = messages.message(id);
		if (message?.role === "user" && !tree.isHidden(id)) return [message];
	}
	return [];
}
