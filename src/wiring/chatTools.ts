// The panel's vault tools: the six tools over the vault (search through the plugin's note index),
// the permission rules over the settings, the engine's `approve` for the chat on screen, and undo by
// call id through the tools' change journal.
import type { App } from "obsidian";
import type { Tool as CoreTool, ToolApproval, ToolCall } from "../core/types";
import type { Fences } from "../core/pathFences";
import type { DiscoverSettings } from "../settings/settings";
import { fencesOf } from "../settings/fences";
import { PermissionRules, type AgentGrants, type AskFn } from "../tools/permissions";
import type { Tool } from "../tools/types";
import type { DiscoverHost } from "../ui/host";
import type { RevertOutcome, ToolsPort } from "../ui/toolsPort";
import type { IndexState, NoteIndexService } from "./noteIndexService";
import { settingsRuleStore } from "./toolRuleStore";
import { createObsidianVaultTools } from "./vaultAccess";

export interface PanelTools extends ToolsPort {
	tools: Tool[];
	/** The engine's approve: rules first, then the panel's `ask`, for the chat `chatId()` names. */
	approve: (call: ToolCall, tool: CoreTool) => Promise<ToolApproval>;
	rules: PermissionRules;
}

/** The note index as search_notes needs it, through the host's `@vault` search (the plugin's index service). */
function indexOf(host: DiscoverHost): Pick<NoteIndexService, "state" | "search" | "searchText"> {
	return {
		get state(): IndexState {
			// The plugin's index service says how far it is; another search is ready when enabled.
			const search: { enabled: boolean; state?: IndexState } | undefined = host.vaultSearch;
			if (search?.enabled !== true) return "off";
			return search.state ?? "ready";
		},
		search: (query, opts) => host.vaultSearch?.search(query, opts) ?? [],
		searchText: async (query, opts) => {
			const search = host.vaultSearch;
			if (!search) return [];
			return search.searchText ? await search.searchText(query, opts) : search.search(query, opts);
		},
	};
}

export function createPanelTools(host: DiscoverHost & { app: App; settings: DiscoverSettings }, chatId: () => string | undefined, ask: AskFn | undefined, grants?: AgentGrants): PanelTools {
	const { tools, changes } = createObsidianVaultTools(host.app, () => host.settings, indexOf(host));
	const byName = new Map(tools.map((t) => [t.name, t]));
	// Scoped "Always allow" rules in the settings, never over a fenced place; the chat's approved agent in its folders.
	const fences = (): Fences => fencesOf(host.settings, host.app.vault.configDir);
	const rules = new PermissionRules({ ...settingsRuleStore(host), fences }, undefined, grants);
	// Without a panel to ask, nothing that needs asking runs (a denial the model is told about).
	const askPanel: AskFn = ask ?? (() => Promise.resolve({ kind: "deny" }));
	const revert = async (callId: string): Promise<RevertOutcome> => {
		const change = changes.get(callId);
		if (!change) return { ok: false, reason: "unavailable" };
		try {
			await changes.revert(callId);
			return { ok: true };
		} catch (err) {
			const detail = err instanceof Error ? err.message : String(err);
			if (host.app.vault.getAbstractFileByPath(change.path) === null) return { ok: false, reason: "gone", detail };
			// The journal refuses only when the note no longer holds what the tool wrote.
			return { ok: false, reason: changes.get(callId) ? "changed" : "failed", detail };
		}
	};
	return {
		tools,
		rules,
		approve: (call, tool) => rules.approverFor(chatId() ?? "", askPanel)(call, byName.get(tool.name) ?? tool),
		revert,
		canRevert: (callId) => changes.get(callId) !== undefined,
		forgetChat: (id) => rules.forgetChat(id),
	};
}
