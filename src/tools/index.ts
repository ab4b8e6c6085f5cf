// The built-in vault tools, ready for the turn loop: createVaultTools(vault, scope) gives the six
// tools and the journal that reverts their writes.
import { ChangeJournal } from "./changes";
import { getActiveNoteTool, listNotesTool, readNoteTool, searchNotesTool, type ToolDeps } from "./readTools";
import { createNoteTool, editNoteTool } from "./writeTools";
import type { Tool, ToolScope, VaultAccess } from "./types";

export interface VaultTools {
	tools: Tool[];
	changes: ChangeJournal;
}

export function createVaultTools(vault: VaultAccess, scope: ToolScope, now: () => number = Date.now): VaultTools {
	const deps: ToolDeps = { vault, scope, now };
	const changes = new ChangeJournal(vault, now);
	return {
		tools: [searchNotesTool(deps), readNoteTool(deps), listNotesTool(deps), getActiveNoteTool(deps), createNoteTool(deps, changes), editNoteTool(deps, changes)],
		changes,
	};
}

export type { Tool, ToolPreview, ToolRunContext, ToolScope, VaultAccess, VaultNote } from "./types";
export { ChangeJournal, type NoteChange } from "./changes";
export { ToolError } from "./paths";
