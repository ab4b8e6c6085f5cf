// FileManager: only trashFile, which in Obsidian follows the person's "deleted files" preference
// (system trash, the vault's .trash, or deleted); here it is the vault's system-trash delete.
import type * as O from "obsidian";
import type { Vault } from "./vault";

export class FileManager implements Pick<O.FileManager, "trashFile"> {
	constructor(private readonly vault: Vault) {}

	trashFile(file: O.TAbstractFile): Promise<void> {
		return this.vault.trash(file, true);
	}
}
