// Agent notes the person approved before the test begins (on an earlier review card): their
// approvals, as the settings keep them, computed from the notes' text the way the plugin reads it.
import { agentFromNote, splitFrontMatter, type Agent } from "../../src/agents/agent";
import { withApproval, type AgentApproval } from "../../src/agents/agentTrust";
import { parseYaml } from "../obsidian/yaml";

/** The agent a note's text describes (throws for a broken note: a test approves only good ones). */
export function agentOf(path: string, text: string): Agent {
	const { yaml, body } = splitFrontMatter(text);
	const result = agentFromNote(path, yaml === undefined ? undefined : parseYaml(yaml), body);
	if (!result.ok) throw new Error(`${path} is not a valid agent note: ${JSON.stringify(result.issue)}`);
	return result.agent;
}

/** Approvals of `notes` (path → text) as they are, at `at`. */
export function approvalsOf(notes: Record<string, string>, at = new Date("2026-01-01T00:00:00Z")): AgentApproval[] {
	let approvals: AgentApproval[] = [];
	for (const [path, text] of Object.entries(notes)) approvals = withApproval(approvals, agentOf(path, text), at);
	return approvals;
}
