// The fences the plugin's settings draw (core/pathFences.ts compares against them): the config
// folder, the chats folder, the agents folder and the folders left out of the vault search.
import type { Fences } from "../core/pathFences";

export interface FenceSettings {
	sessionsFolder: string;
	agentsFolder: string;
	indexExcludedFolders: readonly string[];
}

export function fencesOf(settings: FenceSettings, configDir: string): Fences {
	return { configDir, chatsFolder: settings.sessionsFolder, agentsFolder: settings.agentsFolder, excluded: [...settings.indexExcludedFolders] };
}
