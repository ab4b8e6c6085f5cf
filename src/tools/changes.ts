// What the write tools changed, so a change can be undone: the note's exact text (BOM and line ends
// as they were) before and after. A revert restores the earlier text, byte for byte, only while the
// note still holds exactly what the tool wrote;
// if the person (or anything else) changed it since, the revert is refused rather than losing
// their edit. The journal keeps the latest MAX_CHANGES changes (two copies of a note each).
import { exactNoteText, noteView } from "./noteText";
import { ToolError } from "./paths";
import type { VaultAccess } from "./types";

export interface NoteChange {
	/**
	 * The tool call's id when the loop passed it (the engine's own, unique across chats), else a
	 * journal id ("change-3").
	 */
	id: string;
	tool: string;
	path: string;
	/** null: the tool created the note. */
	before: string | null;
	after: string;
	/** ms since the epoch. */
	at: number;
}

export const MAX_CHANGES = 50;

export class ChangeJournal {
	private readonly changes: NoteChange[] = [];
	private counter = 0;

	constructor(
		private readonly vault: VaultAccess,
		private readonly now: () => number = Date.now,
	) {}

	/**
	 * Files a change under the call's id. An id already filed never takes over the earlier change
	 * (Revert by that id must undo the write it named): the new change gets a journal id instead.
	 */
	record(change: Omit<NoteChange, "id" | "at"> & { id?: string }): NoteChange {
		const taken = change.id !== undefined && this.get(change.id) !== undefined;
		const id = change.id !== undefined && !taken ? change.id : `change-${++this.counter}`;
		const entry: NoteChange = { ...change, id, at: this.now() };
		this.changes.push(entry);
		if (this.changes.length > MAX_CHANGES) this.changes.shift();
		return entry;
	}

	get(id: string): NoteChange | undefined {
		return this.changes.find((c) => c.id === id);
	}

	/** Oldest first. */
	list(): readonly NoteChange[] {
		return this.changes;
	}

	/**
	 * Undoes change `id`: the note gets its earlier text back (a created note goes to the trash).
	 * Refused with a ToolError, touching nothing, when the note changed since or is gone.
	 */
	async revert(id: string): Promise<string> {
		const change = this.get(id);
		if (!change) throw new ToolError("This change can no longer be reverted: it is not in this session's list of recent changes.");
		const { path } = change;
		if (!this.vault.exists(path)) throw new ToolError(`Cannot revert: ${path} no longer exists.`);
		const changedSince = `Cannot revert: ${path} was changed after this edit; reverting would lose those changes.`;
		// The note's exact text (from its bytes) must be what the tool wrote; a note no longer UTF-8 was changed too.
		const now = await exactNoteText(this.vault, path).catch(() => undefined);
		if (now !== change.after) throw new ToolError(changedSince);
		if (change.before === null) {
			await this.vault.trash(path);
		} else {
			const before = change.before;
			await this.vault.process(path, (current) => {
				if (noteView(current) !== noteView(change.after)) throw new ToolError(changedSince);
				// The text before the edit, BOM and line ends as they were: the exact bytes again.
				return before;
			});
		}
		this.changes.splice(this.changes.indexOf(change), 1);
		return change.before === null ? `Reverted: ${path} was moved to the trash.` : `Reverted: ${path} has its earlier text again.`;
	}
}
