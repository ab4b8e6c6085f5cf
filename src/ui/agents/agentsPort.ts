// The agents as the panel and the settings tab use them: the wiring reads them from the agents
// folder's notes (the UI never touches the notes itself).
import type { Agent, AgentIssue } from "../../agents/agent";

export type { Agent, AgentIssue };

/** The agent a chat gets, and why it is not the one asked for when that one could not be used. */
export interface AgentChoice {
	agent: Agent;
	/** The agent asked for is broken (or gone): `agent` is the default instead. */
	issue?: AgentIssue;
	/** The agent asked for no longer exists. */
	missing?: string;
}

/**
 * A check beyond the note's own text (its model against the server's list): the problem it finds,
 * or undefined when the agent is usable or the check cannot tell.
 */
export type AgentCheck = (agent: Agent) => Promise<AgentIssue | undefined>;

export interface AgentsPort {
	/** Every agent note in the folder, read afresh; broken notes come as issues. Creates the default agent when the folder has none. */
	list(): Promise<{ agents: Agent[]; issues: AgentIssue[] }>;
	/**
	 * The agent at `path` (undefined: the default), or the default when it is missing or broken.
	 * `check` runs on the agent read and on the default it falls back to (a default that fails it
	 * too gives way to the built-in agent).
	 */
	resolve(path: string | undefined, check?: AgentCheck): Promise<AgentChoice>;
	/** Adds `tool` to the agent note's `tools` (its front matter), so it runs without asking. */
	allowTool(path: string, tool: string): Promise<void>;
	/** Removes `tool` from the agent note's `tools`. */
	disallowTool(path: string, tool: string): Promise<void>;
	/** Creates a new agent note from the template; resolves with its path. */
	create(): Promise<string>;
	/** Opens the agent's note in the editor. */
	open(path: string): Promise<void>;
}
