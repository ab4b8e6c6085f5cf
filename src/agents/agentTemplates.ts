// The text of the agent notes Discover writes: the default agent (created once, when the agents
// folder holds none) and the template "New agent" starts from. Both are ordinary notes afterwards:
// the person's to edit, never written over.
import { AGENT_TOOLS } from "./agent";

/** The default agent's file name inside the agents folder. */
export const DEFAULT_AGENT_FILE = "Default.md";

/** The default agent: the settings' model and the instructions the person had as their system prompt. */
export function defaultAgentNote(instructions: string): string {
	return ["---", "name: Default", "tools: []", "sources: []", "---", instructions.trim(), ""].join("\n");
}

/** A new agent: every option present, with a comment saying what it takes. */
export function newAgentNote(name: string): string {
	return [
		"---",
		`name: ${JSON.stringify(name)}`,
		"# provider: ollama, openai or anthropic (absent: the one in the settings)",
		"# model: the model's name (absent: the chat's model)",
		"temperature: 0.7",
		`# tools that run without asking: ${AGENT_TOOLS.join(", ")}`,
		"tools: []",
		'# notes ("[[Style guide]]") and folders ("Projects/") sent with every message',
		"sources: []",
		"---",
		"You are a helpful assistant. Describe here how this agent answers.",
		"",
	].join("\n");
}
