// A MemoryVault with the six tools over it, for the tool tests.
import { createVaultTools } from "../../src/tools";
import { MemoryVault } from "../../src/tools/memoryVault";
import type { Tool, ToolScope } from "../../src/tools/types";

export const SCOPE: ToolScope = { chatsFolder: () => "Discover/Chats", excludedFolders: () => ["Private"] };

/** The stand-in vault's config folder (Obsidian's default name). */
export const CONFIG_DIR = ".obsidian";

export function toolbox(notes: Record<string, string>) {
	const vault = new MemoryVault(notes, { configDir: CONFIG_DIR });
	const { tools, changes } = createVaultTools(vault, SCOPE, () => 1_000);
	const tool = (name: string): Tool => {
		const found = tools.find((t) => t.name === name);
		if (!found) throw new Error(`no tool ${name}`);
		return found;
	};
	const run = (name: string, args: Record<string, unknown>, callId?: string): Promise<string> => tool(name).run(args, { signal: new AbortController().signal, callId });
	return { vault, tools, changes, tool, run };
}
