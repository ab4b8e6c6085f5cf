// The permission rules' view of the open chat's agent: its `tools` run without asking, and an
// "Always allow" given in the chat is written into the agent note's front matter (visible there,
// and revoked by removing it). The engine serves one chat at a time, so only that chat has an agent
// here; a chat whose agent is not a note (the built-in fallback) leaves the grant to the settings.
import type { Agent } from "../agents/agent";
import type { AgentGrants } from "../tools/permissions";
import type { AgentsPort } from "../ui/agents/agentsPort";

export function agentGrants(agents: AgentsPort | undefined, open: () => { chatId: string | undefined; agent: Agent | undefined }): AgentGrants {
	return {
		allowed(chatId) {
			const { chatId: openId, agent } = open();
			return openId === chatId && agent ? agent.tools : [];
		},
		async grant(chatId, tool) {
			const { chatId: openId, agent } = open();
			if (!agents || openId !== chatId || !agent || agent.path === "") return false;
			await agents.allowTool(agent.path, tool);
			// The next call in this chat is allowed at once, before the note is read again.
			if (!agent.tools.includes(tool)) agent.tools = [...agent.tools, tool];
			return true;
		},
	};
}
