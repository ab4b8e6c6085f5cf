// An agent note's problem in the person's language: the note, the field, and what it must hold.
import type { AgentIssue } from "../../agents/agent";
import { AGENT_TOOLS } from "../../agents/agent";
import { pathSegments } from "../../core/pathFences";
import { t } from "../../i18n";

export function agentIssueText(issue: AgentIssue): string {
	const note = issue.path;
	switch (issue.field) {
		case "frontmatter":
			return t("agents.issueFrontmatter", { note });
		case "name":
			return t("agents.issueName", { note });
		case "provider":
			return t("agents.issueProvider", { note, value: issue.value ?? "" });
		case "model":
			// With a value: a model's name the server does not have (agentModel.ts).
			return issue.value === undefined ? t("agents.issueModel", { note }) : t("agents.issueUnknownModel", { note, value: issue.value });
		case "temperature":
			return t("agents.issueTemperature", { note });
		case "tools":
			return issue.value === undefined ? t("agents.issueTools", { note, tools: AGENT_TOOLS.join(", ") }) : t("agents.issueUnknownTool", { note, value: issue.value, tools: AGENT_TOOLS.join(", ") });
		case "sources":
			// A folder naming the whole vault ("/") is refused for what it would reach, not for its form.
			if (issue.value !== undefined && issue.value.trim().endsWith("/") && pathSegments(issue.value).length === 0) return t("agents.issueSourcesVault", { note, value: issue.value });
			return t("agents.issueSources", { note });
		case "baseUrl":
			return t("agents.issueBaseUrl", { note, value: issue.value ?? "" });
		case "secret":
			return t("agents.issueSecret", { note, value: issue.value ?? "" });
		case "writeFolders":
			return issue.value === undefined ? t("agents.issueWriteFoldersList", { note }) : t("agents.issueWriteFolders", { note, value: issue.value });
		case "mcp":
			return issue.value === undefined ? t("agents.issueMcpList", { note }) : t("agents.issueMcp", { note, value: issue.value });
	}
}
