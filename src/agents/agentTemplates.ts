// The text of the agent notes Discover writes: the default agent (created once, when the agents
// folder holds none) and the template "New agent" starts from. Both are ordinary notes afterwards:
// the person's to edit, never written over.
import { AGENT_TOOLS } from "./agent";

/** The default agent's file name inside the agents folder. */
export const DEFAULT_AGENT_FILE = "Default.md";

/** Words and spaces stay as written; anything YAML might read otherwise (`:`, `#`, `yes`, a number) is quoted. */
const yamlText = (text: string): string =>
	/^\p{L}[\p{L}\p{N} _-]*$/u.test(text) && text.trim() === text && !/^(?:true|false|yes|no|on|off|null|y|n)$/i.test(text) ? text : JSON.stringify(text);

/**
 * The default agent: the settings' model and the instructions the person had as their system
 * prompt. `name` is in the person's language (the file keeps its name, DEFAULT_AGENT_FILE).
 */
export function defaultAgentNote(instructions: string, name = "Default"): string {
	return ["---", `name: ${yamlText(name)}`, "tools: []", "sources: []", "---", instructions.trim(), ""].join("\n");
}

/** A new agent: every option present, with a comment saying what it takes. */
export function newAgentNote(name: string): string {
	return [
		"---",
		`name: ${yamlText(name)}`,
		"# provider: ollama, openai or anthropic (absent: the one in the settings)",
		"# baseUrl: the server's address (absent: the settings' one for that provider, else its usual one)",
		"# secret: the name of a secret in Obsidian's keychain for that server (the settings' key goes only to the settings' server)",
		"# model: the model's name (absent: the chat's model)",
		"temperature: 0.7",
		`# tools the agent may use: ${AGENT_TOOLS.join(", ")} (reads run without asking; writes ask, except in writeFolders)`,
		"tools: []",
		'# folders ("Projects/") where its writes run without asking',
		"writeFolders: []",
		'# notes ("[[Style guide]]") and folders ("Projects/") sent with every message',
		"sources: []",
		"---",
		"You are a helpful assistant. Describe here how this agent answers.",
		"",
	].join("\n");
}
