// The agents as the panel and the settings tab use them: the wiring reads them from the agents
// folder's notes (the UI never touches the notes itself).
import type { Agent, AgentIssue } from "../../agents/agent";
import type { AgentApproval, AgentApprovalState, PrivilegedField } from "../../agents/agentTrust";

export type { Agent, AgentIssue };

/** An agent the person has not approved as it is: shown on the review card, not used until approved. */
export interface AgentReview {
	/** The agent as its note holds it now: what Approve approves. */
	agent: Agent;
	state: "new" | "changed";
	/** The version approved last (a changed agent). */
	approved?: AgentApproval;
	/** The privileged fields that differ from it. */
	changed?: PrivilegedField[];
}

/** The agent a chat gets, and why it is not the one asked for when that one could not be used. */
export interface AgentChoice {
	agent: Agent;
	/** The agent asked for is broken (or gone): `agent` is the default instead. */
	issue?: AgentIssue;
	/** The agent asked for no longer exists. */
	missing?: string;
	/** The path asked for is not a note in the agents folder: it is no agent, and nothing of it was read. */
	outside?: string;
	/** The agent asked for is not approved as it is: `agent` is the default until the person approves it. */
	review?: AgentReview;
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
	 * The agent at `path` (undefined: the default), or the default when it is missing, broken,
	 * outside the agents folder, or not approved as it is. `check` runs on the approved agent read
	 * and on the default it falls back to (a default that fails it too, or is not approved, gives
	 * way to the built-in agent).
	 */
	resolve(path: string | undefined, check?: AgentCheck): Promise<AgentChoice>;
	/** The agents folder, as the settings name it. */
	readonly folder: string;
	/** Whether `agent`, as it is now, is approved (or never was, or changed since). */
	approval(agent: Agent): AgentApprovalState;
	/** Approves `agent` exactly as given (the version the review card showed). Only the person's click calls this. */
	approve(agent: Agent): Promise<void>;
	/** Adds `tool` to the agent note's `tools` (its front matter), so it runs without asking. */
	allowTool(path: string, tool: string): Promise<void>;
	/** Removes `tool` from the agent note's `tools`. */
	disallowTool(path: string, tool: string): Promise<void>;
	/** Creates a new agent note from the template; resolves with its path. */
	create(): Promise<string>;
	/** Opens the agent's note in the editor. */
	open(path: string): Promise<void>;
}
