// Every message and summary a session file holds, on every branch, with when each was last set,
// and how much of the file later records made dead weight (what a compaction would save).

import type { ChatMessage } from "../core/types";
import type { BranchTree } from "./branchTree";
import { newer } from "./recordNews";

export function copyMessage(message: ChatMessage): ChatMessage {
	return { ...message };
}

/** The text a message record carries, in characters. */
function textSize(message: ChatMessage | undefined): number {
	return message === undefined ? 0 : message.content.length + (message.thinking?.length ?? 0);
}

export class SessionMessages {
	/** Every user, assistant and tool message of every branch, in time order. */
	readonly transcript: ChatMessage[] = [];
	private readonly positions = new Map<string, number>();
	/** Every summary, in the order written; each is valid only on branches through its `summaryOf`. */
	readonly summaries: ChatMessage[] = [];
	/** When each message and summary was last set: merges keep the newest. */
	private readonly messageAt = new Map<string, string>();
	/** Message and summary records whose effect a later record replaced. */
	superseded = 0;
	/** Characters of message text in those records (an answer's checkpoints repeat its text). */
	supersededChars = 0;

	/** `tree` learns of every message added or removed, to place it on its branch. */
	constructor(private readonly tree: BranchTree) {}

	has(messageId: string): boolean {
		return this.positions.has(messageId);
	}

	/** The user or assistant message with `id`, if held (on any branch). */
	message(id: string): ChatMessage | undefined {
		const index = this.positions.get(id);
		return index === undefined ? undefined : this.transcript[index];
	}

	summaryById(id: string): ChatMessage | undefined {
		return this.summaries.find((s) => s.id === id);
	}

	/** When the message or summary with `id` was last set, if known. */
	timeOf(id: string): string | undefined {
		return this.messageAt.get(id);
	}

	setSummary(message: ChatMessage, at: string | undefined): void {
		const index = this.summaries.findIndex((s) => s.id === message.id);
		const replaced = index >= 0 ? this.summaries[index] : this.summaries[this.summaries.length - 1];
		if (replaced !== undefined) {
			this.superseded++;
			this.supersededChars += textSize(replaced);
		}
		if (index >= 0) this.summaries[index] = copyMessage(message);
		else this.summaries.push(copyMessage(message));
		if (at !== undefined) this.messageAt.set(message.id, at);
	}

	upsert(message: ChatMessage, at: string | undefined, parent: string | null | undefined): void {
		if (message.role === "system") {
			// A system message outside a summary record can only be a summary.
			this.setSummary(message, at);
			return;
		}
		if (at !== undefined) this.messageAt.set(message.id, at);
		const index = this.positions.get(message.id);
		if (index !== undefined) {
			this.supersededChars += textSize(this.transcript[index]);
			this.transcript[index] = copyMessage(message);
			this.superseded++;
			return;
		}
		this.tree.add(message.id, parent, message.createdAt);
		// Messages stay in time order: one written on another device at the same moment can land
		// after a later one here. The common case (newest last) costs one comparison.
		let slot = this.transcript.length;
		while (slot > 0 && (this.transcript[slot - 1]?.createdAt ?? "") > message.createdAt) slot--;
		this.transcript.splice(slot, 0, copyMessage(message));
		for (let i = slot; i < this.transcript.length; i++) {
			const id = this.transcript[i]?.id;
			if (id !== undefined) this.positions.set(id, i);
		}
	}

	/**
	 * Removes a message (a failed answer's checkpoint); both its records are now dead weight. Its
	 * time is kept, so an older copy of it merged from another writer does not bring it back.
	 */
	discard(messageId: string, at: string | undefined): void {
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
}
