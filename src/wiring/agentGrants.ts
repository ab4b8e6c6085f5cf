// The permission rules' view of the open chat's agent. Its `tools` make tools available to the
// model; its writes run without a card only while the person has approved the agent (`approved`,
// supplied by the wiring) and only inside the folders it named (`writeFolders`): the rule is
// agentTrust's agentAllowsUnasked. A read tool it lists runs unasked while it is approved. "Always allow" in a
// chat with an agent never writes into the agent's note: it is a scoped rule in the settings,
// optionally limited to this agent. The engine serves one chat at a time, so only that chat has an
// agent here.
import type { Agent } from "../agents/agent";
import { agentAllowsUnasked } from "../agents/agentTrust";
import type { AgentGrants } from "../tools/permissions";

export interface OpenAgent {
	chatId: string | undefined;
	agent: Agent | undefined;
	/** Whether the person approved this agent as it is now (its review); false: its writes ask. */
	approved: boolean;
}

export function agentGrants(open: () => OpenAgent): AgentGrants {
	const ofChat = (chatId: string): { agent: Agent; approved: boolean } | undefined => {
		const { chatId: openId, agent, approved } = open();
		// The built-in fallback (no note) is not an agent a rule can name or the person approved.
		return openId === chatId && agent && agent.path !== "" ? { agent, approved } : undefined;
	};
	return {
		allowsUnasked(chatId, tool, paths, access = paths.length === 0 ? "read" : "write") {
			const found = ofChat(chatId);
			return found !== undefined && agentAllowsUnasked(found.agent, found.approved, tool, paths, access);
		},
		agentOf: (chatId) => ofChat(chatId)?.agent.path,
	};
}
